import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport, type ImportResult } from '../harness/cli-import.ts';
import { csvEncodings, writeCsv, type CsvEncoding } from '../harness/data.ts';
import { work } from '../harness/paths.ts';

export interface MeasuredImport {
  encoding: CsvEncoding;
  /** The CSV file imported, and the data directory it went into; UTF-8 ones are kept for case i. */
  csv: string;
  dataDir: string;
  fileBytes: number;
  databaseBytes: number;
  result: ImportResult;
}

/** Where case d keeps its files until `removeImports`. */
const dir = join(work, 'import');

/** The seed of case d's rows, so a later case can tell which row is last. */
export const importSeed = 3;

/**
 * Imports CSV files of each size into a fresh data directory with `sheetport import`, one at a
 * time with no server running, and reports time and the import process's peak memory. Each
 * size is written in each encoding (the same rows as UTF-8, Windows-1252 and UTF-16LE), so that
 * memory can be seen to stay flat whatever the file's encoding. The UTF-8 files stay until
 * `removeImports`, for case i to serve.
 */
export async function measureImports(
  sizes: number[],
  log: (line: string) => void,
  encodings: readonly CsvEncoding[] = csvEncodings,
): Promise<MeasuredImport[]> {
  await removeImports();
  await mkdir(dir, { recursive: true });
  const measured: MeasuredImport[] = [];
  for (const rows of sizes) {
    for (const encoding of encodings) {
      const csv = join(dir, `people-${rows}-${encoding}.csv`);
      const label = `${rows.toLocaleString('en')}-row ${encoding} CSV`;
      log(`generating a ${label}`);
      await writeCsv(csv, rows, importSeed, encoding);
      const dataDir = join(dir, `sheetport-${rows}-${encoding}`);
      log(`importing the ${label}`);
      const result = await runImport(dataDir, csv, `people_${rows}`);
      if (result.rowCount !== rows) throw new Error(`imported ${result.rowCount} of ${rows} rows`);
      measured.push({
        encoding,
        csv,
        dataDir,
        fileBytes: (await stat(csv)).size,
        databaseBytes: await directoryBytes(dataDir),
        result,
      });
      if (encoding !== 'utf-8') {
        await rm(dataDir, { recursive: true, force: true });
        await rm(csv, { force: true });
      }
    }
  }
  return measured;
}

export function removeImports(): Promise<void> {
  return rm(dir, { recursive: true, force: true });
}

export async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

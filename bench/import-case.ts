import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport, type ImportResult } from './cli-import.ts';
import { csvEncodings, writeCsv, type CsvEncoding } from './data.ts';
import { work } from './paths.ts';

export interface MeasuredImport {
  encoding: CsvEncoding;
  fileBytes: number;
  databaseBytes: number;
  result: ImportResult;
}

/**
 * Imports CSV files of each size into a fresh data directory with `sheetport import`, one at a
 * time with no server running, and reports time and the import process's peak memory. Each
 * size is written in each encoding (the same rows as UTF-8, Windows-1252 and UTF-16LE), so that
 * memory can be seen to stay flat whatever the file's encoding.
 */
export async function measureImports(
  sizes: number[],
  log: (line: string) => void,
  encodings: readonly CsvEncoding[] = csvEncodings,
): Promise<MeasuredImport[]> {
  const dir = join(work, 'import');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const measured: MeasuredImport[] = [];
  for (const rows of sizes) {
    for (const encoding of encodings) {
      const csv = join(dir, `people-${rows}-${encoding}.csv`);
      const label = `${rows.toLocaleString('en')}-row ${encoding} CSV`;
      log(`generating a ${label}`);
      await writeCsv(csv, rows, 3, encoding);
      const dataDir = join(dir, `sheetport-${rows}-${encoding}`);
      log(`importing the ${label}`);
      const result = await runImport(dataDir, csv, `people_${rows}`);
      if (result.rowCount !== rows) throw new Error(`imported ${result.rowCount} of ${rows} rows`);
      measured.push({
        encoding,
        fileBytes: (await stat(csv)).size,
        databaseBytes: await directoryBytes(dataDir),
        result,
      });
      await rm(dataDir, { recursive: true, force: true });
      await rm(csv, { force: true });
    }
  }
  await rm(dir, { recursive: true, force: true });
  return measured;
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

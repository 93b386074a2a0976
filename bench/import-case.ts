import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport, type ImportResult } from './cli-import.ts';
import { writeCsv } from './data.ts';
import { work } from './paths.ts';

export interface MeasuredImport {
  /** The CSV file imported, and the data directory it went into; kept for case i. */
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
 * time with no server running, and reports time and the import process's peak memory. The files
 * stay until `removeImports`, for case i to serve.
 */
export async function measureImports(
  sizes: number[],
  log: (line: string) => void,
): Promise<MeasuredImport[]> {
  await removeImports();
  await mkdir(dir, { recursive: true });
  const measured: MeasuredImport[] = [];
  for (const rows of sizes) {
    const csv = join(dir, `people-${rows}.csv`);
    log(`generating a ${rows.toLocaleString('en')}-row CSV`);
    await writeCsv(csv, rows, importSeed);
    const dataDir = join(dir, `sheetport-${rows}`);
    log(`importing ${rows.toLocaleString('en')} rows`);
    const result = await runImport(dataDir, csv, `people_${rows}`);
    if (result.rowCount !== rows) throw new Error(`imported ${result.rowCount} of ${rows} rows`);
    measured.push({
      csv,
      dataDir,
      fileBytes: (await stat(csv)).size,
      databaseBytes: await directoryBytes(dataDir),
      result,
    });
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

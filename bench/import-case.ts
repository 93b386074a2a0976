import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport, type ImportResult } from './cli-import.ts';
import { writeCsv } from './data.ts';
import { work } from './paths.ts';

export interface MeasuredImport {
  fileBytes: number;
  databaseBytes: number;
  result: ImportResult;
}

/**
 * Imports CSV files of each size into a fresh data directory with `sheetport import`, one at a
 * time with no server running, and reports time and the import process's peak memory.
 */
export async function measureImports(
  sizes: number[],
  log: (line: string) => void,
): Promise<MeasuredImport[]> {
  const dir = join(work, 'import');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const measured: MeasuredImport[] = [];
  for (const rows of sizes) {
    const csv = join(dir, `people-${rows}.csv`);
    log(`generating a ${rows.toLocaleString('en')}-row CSV`);
    await writeCsv(csv, rows, 3);
    const dataDir = join(dir, `sheetport-${rows}`);
    log(`importing ${rows.toLocaleString('en')} rows`);
    const result = await runImport(dataDir, csv, `people_${rows}`);
    if (result.rowCount !== rows) throw new Error(`imported ${result.rowCount} of ${rows} rows`);
    measured.push({
      fileBytes: (await stat(csv)).size,
      databaseBytes: await directoryBytes(dataDir),
      result,
    });
    await rm(dataDir, { recursive: true, force: true });
  }
  await rm(dir, { recursive: true, force: true });
  return measured;
}

async function directoryBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(dir)) total += (await stat(join(dir, name))).size;
  return total;
}

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cleanEnv, cli } from './paths.ts';

export interface ImportResult {
  id: string;
  rowCount: number;
  /** Wall-clock time of the whole import process, start-up included. */
  elapsedMs: number;
  /** The import process's peak resident set size, in KiB. */
  peakRssKib: number;
}

const peakRssPreload = new URL('./peak-rss.mjs', import.meta.url).href;

/**
 * Runs `sheetport import FILE --name NAME` into `dataDir`, as a user would, and measures it;
 * `settings` adds SHEETPORT_ variables (SHEETPORT_DATABASE_URL imports into PostgreSQL);
 * `program` is another build's cli.js.
 */
export async function runImport(
  dataDir: string,
  file: string,
  name: string,
  settings: Record<string, string> = {},
  program = cli,
): Promise<ImportResult> {
  const started = performance.now();
  const child = spawn(
    process.execPath,
    ['--import', peakRssPreload, program, 'import', file, '--name', name],
    {
      env: cleanEnv({
        SHEETPORT_DATA_DIR: dataDir,
        SHEETPORT_LOG_LEVEL: 'warn',
        SHEETPORT_DEMO: 'false',
        SHEETPORT_SYNC: 'full',
        ...settings,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const [code] = (await once(child, 'close')) as [number | null];
  const elapsedMs = performance.now() - started;
  if (code !== 0) throw new Error(`sheetport import ${file} exited with ${code}:\n${stderr}`);
  const summary = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as {
    id: string;
    rowCount: number;
  };
  const peak = /peak-rss-kib (\d+)/.exec(stderr);
  if (peak === null) throw new Error(`sheetport import ${file} did not report its memory`);
  return { id: summary.id, rowCount: summary.rowCount, elapsedMs, peakRssKib: Number(peak[1]) };
}

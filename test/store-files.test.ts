import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { openSqliteStore } from '../src/store/open-store.ts';
import { runCli } from './helpers/cli.ts';

/** A scratch directory, removed when the test ends, under a umask that lets others read. */
async function scratch(t: TestContext): Promise<string> {
  const umask = process.umask(0o022);
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-modes-'));
  t.after(async () => {
    process.umask(umask);
    await rm(dir, { recursive: true, force: true });
  });
  return dir;
}

const modeOf = async (path: string) => ((await stat(path)).mode & 0o777).toString(8);

test('the SQLite data directory is made 0700 and the database, -wal and -shm files 0600, whatever the umask', async (t) => {
  const dir = await scratch(t);
  const dataDir = join(dir, 'var', 'sheetport');
  const path = join(dataDir, 'sheetport.db');
  // Opening writes the schema, through the write-ahead log.
  const store = openSqliteStore({ path, synchronous: 'full' });
  try {
    const modes = await Promise.all(
      [join(dir, 'var'), dataDir, path, `${path}-wal`, `${path}-shm`].map(modeOf),
    );
    assert.deepEqual(modes, ['700', '700', '600', '600', '600']);
  } finally {
    await store.database.close();
  }
});

test('a store left readable by an older version is narrowed to 0600 when opened', async (t) => {
  const dir = await scratch(t);
  const path = join(dir, 'sheetport.db');
  await openSqliteStore({ path, synchronous: 'full' }).database.close();
  for (const file of [path, `${path}-shm`]) {
    await writeFile(file, '', { flag: 'a' });
    await chmod(file, 0o644);
  }
  const store = openSqliteStore({ path, synchronous: 'full' });
  try {
    assert.deepEqual(await Promise.all([path, `${path}-shm`].map(modeOf)), ['600', '600']);
  } finally {
    await store.database.close();
  }
});

test('`sheetport backup` writes a copy readable by its owner only', async (t) => {
  const dir = await scratch(t);
  await openSqliteStore({ path: join(dir, 'sheetport.db'), synchronous: 'full' }).database.close();
  const copy = join(dir, 'copy.db');
  const backup = await runCli(['backup', copy], { SHEETPORT_DATA_DIR: dir });
  assert.equal(backup.code, 0, backup.stderr);
  assert.equal(await modeOf(copy), '600');
});

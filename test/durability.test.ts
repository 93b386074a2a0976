import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { startServer, type RunningServer } from './helpers/server-process.ts';
import { backend, storeSettings } from './helpers/stores.ts';

type Row = Record<string, unknown>;

interface DataDir {
  /** Starts `sheetport serve` over this directory. */
  start(): Promise<RunningServer>;
}

/**
 * A fresh data directory, and store (see stores.ts), for the servers of one test. When the test
 * ends, whatever happened, every server started over it is killed and only then is the
 * directory removed.
 */
async function dataDirFor(t: TestContext, settings: Record<string, string>): Promise<DataDir> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-durability-'));
  const kills: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const kill of kills) await kill();
    await rm(dir, { recursive: true, force: true });
  });
  const store = await storeSettings(t, dir);
  return {
    start: () => startServer({ ...store, ...settings }, (kill) => kills.push(kill)),
  };
}

async function createSheet(url: string, columns: string[], rows: Row[] = []): Promise<string> {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'durable', columns, rows },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body as { id: string }).id;
}

async function read(target: string): Promise<Row[]> {
  const reply = await call(target);
  assert.equal(reply.status, 200, reply.text);
  return reply.body as Row[];
}

/** Fails unless every one of `keys` occurs exactly once among `found`. */
function assertEachOnce(found: unknown[], keys: string[], what: string) {
  const counts = new Map<unknown, number>();
  for (const key of found) counts.set(key, (counts.get(key) ?? 0) + 1);
  const wrong = keys.filter((key) => counts.get(key) !== 1);
  assert.deepEqual(
    wrong.map((key) => `${key} x${counts.get(key) ?? 0}`),
    [],
    `${what}: rows not there exactly once`,
  );
}

/** After a restart, the stored row count and `_id` positions must agree with the rows. */
async function assertCountAndPositionsAgree(url: string, id: string, rows: Row[]) {
  const sheet = await call(`${url}/admin/v1/sheets/${id}`);
  assert.equal((sheet.body as { rowCount: number }).rowCount, rows.length, 'rowCount');
  const last = rows.length - 1;
  assert.deepEqual(await read(`${url}/api/v1/${id}?_id=${last}`), [rows[last]]);
  const past = await call(`${url}/api/v1/${id}?_id=${rows.length}`);
  assert.equal(past.status, 404, past.text);
}

/**
 * Both settings of SHEETPORT_SYNC promise that an acknowledged write survives the process being
 * killed: `full` syncs every commit to disk, `normal` hands it to the operating system, which
 * keeps it when the process dies (only a crash of the machine itself can lose it; no test here
 * can cut the power). So every test below runs under each.
 */
type Sync = 'full' | 'normal';
const syncs: Sync[] = ['full', 'normal'];
/**
 * SHEETPORT_SYNC is SQLite's: on PostgreSQL a commit is flushed to its WAL before the answer,
 * whatever the setting, so the tests run once there, a kill -9 of the server all the same.
 */
const modes =
  backend === 'sqlite'
    ? syncs.map((sync) => ({ name: `SHEETPORT_SYNC=${sync}`, settings: { SHEETPORT_SYNC: sync } }))
    : [{ name: 'PostgreSQL', settings: {} }];

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

for (const mode of modes) {
  test(
    `${mode.name}: every POST acknowledged before kill -9 is there exactly once after a restart`,
    { timeout: 60_000 },
    async (t) => {
      const dataDir = await dataDirFor(t, mode.settings);
      const first = await dataDir.start();
      const id = await createSheet(first.url, ['key', 'n']);
      const rows = `${first.url}/api/v1/${id}`;
      const total = 200;
      const acknowledged: string[] = [];
      let crashed: Promise<void> | null = null;
      const post = async (n: number) => {
        const reply = await call(rows, { method: 'POST', body: { key: `r${n}`, n } });
        assert.equal(reply.status, 201, reply.text);
        acknowledged.push(`r${n}`);
        // Kill in the same turn as the last answer: nothing gets the chance to flush later.
        if (acknowledged.length === total) crashed = first.crash();
      };
      // The first rows one at a time, the rest ten at a time.
      for (const n of range(0, 50)) await post(n);
      const queue = range(50, total);
      await Promise.all(
        range(0, 10).map(async () => {
          for (let n = queue.shift(); n !== undefined; n = queue.shift()) await post(n);
        }),
      );
      assert.ok(crashed !== null, 'the server was not killed');
      await crashed;

      const second = await dataDir.start();
      const found = await read(`${second.url}/api/v1/${id}`);
      assert.equal(found.length, total);
      assertEachOnce(
        found.map((row) => row.key),
        acknowledged,
        'after kill -9',
      );
      await assertCountAndPositionsAgree(second.url, id, found);
    },
  );

  test(
    `${mode.name}: a kill -9 in the middle of a burst keeps every acknowledged row once and adds no row twice`,
    { timeout: 60_000 },
    async (t) => {
      const dataDir = await dataDirFor(t, mode.settings);
      const first = await dataDir.start();
      const id = await createSheet(first.url, ['key', 'n']);
      const rows = `${first.url}/api/v1/${id}`;
      const sent: string[] = [];
      const acknowledged: string[] = [];
      let inFlight = 0;
      let inFlightAtCrash = 0;
      let crashed: Promise<void> | null = null;
      const worker = async (w: number) => {
        for (let i = 0; crashed === null; i++) {
          const key = `w${w}-${i}`;
          sent.push(key);
          inFlight++;
          try {
            const reply = await call(rows, { method: 'POST', body: { key, n: i } });
            if (reply.status === 201) acknowledged.push(key);
          } catch {
            // The connection died with the server: this row was never acknowledged.
          } finally {
            inFlight--;
          }
          if (acknowledged.length >= 100 && crashed === null) {
            inFlightAtCrash = inFlight;
            crashed = first.crash();
          }
        }
      };
      await Promise.all(range(0, 10).map(worker));
      await crashed;
      assert.ok(inFlightAtCrash > 0, 'no request was in flight when the server was killed');

      const second = await dataDir.start();
      const found = (await read(`${second.url}/api/v1/${id}`)).map((row) => row.key as string);
      assertEachOnce(found, acknowledged, 'acknowledged rows');
      assert.equal(new Set(found).size, found.length, 'a row is there twice');
      const sentKeys = new Set(sent);
      assert.deepEqual(
        found.filter((key) => !sentKeys.has(key)),
        [],
        'rows that were never sent',
      );
    },
  );

  test(
    `${mode.name}: PATCHes and DELETEs acknowledged before kill -9 are all in effect after a restart`,
    { timeout: 60_000 },
    async (t) => {
      const dataDir = await dataDirFor(t, mode.settings);
      const first = await dataDir.start();
      const initial = range(0, 60).map((n) => ({ key: `k${n}`, n, tag: null }));
      const id = await createSheet(first.url, ['key', 'n', 'tag'], initial);
      const rows = `${first.url}/api/v1/${id}`;
      const writes = range(0, 60).map((n) =>
        n % 3 === 0
          ? { url: `${rows}?key=k${n}`, method: 'DELETE', expected: { deleted: 1 } }
          : { url: `${rows}?key=k${n}`, method: 'PATCH', expected: { updated: 1 } },
      );
      let answered = 0;
      let crashed: Promise<void> | null = null;
      await Promise.all(
        writes.map(async ({ url, method, expected }, n) => {
          const body = method === 'PATCH' ? { tag: `tag-k${n}` } : undefined;
          const reply = await call(url, { method, body });
          assert.deepEqual(reply.body, expected, `${method} k${n}`);
          answered++;
          if (answered === writes.length) crashed = first.crash();
        }),
      );
      assert.ok(crashed !== null, 'the server was not killed');
      await crashed;

      const second = await dataDir.start();
      const found = await read(`${second.url}/api/v1/${id}`);
      assert.deepEqual(
        found,
        initial.filter(({ n }) => n % 3 !== 0).map((row) => ({ ...row, tag: `tag-${row.key}` })),
      );
      await assertCountAndPositionsAgree(second.url, id, found);
    },
  );
}

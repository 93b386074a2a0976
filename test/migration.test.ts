/**
 * Stores made by release 0.1.0 (one table per sheet; see fixtures/legacy/) open with today's
 * code, which moves them into the shared tables at start-up, and answer what that release
 * answered. Runs on the store the suite is pointed at: SQLite, or PostgreSQL.
 */
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createApp } from '../src/app.ts';
import { Problem } from '../src/errors/problem.ts';
import { openPostgresStore, openSqliteStore } from '../src/store/open-store.ts';
import type { SheetStore } from '../src/store/store.ts';
import { guardAnswers } from './helpers/answer-guard.ts';
import { call } from './helpers/build.ts';
import { backend } from './helpers/stores.ts';

const legacy = fileURLToPath(new URL('fixtures/legacy/', import.meta.url));

interface Expected {
  sheets: { id: string; rowCount: number }[];
  rows: Record<string, unknown[]>;
  keys: unknown[];
  key: string;
  ids: Record<'typed' | 'csv' | 'xlsx' | 'empty' | 'google', string>;
}

async function expected(): Promise<Expected> {
  const recorded = JSON.parse(await readFile(join(legacy, 'expected.json'), 'utf8')) as Record<
    string,
    Expected
  >;
  return recorded[backend] as Expected;
}

/**
 * A copy of the release's store (a file, or a database), so that the fixture stays as it was,
 * and a way to open it with today's code as often as a restarting server would.
 */
async function legacyCopy(
  t: TestContext,
): Promise<(indexThreshold?: number) => Promise<SheetStore>> {
  const opened: SheetStore[] = [];
  let open: (indexThreshold?: number) => Promise<SheetStore>;
  let remove: () => Promise<void>;
  if (backend === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'sheetport-legacy-'));
    await copyFile(join(legacy, 'sqlite', 'sheetport.db'), join(dir, 'sheetport.db'));
    open = async (indexThreshold) =>
      openSqliteStore({
        path: join(dir, 'sheetport.db'),
        synchronous: 'normal',
        ...(indexThreshold === undefined ? {} : { indexThreshold }),
      });
    remove = () => rm(dir, { recursive: true, force: true });
  } else {
    const admin = process.env.SHEETPORT_TEST_DATABASE_URL as string;
    const database = `legacy_${Math.random().toString(36).slice(2, 10)}`;
    await query(admin, `CREATE DATABASE ${database}`);
    const url = new URL(admin);
    url.pathname = `/${database}`;
    await query(url.href, await readFile(join(legacy, 'postgres.sql'), 'utf8'));
    open = (indexThreshold) =>
      openPostgresStore({
        connectionString: url.href,
        ...(indexThreshold === undefined ? {} : { indexThreshold }),
      });
    remove = () => query(admin, `DROP DATABASE ${database} WITH (FORCE)`);
  }
  t.after(async () => {
    for (const store of opened) await store.database.close();
    await remove();
  });
  return async (indexThreshold) => {
    const store = await open(indexThreshold);
    opened.push(store);
    return store;
  };
}

async function openLegacy(t: TestContext, indexThreshold?: number): Promise<SheetStore> {
  return (await legacyCopy(t))(indexThreshold);
}

async function query(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function serve(t: TestContext, store: SheetStore, adminToken?: string): Promise<string> {
  const app = await createApp(
    { store },
    { bodyLimit: 1_048_576, uploadLimit: 1_048_576, cacheSize: 0, adminToken },
  );
  t.after(() => app.close());
  guardAnswers(t, app);
  return app.listen({ host: '127.0.0.1', port: 0 });
}

for (const indexThreshold of [undefined, 0]) {
  const how = indexThreshold === 0 ? ', every sheet indexed' : '';
  test(`a ${backend} store made by release 0.1.0 answers as that release did${how}`, async (t) => {
    const was = await expected();
    const url = await serve(t, await openLegacy(t, indexThreshold));
    const sheets = await call(`${url}/admin/v1/sheets`);
    assert.deepEqual(sheets.body, was.sheets);
    for (const { id } of was.sheets) {
      const rows = await call(`${url}/api/v1/${id}?_with_id=true`);
      assert.deepEqual(rows.body, was.rows[id], `rows of ${id}`);
    }
    // Keys have gained an expiry and rotation links since: a key of the release has neither.
    const keys = await call(`${url}/admin/v1/sheets/${was.ids.typed}/keys`);
    const added = { expiresAt: null, rotatedTo: null, replaces: null };
    assert.deepEqual(
      keys.body,
      was.keys.map((key) => ({ ...(key as object), ...added })),
    );
  });
}

test(`a ${backend} store made by release 0.1.0 keeps working: filters, writes, keys`, async (t) => {
  const was = await expected();
  const token = 'a-token-for-the-migration-test';
  const url = await serve(t, await openLegacy(t), token);
  const admin = { authorization: `Bearer ${token}` };
  const { typed, csv } = was.ids;
  const found = await call(`${url}/api/v1/${typed}?number=__gt(0)&_sort=-number`, {
    headers: admin,
  });
  assert.deepEqual(
    (found.body as { text: string | null }[]).map((row) => row.text),
    ['Bob', 'Mei', 'Ivo', 'Ann', '=SUM(A1)'],
  );
  // The key the release made still opens its sheet, with the scopes it was given.
  const key = { authorization: `Bearer ${was.key}` };
  const posted = await call(`${url}/api/v1/${typed}`, {
    method: 'POST',
    headers: key,
    body: { text: 'after' },
  });
  assert.equal(posted.status, 201, posted.text);
  const refused = await call(`${url}/api/v1/${typed}?_id=0`, {
    method: 'PATCH',
    headers: key,
    body: { text: 'x' },
  });
  assert.equal(refused.status, 403, refused.text);
  const deleted = await call(`${url}/api/v1/${csv}?_id=0`, { method: 'DELETE', headers: admin });
  assert.deepEqual(deleted.body, { deleted: 1 });
  const left = await call(`${url}/api/v1/${csv}?_with_id=true`, { headers: admin });
  assert.deepEqual(
    left.body,
    (was.rows[csv] as Record<string, unknown>[]).slice(1).map((row, i) => ({ ...row, _id: i })),
  );
});

test(`a ${backend} store opened again applies no migration twice and keeps what was written`, async (t) => {
  const open = await legacyCopy(t);
  const first = await open();
  const { typed } = (await expected()).ids;
  const [written] = await first.writeRows(typed, [
    { op: { kind: 'append', rows: [['again']] }, ifMatch: null },
  ]);
  assert.ok(written !== undefined && !(written instanceof Problem), String(written));
  const sheets = await first.listSheets();
  // Were a migration run twice, its tables would already be there and the opening would fail.
  const second = await open();
  assert.deepEqual(await second.listSheets(), sheets);
  const { rows } = await second.loadRows(typed);
  assert.deepEqual(rows.at(-1)?.[0], 'again');
});

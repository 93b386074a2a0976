/**
 * What `Idempotency-Key`s may cost the store: problems echo only an excerpt of what was sent and
 * are stored within a size cap, live keys are bounded per credential (and per address for
 * callers without one), and expired keys are pruned in small transactions. Every check of the
 * data reads the store (the test build has the read cache off).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import type { AppOptions } from '../src/app.ts';
import type { Dialect } from '../src/store/dialect.ts';
import type { SheetStore } from '../src/store/store.ts';
import { build, call } from './helpers/build.ts';

type Reply = Awaited<ReturnType<typeof call>>;

/** A server with one sheet; with an administrator token, the sheet is open to anyone. */
async function server(t: TestContext, options: Partial<AppOptions> = {}, columns = ['name']) {
  const built = await build(t, options);
  const headers: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: { name: 'orders', columns, rows: [{ [columns[0] ?? 'name']: 'a' }] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const opened = await call(`${built.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    headers,
    body: { access: 'open' },
  });
  assert.equal(opened.status, 200, opened.text);
  return { ...built, id, rows: `${built.url}/api/v1/${id}` };
}

const post = (rows: string, body: unknown, key: string, headers: Record<string, string> = {}) =>
  call(rows, { method: 'POST', body, headers: { 'idempotency-key': key, ...headers } });
const count = async (rows: string) => ((await call(rows)).body as unknown[]).length;
const code = (reply: Reply) => (reply.body as { code?: string }).code;

test('a problem about a 900 KB column name repeats an excerpt of it, and is kept small for its retry', async (t) => {
  const s = await server(t);
  const name = `n${'x'.repeat(900_000)}`;
  const first = await post(s.rows, { [name]: 1 }, 'big-1');
  assert.equal(first.status, 400, first.text.slice(0, 200));
  assert.equal(code(first), 'unknown-column');
  assert.ok(first.text.length < 1000, `the answer holds ${first.text.length} characters`);
  assert.match(first.text, /x… \(900001 characters\)/);
  const again = await post(s.rows, { [name]: 1 }, 'big-1');
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.text, first.text, 'the retry is answered what the first was');
  assert.equal(await count(s.rows), 1);
});

test('a stored problem past SHEETPORT_IDEMPOTENCY_MAX_PROBLEM_BYTES is kept cut short, its code whole', async (t) => {
  // A sheet of 40 long column names: an unknown column's problem lists them all, 4 KB of detail.
  const columns = Array.from({ length: 40 }, (_, i) => `column ${i} ${'w'.repeat(90)}`);
  const s = await server(t, { idempotency: { maxProblemBytes: 1024 } }, columns);
  const first = await post(s.rows, { nickname: 'Al' }, 'long-1');
  assert.equal(first.status, 400);
  assert.ok(first.text.length > 4000, 'the first answer lists every column');
  const again = await post(s.rows, { nickname: 'Al' }, 'long-1');
  assert.equal(again.status, 400);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(code(again), 'unknown-column');
  const detail = (again.body as { detail: string }).detail;
  assert.ok(detail.endsWith('…'), detail.slice(-20));
  assert.ok(Buffer.byteLength(detail) < 1024, `a detail of ${Buffer.byteLength(detail)} bytes`);
  assert.ok(detail.startsWith((first.body as { detail: string }).detail.slice(0, 100)));
});

test('past its live keys a credential is answered 429 with Retry-After, and nothing is applied or stored', async (t) => {
  const s = await server(t, { idempotency: { keysPerCredential: 3 } });
  for (const key of ['k1', 'k2', 'k3']) {
    assert.equal((await post(s.rows, { name: key }, key)).status, 201);
  }
  const refused = await post(s.rows, { name: 'k4' }, 'k4');
  assert.equal(refused.status, 429, refused.text);
  assert.equal(code(refused), 'rate-limited');
  assert.equal((refused.body as { limit: string }).limit, 'idempotencyKeysPerCredential');
  const wait = Number(refused.headers.get('retry-after'));
  assert.ok(wait > 86_000 && wait <= 86_400, `Retry-After: ${wait}`);
  assert.equal(await count(s.rows), 4, 'the refused write added no row');
  // The keys it holds still answer their retries; a write without a key is not bounded.
  const replay = await post(s.rows, { name: 'k2' }, 'k2');
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  assert.equal((await call(s.rows, { method: 'POST', body: { name: 'free' } })).status, 201);
  // Refused, k4 was not stored: it is still refused, not replayed.
  assert.equal((await post(s.rows, { name: 'k4' }, 'k4')).status, 429);
  assert.equal(await count(s.rows), 5);
});

test('callers without a credential are bounded per address, and all together per sheet', async (t) => {
  const s = await server(t, {
    adminToken: 'bounds-admin-token-0123456789',
    trustProxy: true,
    idempotency: { keysPerAddress: 2, keysPerCredential: 5 },
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const send = (address: string) => post(s.rows, { name: address }, randomUUID(), from(address));
  for (const address of ['203.0.113.1', '203.0.113.1', '203.0.113.2', '203.0.113.2']) {
    assert.equal((await send(address)).status, 201);
  }
  const third = await send('203.0.113.1');
  assert.equal(third.status, 429);
  assert.equal((third.body as { limit: string }).limit, 'idempotencyKeysPerAddress');
  assert.equal((await send('203.0.113.3')).status, 201, 'another address has its own bound');
  const sixth = await send('203.0.113.4');
  assert.equal(sixth.status, 429, 'five keys in all from anonymous callers');
  assert.equal((sixth.body as { limit: string }).limit, 'idempotencyKeysPerCredential');
  assert.equal(await count(s.rows), 6);
});

test('expired keys are pruned in transactions of the configured batch', async (t) => {
  const s = await server(t);
  for (let i = 0; i < 5; i++)
    assert.equal((await post(s.rows, { name: `p${i}` }, `p${i}`)).status, 201);
  const db = s.store.database as unknown as Dialect;
  // Each key's day is made to have passed, as its holder would leave it.
  for (let i = 0; i < 5; i++) {
    await db.write(function* () {
      const record = yield* db.idempotency.idempotencyKey(
        { sheetId: s.id, scope: 'admin', key: `p${i}` },
        true,
      );
      assert.ok(record !== null);
      yield* db.idempotency.updateIdempotencyKey(
        { ...record, expiresAt: '2000-01-01T00:00:00.000Z' },
        record.token,
      );
    });
  }
  const now = new Date().toISOString();
  assert.equal(
    await db.write(() => db.idempotency.pruneIdempotencyKeys(now, 2)),
    2,
    'one batch removes two',
  );
  assert.equal(await s.store.pruneIdempotencyKeys(2), 3, 'the store prunes batch after batch');
  const retried = await post(s.rows, { name: 'p0' }, 'p0');
  assert.equal(retried.headers.get('idempotent-replayed'), null, 'the pruned key is gone');
});

/** The bytes the store takes: its files on SQLite, its database on PostgreSQL. */
async function storeBytes(store: SheetStore, env: Record<string, string>): Promise<number> {
  const url = env.SHEETPORT_DATABASE_URL;
  if (url !== undefined) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ size: string }>(
        'SELECT pg_database_size(current_database()) AS size',
      );
      return Number(rows[0]?.size);
    } finally {
      await client.end();
    }
  }
  void store;
  const dir = env.SHEETPORT_DATA_DIR ?? '';
  let bytes = 0;
  for (const name of await readdir(dir)) bytes += (await stat(join(dir, name))).size;
  return bytes;
}

test('1,000 keyed requests with 900 KB bodies from a caller without a credential grow the store by less than 30 MB', async (t) => {
  const s = await server(t, { adminToken: 'bounds-admin-token-0123456789' });
  const body = JSON.stringify({ [`n${'x'.repeat(900_000)}`]: 1 });
  const before = await storeBytes(s.store, s.env);
  const growth: number[] = [];
  for (let i = 0; i < 1000; i++) {
    const reply = await post(s.rows, body, `grow-${i}`, { 'content-type': 'application/json' });
    assert.equal(reply.status, 400);
    // Checked early too, so that an unbounded store fails in a few requests, not a gigabyte.
    if (i === 9 || i === 99 || i === 999) {
      const grown = (await storeBytes(s.store, s.env)) - before;
      growth.push(grown);
      assert.ok(
        grown < (30 * 1024 * 1024 * (i + 1)) / 1000 + 1024 * 1024,
        `${grown} bytes after ${i + 1}`,
      );
    }
  }
  t.diagnostic(`store growth after 10, 100 and 1,000 requests: ${growth.join(', ')} bytes`);
});

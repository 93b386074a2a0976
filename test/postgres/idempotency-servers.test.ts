/**
 * Idempotency keys across `sheetport serve` processes on one PostgreSQL database: a key taken on
 * one server is seen by the others, and one left by a server that died is freed by its lease.
 * Runs only in the PostgreSQL pass of the suite.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { requestFingerprint } from '../../src/routes/idempotency-key.ts';
import { call } from '../helpers/build.ts';
import { startServer } from '../helpers/server-process.ts';
import { backend, openTestStore } from '../helpers/stores.ts';

async function twoServers(t: TestContext) {
  assert.equal(backend, 'postgres', 'run through npm run test:postgres');
  const { env, store, dispose } = await openTestStore();
  const kills: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const kill of kills) await kill();
    await dispose();
  });
  const start = () => startServer(env, (kill) => kills.push(kill));
  const [a, b] = await Promise.all([start(), start()]);
  const created = await call(`${a?.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'shared', columns: ['name'] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  return { a: `${a?.url}/api/v1/${id}`, b: `${b?.url}/api/v1/sheets/${id}`, id, store };
}

const names = async (rows: string) =>
  ((await call(rows)).body as { name: string }[]).map((row) => row.name);

test('a write retried on another server with its key is answered from the first, and applies once', async (t) => {
  const { a, b } = await twoServers(t);
  const headers = { 'idempotency-key': `"${randomUUID()}"` };
  const first = await call(a, { method: 'POST', headers, body: { name: 'x' } });
  assert.equal(first.status, 201, first.text);
  const again = await call(b, { method: 'POST', headers, body: { name: 'x' } });
  assert.equal(again.status, 201, again.text);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.headers.get('etag'), first.headers.get('etag'));
  const other = await call(b, { method: 'POST', headers, body: { name: 'y' } });
  assert.equal(other.status, 422, other.text);
  assert.deepEqual(await names(b), ['x']);
});

test('one key sent to both servers at once, many times, applies once', async (t) => {
  const { a, b } = await twoServers(t);
  for (let round = 0; round < 5; round++) {
    const headers = { 'idempotency-key': randomUUID() };
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(i % 2 === 0 ? a : b, { method: 'POST', headers, body: { name: `r${round}` } }),
      ),
    );
    for (const reply of replies) {
      const code = (reply.body as { code?: string }).code;
      assert.ok(reply.status === 201 || code === 'idempotency-key-in-use', reply.text);
    }
    const fresh = replies.filter((r) => r.status === 201 && !r.headers.has('idempotent-replayed'));
    assert.equal(fresh.length, 1, replies.map((r) => r.status).join(' '));
  }
  assert.deepEqual(await names(a), ['r0', 'r1', 'r2', 'r3', 'r4']);
});

test('a key left running by a server that died is taken over once its lease passes', async (t) => {
  const { b, id, store } = await twoServers(t);
  const key = randomUUID();
  const body = { name: 'late' };
  const fingerprint = requestFingerprint({ method: 'POST', sheetId: id, query: '', body });
  const headers = { 'idempotency-key': key };
  // A lease still running, as a live server holds it: the retry must wait.
  const live = await store.claimIdempotencyKey(
    { sheetId: id, scope: 'admin', key },
    fingerprint,
    60_000,
  );
  assert.equal(live.kind, 'claimed');
  const refused = await call(b, { method: 'POST', headers, body });
  assert.equal(refused.status, 409, refused.text);
  // The same key as a server that crashed leaves it: its lease over.
  if (live.kind === 'claimed') await store.settleIdempotencyKey(live.held, null);
  await store.claimIdempotencyKey({ sheetId: id, scope: 'admin', key }, fingerprint, -1);
  const taken = await call(b, { method: 'POST', headers, body });
  assert.equal(taken.status, 201, taken.text);
  assert.equal(taken.headers.get('idempotent-replayed'), null);
  assert.deepEqual(await names(b), ['late']);
});

/**
 * What an Idempotency-Key keeps follows what became of its write: the answer of a write that
 * ran, and nothing for a write dropped before it was sent (its client left while it queued) or
 * for a header that changed under a push, whose retry is planned anew.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from './helpers/build.ts';
import { anchorEveryRow, connect, setup, type Setup } from './helpers/google.ts';

type Reply = Awaited<ReturnType<typeof call>>;
const keyed = (key: string) => ({ 'idempotency-key': `"${key}"` });
const names = (google: Setup) =>
  google.emulator.rows(google.spreadsheetId, 'People').map((row) => row[0]);

/** Sends until the key is no longer in use (409), for at most 10 s. */
async function untilFree(send: () => Promise<Reply>): Promise<Reply> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await send();
    if (reply.status !== 409 || Date.now() > deadline) return reply;
    await sleep(50);
  }
}

async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`never: ${what}`);
    await sleep(5);
  }
}

test('a keyed write whose client left while it queued is never sent, and frees its key: the retry applies it once', async (t) => {
  // One upstream write per 1.5 s: the keyed write waits in the queue behind the first.
  const google = await setup(t, { settings: { writesPerMinute: 1, writeWindowMs: 1500 } });
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  assert.equal((await call(rows, { method: 'POST', body: { name: 'first' } })).status, 201);
  const key = randomUUID();
  const leaving = new AbortController();
  const gone = fetch(rows, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...keyed(key) },
    body: JSON.stringify({ name: 'Eva' }),
    signal: leaving.signal,
  }).catch((error: unknown) => error);
  await sleep(200);
  leaving.abort();
  assert.equal(((await gone) as Error).name, 'AbortError');
  const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'Eva' } });
  const retry = await untilFree(send);
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.headers.get('idempotent-replayed'), null);
  // The key it answers names the row it added.
  const { keys } = retry.body as { keys: string[] };
  assert.deepEqual(retry.body, { created: 1, keys });
  assert.equal(((await call(`${rows}/rows/${keys[0]}`)).body as { name: string }).name, 'Eva');
  const again = await send();
  assert.equal(again.status, 201, again.text);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(names(google), ['name', 'Ann', 'Bob', 'Joan', 'first', 'Eva']);
});

test('a 409 header-changed answered while a push was out is not kept: the retry with the key is planned on the new header', async (t) => {
  const google = await setup(t, { settings: { deadlineMs: 6000 } });
  // Bob anchored already: the first write request is the push's own batch.
  anchorEveryRow(google);
  const id = await connect(google, { freshnessSeconds: 3600 });
  const rows = `${google.url}/api/v1/${id}`;
  // Google holds the first attempt (its answer never comes); meanwhile a person renames a column.
  google.emulator.failNext(1, { mode: 'late', only: 'writes' });
  const key = randomUUID();
  const send = () =>
    call(`${rows}?name=Bob`, { method: 'PATCH', headers: keyed(key), body: { age: 28 } });
  const first = send();
  await until(() => google.emulator.heldCount === 1, 'the attempt is held');
  google.emulator.editCell(google.spreadsheetId, 'People', 'C1', 'club');
  const changed = await first;
  assert.equal(changed.status, 409, changed.text);
  assert.equal((changed.body as { code: string }).code, 'header-changed');
  // The held attempt can no longer land: the push's tag exists.
  google.emulator.applyHeld();
  const retry = await untilFree(send);
  assert.equal(retry.status, 200, retry.text);
  assert.equal(retry.headers.get('idempotent-replayed'), null);
  assert.deepEqual(retry.body, { updated: 1 });
  const bob = google.emulator.rows(google.spreadsheetId, 'People')[2];
  assert.deepEqual(bob?.slice(0, 2), ['Bob', 28]);
});

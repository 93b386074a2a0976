import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from './helpers/build.ts';
import { connect, setup, type Setup } from './helpers/google.ts';

/** Writes waiting in the queue for a Google sheet, as `GET /metrics` counts them. */
async function queued({ url }: Setup): Promise<number> {
  const metrics = await call(`${url}/metrics`);
  const depth = /^sheetport_write_queue_depth\{kind="google"\} (\d+)$/m.exec(metrics.text);
  return Number(depth?.[1] ?? 0);
}

async function waitForQueued(google: Setup, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while ((await queued(google)) !== count) {
    if (Date.now() > deadline) throw new Error(`the queue never held ${count} writes`);
    await sleep(5);
  }
}

const names = (google: Setup) =>
  google.emulator.rows(google.spreadsheetId, 'People').map((row) => row[0]);

test('a write whose client disconnects while it waits for its turn is never sent to Google', async (t) => {
  // One upstream write per 1.5 s: the write after the first waits in the queue for its slot.
  const google = await setup(t, {
    settings: { writesPerMinute: 1, writeWindowMs: 1500 },
    app: { metrics: true },
  });
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  google.emulator.resetStats();
  assert.equal((await call(rows, { method: 'POST', body: { name: 'first' } })).status, 201);

  const leaving = new AbortController();
  const gone = fetch(rows, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'gone' }),
    signal: leaving.signal,
  }).catch((error: unknown) => error);
  const stays = call(rows, { method: 'POST', body: { name: 'stays' } });
  await waitForQueued(google, 2);
  leaving.abort();

  assert.equal((await stays).status, 201);
  assert.equal(((await gone) as Error).name, 'AbortError');
  assert.deepEqual(names(google), ['name', 'Ann', 'Bob', 'Joan', 'first', 'stays']);
  const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.equal(writes.length, 2);
  const served = (await call(rows)).body as { name: string }[];
  assert.deepEqual(
    served.map((row) => row.name),
    ['Ann', 'Bob', 'Joan', 'first', 'stays'],
  );
});

test('a write still waiting for its turn past the deadline is answered 503 with Retry-After and never sent', async (t) => {
  // The next upstream write slot opens after 2.5 s; the deadline is 1 s.
  const google = await setup(t, {
    settings: { writesPerMinute: 1, writeWindowMs: 2500, deadlineMs: 1000 },
  });
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  google.emulator.resetStats();
  assert.equal((await call(rows, { method: 'POST', body: { name: 'first' } })).status, 201);
  const late = await call(rows, { method: 'POST', body: { name: 'late' } });
  assert.equal(late.status, 503, late.text);
  assert.equal((late.body as { code: string }).code, 'upstream-unavailable');
  assert.match((late.body as { detail: string }).detail, /nothing was changed/);
  assert.equal(late.headers.get('retry-after'), '1');
  assert.equal(google.emulator.stats().writes, 1);
  assert.deepEqual(names(google), ['name', 'Ann', 'Bob', 'Joan', 'first']);
  assert.equal(((await call(rows)).body as unknown[]).length, 4);
});

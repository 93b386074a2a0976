/**
 * An Excel push's outcome as a fact any server can learn: the push's record is kept in the store
 * before its first change is sent, and whichever server settles the push reads the worksheet,
 * sends what is left or answers each write by what landed of it. Checked end to end, with
 * Idempotency-Key retries, on the worksheet and the copy afterwards.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { storeUnavailable } from '../src/store/dialect.ts';
import type { SheetStore } from '../src/store/store.ts';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, secondServer } from './helpers/excel.ts';

const keyed = (key: string) => ({ 'idempotency-key': `"${key}"` });

/** The store, with `applyPlanned` failing once when `cue.fail` is set. */
function failingApply(cue: { fail: boolean }): (store: SheetStore) => SheetStore {
  return (store) =>
    new Proxy(store, {
      get(target, name: keyof SheetStore) {
        const value = target[name];
        if (typeof value !== 'function') return value;
        if (name === 'applyPlanned' && cue.fail) {
          return async () => {
            cue.fail = false;
            throw storeUnavailable();
          };
        }
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
}

test('a push that landed while the store failed is settled as landed by another server: the retry with the same key is answered, not applied again', async (t) => {
  const cue = { fail: false };
  const excel = await excelApp(t, {
    wrapStore: failingApply(cue),
    app: { cacheSize: 0 },
    settings: { deadlineMs: 1500 },
  });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  cue.fail = true;
  const first = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('zed-1'),
  });
  assert.equal(first.status, 201, first.text);
  assert.equal(cue.fail, false, 'the store failed after Graph applied the write');
  assert.notEqual(await excel.store.pushingMarker(id), null, 'the sheet stays marked');
  // A server that never saw the push (as after a restart) settles it from the store's record.
  const other = await secondServer(t, excel);
  // It waits one attempt's timeout past the push's deadline (a request Graph began may still
  // land), serving the last copy and refusing writes meanwhile; then it settles the push.
  const early = await call(`${other}/api/v1/${id}`, { method: 'POST', body: { name: 'Early' } });
  assert.equal(early.status, 503, early.text);
  let read = await call(`${other}/api/v1/${id}?name=Zed`);
  for (const stop = Date.now() + 10_000; (read.body as unknown[]).length === 0;) {
    assert.ok(Date.now() < stop, 'the push is settled once no request of it can be in flight');
    await new Promise((resolve) => setTimeout(resolve, 100));
    read = await call(`${other}/api/v1/${id}?name=Zed`);
  }
  assert.equal((read.body as unknown[]).length, 1, read.text);
  assert.equal(await excel.store.pushingMarker(id), null);
  const retry = await call(`${other}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('zed-1'),
  });
  assert.equal(retry.status, 201, retry.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1, 'Zed is in once');
});

test('a group commit whose first write landed and second met 503 to the end: each write hears its own outcome, and each key keeps it', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 1500 }, app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  // Graph refuses a gone session with another top-level code: its second-level code says it.
  excel.emulator.sessionRefusalCode = 'itemNotFound';
  // A first write holds the queue while the two keyed ones arrive: they go as one push.
  excel.emulator.latencyMs = 600;
  const opener = call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Ivy' } });
  for (let i = 0; i < 500; i++) {
    if (excel.emulator.requests().some((r) => r.method === 'PATCH')) break;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  excel.emulator.failNext(1000, {
    status: 503,
    retryAfterSeconds: 0,
    match: { method: 'PATCH', path: "range(address='B3:B3')" },
  });
  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  // The append first, then the update: the push sends them in that order.
  const appended = call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('append-a'),
  });
  await pause(50);
  const updated = call(`${excel.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
    headers: keyed('update-b'),
  });
  const both = Promise.all([appended, updated]);
  // Both arrive while the first write's answer is held back; the push after it carries them.
  await pause(250);
  excel.emulator.latencyMs = 0;
  const [append, update] = await both;
  assert.equal((await opener).status, 201);
  const patches = excel.emulator.requests().filter((r) => r.method === 'PATCH');
  // Zed's append, written at the names that anchor it (the last of the two appends).
  const zed = patches.filter((r) => r.path.includes('/names/')).at(-1);
  const bob = patches.find((r) => r.path.includes("address='B3:B3'"));
  assert.ok(zed !== undefined && bob !== undefined, patches.map((r) => r.path).join(', '));
  assert.equal(zed.sessionId, bob.sessionId, 'the two writes went as one push');
  assert.equal(append.status, 201, append.text);
  assert.equal(update.status, 503, update.text);
  assert.doesNotMatch(String((update.body as { detail: string }).detail), /may or may not/);
  excel.emulator.clearFaults();
  const ages = () => excel.emulator.values(excel.ref, 'People').map((row) => row[1]);
  assert.deepEqual(ages().slice(0, 3), ['age', 31, 27], 'Bob is unchanged');
  // The sheet is not wedged: reads answer, and the keys answer at once.
  const read = await call(`${excel.url}/api/v1/${id}`);
  assert.equal(read.status, 200, read.text);
  const again = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('append-a'),
  });
  assert.equal(again.status, 201, again.text);
  const retried = await call(`${excel.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
    headers: keyed('update-b'),
  });
  assert.equal(retried.status, 200, retried.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1, 'Zed is in once');
  assert.equal(sheet.find((row) => row.name === 'Bob')?.age, 28);
});

test('while Graph will not close the session of a push, reads serve the worksheet as it is, and the push is settled once it does', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 1500 }, app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  // The write (an append: one `$batch`) lands but its answer is lost; then Graph fails every
  // close of a session.
  excel.emulator.failNext(1, {
    when: 'after',
    mode: 'reset',
    match: { only: 'batch', holding: '/insert' },
  });
  excel.emulator.failNext(100_000, { status: 500, match: { path: 'closeSession' } });
  const first = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('zed-2'),
  });
  assert.equal(first.status, 504, first.text);
  assert.notEqual(await excel.store.pushingMarker(id), null);
  const read = await call(`${excel.url}/api/v1/${id}?name=Zed`);
  assert.equal(read.status, 200, read.text);
  assert.equal((read.body as unknown[]).length, 1, 'the worksheet as it is');
  assert.notEqual(await excel.store.pushingMarker(id), null, 'the push is still to be settled');
  excel.emulator.clearFaults();
  const settled = await call(`${excel.url}/api/v1/${id}`);
  assert.equal(settled.status, 200, settled.text);
  assert.equal(await excel.store.pushingMarker(id), null);
  const retry = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
    headers: keyed('zed-2'),
  });
  assert.equal(retry.status, 201, retry.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1, 'Zed is in once');
});

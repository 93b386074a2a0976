/**
 * Google applying an attempt late: still working on it when Sheetport's attempt timeout fires,
 * and applying it after the client gave up (even after it hung up), before or after Sheetport's
 * next attempt. Whatever the order, a push lands at most once, the client hears "nothing
 * changed" only when nothing can still land, and the copy ends equal to the spreadsheet.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { anchorEveryRow, bothSides, connect, setup, type Setup } from './helpers/google.ts';

type Row = Record<string, unknown>;

async function lateSetup(
  t: TestContext,
  settings: { deadlineMs: number; writesPerMinute?: number; writeWindowMs?: number },
): Promise<{ google: Setup; id: string }> {
  const google = await setup(t, { settings });
  // The rows are anchored already: the attempts of a push are its only writes.
  anchorEveryRow(google);
  const id = await connect(google, { freshnessSeconds: 3600 });
  google.emulator.resetStats();
  return { google, id };
}

/** The late requests, as the emulator ran them: whether each was applied. */
function lateApplied(google: Setup): boolean[] {
  return google.emulator
    .stats()
    .requests.filter((request) => request.fault?.mode === 'late')
    .map((request) => request.applied);
}

async function inStep(google: Setup, id: string): Promise<Row[]> {
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet, 'the copy Sheetport serves differs from the spreadsheet');
  assert.equal(await google.store.pushingMarker(id), null, 'the push marker is still set');
  return sheet;
}

const named = (rows: Row[], name: string) => rows.filter((row) => row.name === name).length;

test('the first attempt applied after the second landed is refused whole: 201, and the row once', async (t) => {
  const { google, id } = await lateSetup(t, { deadlineMs: 3000 });
  google.emulator.failNext(1, { mode: 'late', only: 'writes' });
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
  });
  assert.equal(answer.status, 201, answer.text);
  assert.deepEqual(answer.body, { created: 1, keys: ['3'] });
  // Google gets to the first attempt at last, after the client gave up on it.
  assert.equal(google.emulator.applyHeld(), 1);
  assert.deepEqual(lateApplied(google), [false], 'the late attempt was applied too');
  assert.equal(named(await inStep(google, id), 'Zed'), 1);
});

test('the first attempt applied between the read-back and the second: the second is refused, and the push counts as landed', async (t) => {
  const { google, id } = await lateSetup(t, { deadlineMs: 3000 });
  google.emulator.failNext(1, { mode: 'late', only: 'writes' });
  // The read-back after the timeout finds nothing; then Google applies the held attempt.
  google.emulator.afterNext('write', () =>
    google.emulator.afterNext('read', () => google.emulator.applyHeld()),
  );
  const answer = await call(`${google.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 1 });
  assert.deepEqual(lateApplied(google), [true]);
  const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.deepEqual(
    writes.map((request) => [request.applied, request.status]),
    [
      [true, 0],
      [false, 400],
    ],
    'the second attempt was refused whole',
  );
  const rows = await inStep(google, id);
  assert.deepEqual(
    rows.map((row) => [row.name, row.age]),
    [
      ['Ann', 31],
      ['Bob', 28],
      ['Joan', 45],
    ],
  );
});

test('the deadline runs out after a clean read-back: the push is closed, 503, and the held attempt never lands', async (t) => {
  const { google, id } = await lateSetup(t, { deadlineMs: 2500 });
  google.emulator.failNext(1, { mode: 'late', only: 'writes' });
  // After the held attempt, Google refuses the next two for a second each, past the deadline.
  google.emulator.afterNext('write', () =>
    google.emulator.failNext(2, { status: 429, retryAfterSeconds: 1, only: 'writes' }),
  );
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
  });
  assert.equal(answer.status, 503, answer.text);
  assert.equal((answer.body as { code: string }).code, 'upstream-unavailable');
  assert.equal(google.emulator.applyHeld(), 1);
  assert.deepEqual(lateApplied(google), [false], 'the held attempt landed after "nothing changed"');
  assert.equal(named(await inStep(google, id), 'Zed'), 0);
  // So the client's retry adds the row once.
  const again = await call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zed' } });
  assert.equal(again.status, 201, again.text);
  assert.equal(named(await inStep(google, id), 'Zed'), 1);
});

test('the deadline runs out and the push cannot be closed: 504, and the next read shows the held attempt once', async (t) => {
  const { google, id } = await lateSetup(t, { deadlineMs: 2500 });
  google.emulator.failNext(1, { mode: 'late', only: 'writes' });
  google.emulator.afterNext('write', () =>
    google.emulator.failNext(1000, { status: 429, only: 'writes' }),
  );
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
  });
  assert.equal(answer.status, 504, answer.text);
  assert.equal((answer.body as { code: string }).code, 'upstream-outcome-unknown');
  assert.notEqual(await google.store.pushingMarker(id), null, 'the sheet is no longer marked');
  google.emulator.failNext(0, { status: 429 });
  assert.equal(google.emulator.applyHeld(), 1);
  assert.deepEqual(lateApplied(google), [true]);
  assert.equal(named(await inStep(google, id), 'Zed'), 1);
});

test('no attempt starts after the deadline: a write whose turn comes too late is refused unsent', async (t) => {
  // One write a second at most, and a deadline of half a second.
  const { google, id } = await lateSetup(t, {
    deadlineMs: 500,
    writesPerMinute: 1,
    writeWindowMs: 1000,
  });
  // The second write arrives once the first is with Google: its turn comes a second later.
  let second: ReturnType<typeof call> | undefined;
  google.emulator.afterNext('write', () => {
    second = call(`${google.url}/api/v1/${id}?name=Bob`, { method: 'PATCH', body: { age: 2 } });
  });
  const first = await call(`${google.url}/api/v1/${id}?name=Ann`, {
    method: 'PATCH',
    body: { age: 1 },
  });
  assert.equal(first.status, 200, first.text);
  assert.ok(second !== undefined);
  const late = await second;
  assert.equal(late.status, 503, late.text);
  assert.equal((late.body as { code: string }).code, 'upstream-unavailable');
  const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.equal(writes.length, 1, 'the late write was sent');
  const rows = await inStep(google, id);
  assert.deepEqual(
    rows.map((row) => [row.name, row.age]),
    [
      ['Ann', 1],
      ['Bob', 27],
      ['Joan', 45],
    ],
  );
});

/**
 * Writes to a Google sheet when Google misbehaves: an answer lost after the batch was applied
 * (a 500, a reset connection, no answer at all), a failure before it was, a person editing the
 * spreadsheet meanwhile, Google gone for longer than the deadline. After every outcome the
 * write is in the spreadsheet exactly once or not at all, the client was told which, and the copy
 * Sheetport serves equals the spreadsheet. Reads here go past the read cache (it is off).
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { InjectedFailure } from './google-emulator/index.ts';
import { call } from './helpers/build.ts';
import { bothSides, connect, setup, type Setup } from './helpers/google.ts';
import { until } from './helpers/until.ts';

type Row = Record<string, unknown>;

interface WriteKind {
  name: string;
  method: string;
  query: string;
  body?: unknown;
  status: number;
  outcome: Record<string, unknown>;
  /** The names of the rows the keys of the answer name, in order (appends only). */
  keyed?: string[];
  /** The spreadsheet's rows after the write, from its rows before. */
  expect(rows: Row[]): Row[];
}

const writeKinds: WriteKind[] = [
  {
    name: 'append',
    method: 'POST',
    query: '',
    body: { name: 'Zed', age: 60 },
    status: 201,
    // The tab's three rows have keys 0 to 2: the next is 3, chosen before the push.
    outcome: { created: 1, keys: ['3'] },
    keyed: ['Zed'],
    expect: (rows) => [...rows, { name: 'Zed', age: 60, member: null, joined: null }],
  },
  {
    name: 'bulk append',
    method: 'POST',
    query: '',
    body: [{ name: 'Y1' }, { name: 'Y2', member: true }, { name: 'Y3', age: 3 }],
    status: 201,
    outcome: { created: 3, keys: ['3', '4', '5'] },
    keyed: ['Y1', 'Y2', 'Y3'],
    expect: (rows) => [
      ...rows,
      { name: 'Y1', age: null, member: null, joined: null },
      { name: 'Y2', age: null, member: true, joined: null },
      { name: 'Y3', age: 3, member: null, joined: null },
    ],
  },
  {
    name: 'update by _id',
    method: 'PATCH',
    query: '?_id=1',
    body: { age: 28 },
    status: 200,
    outcome: { updated: 1 },
    expect: (rows) => rows.map((row, i) => (i === 1 ? { ...row, age: 28 } : row)),
  },
  {
    name: 'update by filter',
    method: 'PUT',
    query: '?name=Joan',
    body: { name: 'Joan', age: 46 },
    status: 200,
    outcome: { updated: 1 },
    expect: (rows) =>
      rows.map((row) =>
        row.name === 'Joan' ? { name: 'Joan', age: 46, member: null, joined: null } : row,
      ),
  },
  {
    name: 'delete by _id',
    method: 'DELETE',
    query: '?_id=0,2',
    status: 200,
    outcome: { deleted: 2 },
    expect: (rows) => rows.filter((_, i) => i === 1),
  },
  {
    name: 'delete by filter',
    method: 'DELETE',
    query: '?member=true',
    status: 200,
    outcome: { deleted: 2 },
    expect: (rows) => rows.filter((row) => row.member !== true),
  },
];

const faults: { name: string; failure: InjectedFailure }[] = [
  { name: 'a 500 after Google applied it', failure: { status: 500, when: 'after' } },
  { name: 'a reset after Google applied it', failure: { mode: 'reset', when: 'after' } },
  { name: 'no answer after Google applied it', failure: { mode: 'timeout', when: 'after' } },
  { name: 'a 500 before Google applied it', failure: { status: 500, when: 'before' } },
  { name: 'a reset before Google applied it', failure: { mode: 'reset', when: 'before' } },
];

async function faultySetup(t: TestContext, deadlineMs = 6000): Promise<Setup> {
  return setup(t, { settings: { deadlineMs }, app: { cacheSize: 0 } });
}

/** batchUpdate requests Google applied, whatever their answer was. */
function appliedWrites(google: Setup): number {
  return google.emulator
    .stats()
    .requests.filter((request) => request.kind === 'write' && request.applied === true).length;
}

/** Write requests that reached Google and met an injected fault, answered or still held. */
function faulted(google: Setup): number {
  return google.emulator
    .stats()
    .requests.filter((request) => request.kind === 'write' && request.fault !== undefined).length;
}

/**
 * Fails the next write that carries the write's cells: a write that chooses rows first anchors
 * them in a write of its own (applied too), so the fault waits for the one after.
 */
function failTheBatch(google: Setup, kind: WriteKind, failure: InjectedFailure): number {
  const fail = () => google.emulator.failNext(1, { ...failure, only: 'writes' });
  if (kind.query === '') fail();
  else google.emulator.beforeNext('write', fail);
  return kind.query === '' ? 1 : 2;
}

async function assertInStep(google: Setup, id: string): Promise<Row[]> {
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet, 'the copy Sheetport serves differs from the spreadsheet');
  assert.equal(await google.store.pushingMarker(id), null, 'the push marker is still set');
  return sheet;
}

describe('a write whose answer Google loses lands exactly once', () => {
  for (const kind of writeKinds) {
    for (const fault of faults) {
      test(`${kind.name}, ${fault.name}`, async (t) => {
        const google = await faultySetup(t);
        const id = await connect(google);
        const before = (await bothSides(google, id)).sheet;
        google.emulator.resetStats();
        const writes = failTheBatch(google, kind, fault.failure);
        const answer = await call(`${google.url}/api/v1/${id}${kind.query}`, {
          method: kind.method,
          ...(kind.body === undefined ? {} : { body: kind.body }),
        });
        assert.equal(answer.status, kind.status, answer.text);
        assert.deepEqual(answer.body, kind.outcome);
        assert.equal(
          appliedWrites(google),
          writes,
          'the batch was applied more than once, or never',
        );
        assert.deepEqual(await assertInStep(google, id), kind.expect(before));
        if (kind.keyed !== undefined) {
          // However the push was settled, its rows have the keys the answer named.
          const keys = (answer.body as { keys: string[] }).keys;
          const read = await call(`${google.url}/api/v1/${id}?_with_key=true`);
          const named = keys.map((key) => (read.body as Row[]).find((row) => row._key === key));
          assert.deepEqual(
            named.map((row) => row?.name),
            kind.keyed,
          );
        }
      });
    }
  }
});

test('a retried write that meets a person’s edit is planned again on the spreadsheet as it is', async (t) => {
  const google = await faultySetup(t);
  const id = await connect(google);
  google.emulator.failNext(1, { mode: 'timeout', when: 'before', only: 'writes' });
  const answer = call(`${google.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 99 },
  });
  // While the first attempt hangs, a person inserts a row above Bob and renames Joan.
  await until(() => faulted(google) === 1, 'the first attempt reached Google');
  google.emulator.setRows(google.spreadsheetId, 'People', [
    ['name', 'age', 'member', 'joined'],
    ['New', 1, null, null],
    ['Ann', 31, true, { date: '2021-03-01' }],
    ['Bob', 27, false, null],
    ['Jo', 45, true, { date: '2019-11-20' }],
  ]);
  const done = await answer;
  assert.equal(done.status, 200, done.text);
  assert.deepEqual(done.body, { updated: 1 });
  const sheet = await assertInStep(google, id);
  assert.deepEqual(
    sheet.map((row) => [row.name, row.age]),
    [
      ['New', 1],
      ['Ann', 31],
      ['Bob', 99],
      ['Jo', 45],
    ],
  );
});

test('when whether a write landed cannot be learned by the deadline: 504, then reads re-read the spreadsheet', async (t) => {
  const google = await faultySetup(t, 3000);
  const id = await connect(google, { freshnessSeconds: 3600 });
  google.emulator.failNext(1, { mode: 'timeout', when: 'after', only: 'writes' });
  const answer = call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Lost' } });
  // Google applies the batch and goes silent, then away, until after the deadline.
  await until(() => faulted(google) === 1, 'the batch reached Google');
  await google.emulator.stop();
  const unknown = await answer;
  assert.equal(unknown.status, 504, unknown.text);
  assert.equal((unknown.body as { code: string }).code, 'upstream-outcome-unknown');
  assert.ok(unknown.headers.get('retry-after') !== null);
  assert.notEqual(await google.store.pushingMarker(id), null, 'the marker was cleared too soon');
  // The copy may lack the row that landed: reads do not serve it while Google is away.
  const away = await call(`${google.url}/api/v1/${id}`);
  assert.equal(away.status, 503, away.text);
  assert.equal((away.body as { code: string }).code, 'upstream-unavailable');
  await google.emulator.restart();
  const sheet = await assertInStep(google, id);
  assert.deepEqual(
    sheet.filter((row) => row.name === 'Lost').length,
    1,
    'the write that landed is read back once',
  );
});

test('when Google fails until the deadline: the push is closed, then 503 with Retry-After, and nothing changed', async (t) => {
  const google = await faultySetup(t, 1500);
  const id = await connect(google);
  const before = (await bothSides(google, id)).sheet;
  google.emulator.resetStats();
  // Two attempts a second apart fill the deadline; either may have been applied, as far as
  // Sheetport can tell, until the close that follows them goes through.
  // (After the write that anchors the row and the one after it.)
  google.emulator.beforeNext('write', () =>
    google.emulator.failNext(2, { status: 503, retryAfterSeconds: 1, only: 'writes' }),
  );
  const answer = await call(`${google.url}/api/v1/${id}?_id=0`, { method: 'DELETE' });
  assert.equal(answer.status, 503, answer.text);
  assert.equal((answer.body as { code: string }).code, 'upstream-unavailable');
  assert.ok(answer.headers.get('retry-after') !== null);
  const writes = google.emulator.stats().requests.filter((r) => r.kind === 'write');
  assert.deepEqual(
    writes.map((w) => [w.status, w.applied, w.requestCount ?? null]),
    [
      [200, true, 2],
      [503, false, null],
      [503, false, null],
      [200, true, 1],
    ],
    'the anchors, two attempts, then the close: the push tag alone',
  );
  assert.deepEqual(await assertInStep(google, id), before);
});

test('when Google stays silent until the deadline: 504, and the next read shows what landed', async (t) => {
  const google = await faultySetup(t, 3000);
  const id = await connect(google, { freshnessSeconds: 3600 });
  // Every write is held: Google is still working on them when Sheetport gives up on each.
  google.emulator.failNext(1000, { mode: 'late', only: 'writes' });
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Held' },
  });
  assert.equal(answer.status, 504, answer.text);
  assert.equal((answer.body as { code: string }).code, 'upstream-outcome-unknown');
  google.emulator.failNext(0, { status: 503 });
  // Google applies them all at last: the first lands, every later one is refused whole.
  assert.ok(google.emulator.applyHeld() >= 2);
  const late = google.emulator.stats().requests.filter((r) => r.fault?.mode === 'late');
  assert.deepEqual(
    late.map((r) => r.applied),
    late.map((_, i) => i === 0),
    'only the first held attempt was applied',
  );
  const sheet = await assertInStep(google, id);
  assert.equal(sheet.filter((row) => row.name === 'Held').length, 1);
});

test('a refresh after Sheetport’s own write rewrites nothing: the version, and so every cached answer, stays', async (t) => {
  const google = await faultySetup(t);
  const id = await connect(google, { freshnessSeconds: 0 });
  const written = await call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'V' } });
  const version = written.headers.get('etag');
  // Every read re-reads the spreadsheet (window 0); it holds exactly what the copy holds.
  const read = await call(`${google.url}/api/v1/${id}`);
  assert.equal(read.headers.get('etag'), version);
  const again = await call(`${google.url}/api/v1/${id}`);
  assert.equal(again.headers.get('etag'), version);
});

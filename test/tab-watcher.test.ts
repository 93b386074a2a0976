import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WatchOptions } from '../src/sheets/start-watching.ts';
import { call } from './helpers/build.ts';
import { connect, setup, type Setup } from './helpers/google.ts';
import type { GoogleSheetsEmulator } from './google-emulator/index.ts';

/** Quick ticks, so that tests stay short; the shortest gap between reads of a tab is kept. */
const quick: WatchOptions = { intervalMs: 100, tickMs: 20, minReadGapMs: 300 };

interface Event {
  type: string;
  data: { source: string; rows: { _id: number; name: string }[] };
}

async function watched(t: TestContext, watch: WatchOptions = quick, probe = true) {
  const google = await setup(t, { app: { watch }, probe });
  const id = await connect(google, { freshnessSeconds: 3600 });
  const patched = await call(`${google.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { watch: true },
  });
  assert.equal(patched.status, 200, patched.text);
  return { google, id };
}

/** Resolves once `check` answers something other than undefined; fails after `ms`. */
async function eventually<T>(check: () => Promise<T | undefined>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(10);
  }
}

/** The next events after `after`, once there are some. */
async function nextEvents(google: Setup, id: string, after: string | null) {
  return eventually(async () => {
    const events = await google.store.eventsAfter(id, after, 100);
    return events.length > 0 ? events : undefined;
  }, 'the watcher commits events');
}

const summary = (events: { body: string }[]) =>
  events.map((event) => {
    const { type, data } = JSON.parse(event.body) as Event;
    return [type, data.source, data.rows.map((row) => `${row._id}:${row.name}`)];
  });

const valueReads = (emulator: GoogleSheetsEmulator) =>
  emulator.stats().requests.filter((r) => r.kind === 'read' && !r.path.startsWith('/drive/'));
const probes = (emulator: GoogleSheetsEmulator) =>
  emulator.stats().requests.filter((r) => r.path.startsWith('/drive/'));

test("a person's edit, insert and delete on a watched tab become events, with no API read", async (t) => {
  const { google, id } = await watched(t);
  const { emulator, spreadsheetId } = google;
  // The first check reads the tab once; from then on, changes are found by the watcher alone.
  await eventually(async () => (valueReads(emulator).length > 1 ? true : undefined), 'first read');
  let after = await google.store.latestEventId(id);

  emulator.editCell(spreadsheetId, 'People', 'B3', 28);
  let events = await nextEvents(google, id, after);
  assert.deepEqual(summary(events), [['rows.updated', 'provider', ['1:Bob']]]);
  after = events.at(-1)?.id ?? null;

  const [header = [], ann = [], bob = [], joan = []] = emulator.rows(spreadsheetId, 'People');
  emulator.setRows(spreadsheetId, 'People', [header, ann, ['Cy', 50], bob, joan]);
  events = await nextEvents(google, id, after);
  assert.deepEqual(summary(events), [['rows.created', 'provider', ['1:Cy']]]);
  after = events.at(-1)?.id ?? null;

  emulator.setRows(spreadsheetId, 'People', [header, ann, ['Cy', 50], joan]);
  events = await nextEvents(google, id, after);
  assert.deepEqual(summary(events), [['rows.deleted', 'provider', ['2:Bob']]]);
});

test('an idle watched tab is probed, not read: its values are read once', async (t) => {
  const { google } = await watched(t);
  const { emulator } = google;
  const readsAtStart = valueReads(emulator).length;
  await eventually(async () => (probes(emulator).length >= 20 ? true : undefined), '20 probes');
  // One read when watching starts; none while the spreadsheet's version stays.
  assert.ok(valueReads(emulator).length - readsAtStart <= 1, `${valueReads(emulator).length}`);
});

test('without Drive, an idle watched tab is read no more often than the shortest gap', async (t) => {
  const { google } = await watched(t);
  const { emulator } = google;
  emulator.driveApiEnabled = false;
  const since = Date.now();
  const reads = () => valueReads(emulator).filter((r) => r.at >= since);
  await eventually(async () => (reads().length >= 4 ? true : undefined), '4 reads');
  const times = reads().map((r) => r.at);
  const gaps = times.slice(1).map((at, i) => at - (times[i] ?? 0));
  // The emulator logs when requests arrive; a little slack for the timer's own drift.
  assert.ok(
    gaps.every((gap) => gap >= quick.minReadGapMs! - 20),
    `gaps ${gaps.join(', ')}`,
  );
});

test('an anonymous stream on a public sheet does not start watching; an admin one does', async (t) => {
  const google = await setup(t, { app: { watch: quick, adminToken: 'a'.repeat(32) }, probe: true });
  const admin = { authorization: `Bearer ${'a'.repeat(32)}` };
  const created = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: {
      source: { provider: 'google', spreadsheetId: google.spreadsheetId, tab: 'People' },
    },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const opened = await call(`${google.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    headers: admin,
    body: { access: 'public-read', freshnessSeconds: 3600 },
  });
  assert.equal(opened.status, 200, opened.text);
  const anonymous = new AbortController();
  t.after(() => anonymous.abort());
  const stream = await fetch(`${google.url}/api/v1/${id}/events`, { signal: anonymous.signal });
  assert.equal(stream.status, 200);
  const readsBefore = valueReads(google.emulator).length;
  const probesBefore = probes(google.emulator).length;
  google.emulator.editCell(google.spreadsheetId, 'People', 'B3', 28);
  // Ten ticks of the watcher: nothing is watched, so nothing goes upstream.
  await sleep(quick.tickMs! * 10);
  assert.equal(valueReads(google.emulator).length, readsBefore);
  assert.equal(probes(google.emulator).length, probesBefore);

  const keyed = new AbortController();
  t.after(() => keyed.abort());
  const adminStream = await fetch(`${google.url}/api/v1/${id}/events`, {
    headers: admin,
    signal: keyed.signal,
  });
  assert.equal(adminStream.status, 200);
  const events = await nextEvents(
    google,
    id,
    await google.store.latestEventId(id).then(() => null),
  );
  assert.deepEqual(summary(events.slice(-1)), [['rows.updated', 'provider', ['1:Bob']]]);
});

test('the watch settings: set, shown, reset with null, refused on other sheets and below 5 s', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const patch = (sheetId: string, body: unknown) =>
    call(`${google.url}/admin/v1/sheets/${sheetId}`, { method: 'PATCH', body });
  const set = await patch(id, { watch: false, watchIntervalSeconds: 30 });
  assert.equal(set.status, 200, set.text);
  const described = await call(`${google.url}/admin/v1/sheets/${id}`);
  const settings = (described.body as { settings: Record<string, unknown> }).settings;
  assert.equal(settings.watch, false);
  assert.equal(settings.watchIntervalSeconds, 30);
  assert.equal((await patch(id, { watch: null, watchIntervalSeconds: null })).status, 200);
  const reset = await call(`${google.url}/admin/v1/sheets/${id}`);
  assert.equal((reset.body as { settings: Record<string, unknown> }).settings.watch, undefined);

  const tooOften = await patch(id, { watchIntervalSeconds: 2 });
  assert.equal(tooOften.status, 400, tooOften.text);
  const scratch = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'scratch', columns: ['a'] },
  });
  const scratchId = (scratch.body as { id: string }).id;
  const refused = await patch(scratchId, { watch: true });
  assert.equal(refused.status, 400, refused.text);
  assert.equal((refused.body as { code: string }).code, 'invalid-body');
});

/**
 * The check before a write that chooses rows: one Drive request for the spreadsheet's version
 * when nothing changed since the tab was read, a read of the tab when it moved (a person's edit)
 * or cannot be known (the Drive API off). Counted on the emulator; checked on the spreadsheet.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { anchorEveryRow, bothSides, connect, setup, type Setup } from './helpers/google.ts';

type Row = Record<string, unknown>;

async function probed(t: TestContext): Promise<{ google: Setup; id: string }> {
  const google = await setup(t, { drive: true, app: { cacheSize: 0, metrics: true } });
  // The rows are anchored already: a write's own requests are all there is to count.
  anchorEveryRow(google);
  const id = await connect(google, { freshnessSeconds: 3600 });
  google.emulator.resetStats();
  return { google, id };
}

/** Requests to the emulator since its stats were reset: Drive's, and reads of the values. */
function requests(google: Setup) {
  const all = google.emulator.stats().requests;
  const drive = all.filter((request) => request.path.startsWith('/drive/'));
  const values = all.filter(
    (request) => request.kind === 'read' && !request.path.startsWith('/drive/'),
  );
  return { drive: drive.length, values: values.length };
}

const ages = (rows: unknown) => (rows as Row[]).map((row) => [row.name, row.age]);

test('a write by filter to a tab unchanged since it was read costs one Drive request, no read of the values', async (t) => {
  const { google, id } = await probed(t);
  const answer = await call(`${google.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 1 });
  assert.deepEqual(requests(google), { drive: 1, values: 0 });
  const metrics = await call(`${google.url}/metrics`);
  assert.match(metrics.text, /sheetport_upstream_requests_total\{[^}]*request="probe"[^}]*\} 2/);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(ages(sheet), [
    ['Ann', 31],
    ['Bob', 28],
    ['Joan', 45],
  ]);
});

test('a person’s edit moves the version: the tab is read and the write planned on it', async (t) => {
  const { google, id } = await probed(t);
  // Bob becomes a second Joan after Sheetport read the tab.
  google.emulator.editCell(google.spreadsheetId, 'People', 'A3', 'Joan');
  const answer = await call(`${google.url}/api/v1/${id}?name=Joan`, {
    method: 'PATCH',
    body: { age: 50 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 2 });
  assert.deepEqual(requests(google), { drive: 1, values: 1 });
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(ages(sheet), [
    ['Ann', 31],
    ['Joan', 50],
    ['Joan', 50],
  ]);
});

test('with the Drive API off, the check reads the tab: writes are still planned on it', async (t) => {
  const google = await setup(t, { drive: true, app: { cacheSize: 0 } });
  google.emulator.driveApiEnabled = false;
  anchorEveryRow(google);
  const id = await connect(google, { freshnessSeconds: 3600 });
  google.emulator.editCell(google.spreadsheetId, 'People', 'A3', 'Joan');
  google.emulator.resetStats();
  const answer = await call(`${google.url}/api/v1/${id}?name=Joan`, {
    method: 'PATCH',
    body: { age: 50 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 2 });
  assert.equal(requests(google).values, 1);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(ages(sheet), [
    ['Ann', 31],
    ['Joan', 50],
    ['Joan', 50],
  ]);
});

/**
 * A Google sheet is its spreadsheet and its tab's id: the title is only shown. A person renaming
 * the tab, or giving its old title to another tab, never makes the sheet follow another tab; a
 * tab deleted leaves the sheet readable (its last copy), refusing writes with 409 tab-gone.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';
import { backend } from './helpers/stores.ts';

const names = (rows: unknown) => (rows as { name: string }[]).map((row) => row.name);

test(`${backend}: a tab renamed, and another given its old title: the sheet keeps its own tab by id, and writes land there`, async (t) => {
  const google = await setup(t, { app: { cacheSize: 0 } });
  const id = await connect(google, { freshnessSeconds: 3600 });
  const { emulator, spreadsheetId } = google;
  emulator.renameTab(spreadsheetId, 'People', 'Staff');
  emulator.renameTab(spreadsheetId, 'Other', 'People');
  const refreshed = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  const rows = `${google.url}/api/v1/${id}`;
  assert.deepEqual(names((await call(rows)).body), ['Ann', 'Bob', 'Joan']);
  const posted = await call(rows, { method: 'POST', body: { name: 'Zed' } });
  assert.equal(posted.status, 201, posted.text);
  assert.deepEqual(
    emulator.rows(spreadsheetId, 'Staff').map((row) => row[0]),
    ['name', 'Ann', 'Bob', 'Joan', 'Zed'],
  );
  assert.deepEqual(emulator.rows(spreadsheetId, 'People'), [['x'], [1]]);
  const described = await call(`${google.url}/admin/v1/sheets/${id}`);
  const source = (described.body as { source: { tab: string; tabId: number } }).source;
  assert.deepEqual([source.tab, source.tabId], ['Staff', 0]);
});

test(`${backend}: a tab deleted: reads serve the last copy, writes answer 409 tab-gone, the description says so, and nothing is written elsewhere`, async (t) => {
  const google = await setup(t, { app: { cacheSize: 0 } });
  const id = await connect(google, { freshnessSeconds: 3600 });
  const { emulator, spreadsheetId } = google;
  emulator.deleteTab(spreadsheetId, 'People');
  // A tab with the old title appears: it is another tab, and is left alone.
  emulator.renameTab(spreadsheetId, 'Other', 'People');
  emulator.resetStats();
  const refreshed = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  const rows = `${google.url}/api/v1/${id}`;
  const read = await call(rows);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(names(read.body), ['Ann', 'Bob', 'Joan']);
  for (const [url, method, body] of [
    [rows, 'POST', { name: 'Zed' }],
    [`${rows}?name=Bob`, 'PATCH', { age: 28 }],
  ] as const) {
    const refused = await call(url, { method, body });
    assert.equal(refused.status, 409, refused.text);
    assert.equal((refused.body as { code: string }).code, 'tab-gone');
  }
  const described = await call(`${google.url}/admin/v1/sheets/${id}`);
  assert.match(String((described.body as { tabGone?: string }).tabGone), /^\d{4}-\d\d-\d\dT/);
  assert.equal(emulator.stats().writes, 0);
  assert.deepEqual(emulator.rows(spreadsheetId, 'People'), [['x'], [1]]);
  assert.deepEqual(names((await call(rows)).body), ['Ann', 'Bob', 'Joan']);
});

test(`${backend}: an append to a tab deleted since the last read answers 409 tab-gone, and the sheet says so`, async (t) => {
  const google = await setup(t, { app: { cacheSize: 0 } });
  const id = await connect(google, { freshnessSeconds: 3600 });
  const { emulator, spreadsheetId } = google;
  emulator.deleteTab(spreadsheetId, 'People');
  const rows = `${google.url}/api/v1/${id}`;
  const refused = await call(rows, { method: 'POST', body: { name: 'Zed' } });
  assert.equal(refused.status, 409, refused.text);
  assert.equal((refused.body as { code: string }).code, 'tab-gone');
  const described = await call(`${google.url}/admin/v1/sheets/${id}`);
  assert.ok((described.body as { tabGone?: string }).tabGone, described.text);
  assert.deepEqual(emulator.rows(spreadsheetId, 'Other'), [['x'], [1]]);
  assert.deepEqual(names((await call(rows)).body), ['Ann', 'Bob', 'Joan']);
});

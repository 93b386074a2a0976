/**
 * Keys survive a person editing the Google spreadsheet: the person's edits are made on the
 * emulator's tab, and Sheetport finds them by a refresh, or by the check of the tab before a
 * write. Keys are read from the store the server runs on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { connect, setup, type Setup } from './helpers/google.ts';
import { KeyLedger, PersonTrace, traceColumns } from './helpers/person-trace.ts';
import { backend, rowKeys } from './helpers/stores.ts';

async function refresh(google: Setup, id: string): Promise<void> {
  const answer = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(answer.status, 200, answer.text);
}

test(`${backend}: over a person's random edits in Google, refreshed after every 1 to 5, 99.9% of surviving rows keep their key and none is reused or given to another row`, async (t) => {
  const trace = new PersonTrace(11, 60);
  const google = await setup(t, { rows: [traceColumns, ...trace.values()] });
  const id = await connect(google);
  const ledger = new KeyLedger();
  ledger.check(trace.rows, await rowKeys(google.store, id));
  for (let session = 0; session < 150; session++) {
    trace.session();
    google.emulator.setRows(google.spreadsheetId, 'People', [traceColumns, ...trace.values()]);
    await refresh(google, id);
    ledger.check(trace.rows, await rowKeys(google.store, id));
  }
  const { tally } = ledger;
  assert.deepEqual(tally.examples, []);
  assert.equal(tally.reused + tally.givenToAnother, 0);
  assert.ok(tally.survived > 5000, `${tally.survived} surviving rows`);
  assert.ok(ledger.keptShare >= 0.999, `${tally.kept} of ${tally.survived} kept their key`);
  // What the API serves is what the person left.
  const api = await call(`${google.url}/api/v1/${id}`);
  assert.deepEqual(
    (api.body as Record<string, unknown>[]).map((row) => traceColumns.map((c) => row[c])),
    trace.values(),
  );
});

test(`${backend}: a row a person drags in Google keeps its key, its event differs only in _id, and a write's check of the tab keeps keys too`, async (t) => {
  const rows = ['Ann', 'Bob', 'Cy', 'Dee'].map((name, i) => [name, 'Oslo', i, true]);
  const google = await setup(t, { rows: [traceColumns, ...rows] });
  const id = await connect(google);
  const keys = await rowKeys(google.store, id);
  const latest = await google.store.latestEventId(id);
  // Ann (row 1 under the header) dragged below Cy.
  google.emulator.moveRow(google.spreadsheetId, 'People', 1, 3);
  await refresh(google, id);
  assert.deepEqual(await rowKeys(google.store, id), [keys[1], keys[2], keys[0], keys[3]]);
  const events = (await google.store.eventsAfter(id, latest, 10)).map(
    (event) =>
      JSON.parse(event.body) as { type: string; data: { rows: unknown; previous: unknown } },
  );
  assert.deepEqual(
    events.map((event) => [event.type, event.data.rows, event.data.previous]),
    [
      [
        'rows.updated',
        [{ _id: 2, _key: keys[0], name: 'Ann', city: 'Oslo', amount: 0, done: true }],
        [{ _id: 0, _key: keys[0], name: 'Ann', city: 'Oslo', amount: 0, done: true }],
      ],
    ],
  );

  // Dee dragged to the top and Bob deleted, then a write that chooses rows: its check of the
  // tab finds both.
  google.emulator.moveRow(google.spreadsheetId, 'People', 4, 1);
  google.emulator.deleteRows(google.spreadsheetId, 'People', 2);
  const patched = await call(`${google.url}/api/v1/${id}?name=Cy`, {
    method: 'PATCH',
    body: { amount: 10 },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await rowKeys(google.store, id), [keys[3], keys[2], keys[0]]);
  const [, cy] = google.emulator.rows(google.spreadsheetId, 'People').slice(1);
  assert.deepEqual(cy, ['Cy', 'Oslo', 10, true]);
});

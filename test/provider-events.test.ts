import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';

interface Event {
  type: string;
  data: {
    source: string;
    rows?: { _id: number; name: string }[];
    columns?: string[];
    previousColumns?: string[];
  };
}

/** What a re-read of the spreadsheet emitted, after connecting. */
async function refreshed(google: Awaited<ReturnType<typeof setup>>, id: string) {
  const latest = await google.store.latestEventId(id);
  const answer = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(answer.status, 200, answer.text);
  const events = await google.store.eventsAfter(id, latest, 100);
  return events.map((event) => JSON.parse(event.body) as Event);
}

const names = (event: Event | undefined) =>
  event?.data.rows?.map((row) => `${row._id}:${row.name}`);

test('a row a person inserts in the middle is one created row, not every row below updated', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const [header = [], ann = [], bob = [], joan = []] = google.emulator.rows(
    google.spreadsheetId,
    'People',
  );
  google.emulator.setRows(google.spreadsheetId, 'People', [
    header,
    ann,
    ['Zoe', 20, false, null],
    bob,
    ['Joan', 46, ...joan.slice(2)],
  ]);
  const events = await refreshed(google, id);
  assert.deepEqual(
    events.map((event) => [event.type, names(event)]),
    [
      ['rows.created', ['1:Zoe']],
      ['rows.updated', ['3:Joan']],
    ],
  );
  assert.ok(events.every((event) => event.data.source === 'provider'));
});

test('a header a person changes is a columns.changed event; a moved column changes no row', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const rows = google.emulator.rows(google.spreadsheetId, 'People');
  // `age` moves to the front, `joined` becomes `since`.
  google.emulator.setRows(
    google.spreadsheetId,
    'People',
    rows.map(([name, age, member, joined], i) => [
      age ?? null,
      name ?? null,
      member ?? null,
      i === 0 ? 'since' : (joined ?? null),
    ]),
  );
  const events = await refreshed(google, id);
  assert.deepEqual(events[0]?.type, 'columns.changed');
  assert.deepEqual(events[0]?.data.previousColumns, ['name', 'age', 'member', 'joined']);
  assert.deepEqual(events[0]?.data.columns, ['age', 'name', 'member', 'since']);
  // Only the rows with a value in the renamed column changed, as JSON objects.
  assert.deepEqual(
    events.slice(1).map((event) => [event.type, names(event)]),
    [['rows.updated', ['0:Ann', '2:Joan']]],
  );
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SheetStore } from '../src/store/store.ts';
import { backend, openTestStore, scratchSheet } from './helpers/stores.ts';

/** Appends one row to sheet `id`, and answers the position of the event it made. */
async function append(store: SheetStore, id: string): Promise<number> {
  await store.writeRows(id, [{ op: { kind: 'append', rows: [['x']] }, ifMatch: null }]);
  return store.latestEventSeq(id);
}

test(`${backend}: an event's position is never given again, even once the sheet whose event had the last one is deleted`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  for (const id of ['kept', 'deleted']) await store.createSheet(scratchSheet(id, ['a']), [[]]);
  const first = await append(store, 'kept');
  const last = await append(store, 'deleted');
  assert.ok(last > first);
  assert.equal(await store.deleteSheet('deleted'), true);
  // A stream or webhook of the kept sheet at position `last` or before sees what comes next.
  assert.ok((await append(store, 'kept')) > last);
  assert.deepEqual(
    (await store.eventsAfter('kept', null, 10)).map((event) => event.type),
    ['rows.created', 'rows.created'],
  );
});

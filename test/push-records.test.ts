/**
 * The record a provider keeps of a push (an Excel push's sessions, operations and marks): saved
 * only while the sheet carries the push's mark and only over the record the saver last saw, and
 * gone with the mark.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backend, openTestStore } from './helpers/stores.ts';

const source = { provider: 'excel' as const, drive: 'd', item: 'i', tab: 'T', worksheetId: 'w' };

test(`${backend}: a push record is kept while its mark is, over the record its saver last saw, and goes with the mark`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const sheet = await store.createSheet(
    { id: 'x', name: 'x', columns: ['name'], source, settings: { deleteEnabled: true } },
    [[['Ann']]],
  );
  assert.equal(await store.savePushRecord(sheet.id, '7', 'a', null), false, 'not marked yet');
  const expect = { version: sheet.version, pushing: null };
  assert.ok(await store.markPushing(sheet.id, { pushId: '7', expect }));
  assert.equal(await store.savePushRecord(sheet.id, '7', 'a', null), true);
  assert.equal(await store.savePushRecord(sheet.id, '7', 'b', 'a'), true);
  // A server that saw only the first record cannot replace the one another saved since.
  assert.equal(await store.savePushRecord(sheet.id, '7', 'c', 'a'), false);
  assert.equal(await store.pushRecord(sheet.id, '7'), 'b');
  // A re-read that keeps the mark keeps the record; one that clears it drops it.
  await store.replaceRows(sheet.id, ['name'], [['Ann']], '7');
  assert.equal(await store.pushRecord(sheet.id, '7'), 'b');
  await store.replaceRows(sheet.id, ['name'], [['Ann']]);
  assert.equal(await store.pushRecord(sheet.id, '7'), null);
  assert.equal(await store.savePushRecord(sheet.id, '7', 'd', null), false, 'mark gone');
  // Cleared as nothing landed: the record goes too.
  const current = (await store.getSheet(sheet.id))?.version ?? 0;
  const mark = { pushId: '8', expect: { version: current, pushing: null } };
  assert.ok(await store.markPushing(sheet.id, mark));
  assert.ok(await store.savePushRecord(sheet.id, '8', 'e', null));
  await store.clearPushing(sheet.id, '8');
  assert.equal(await store.pushRecord(sheet.id, '8'), null);
});

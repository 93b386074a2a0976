/**
 * Keys survive a person editing the Excel worksheet (made on the Graph emulator), found by a
 * refresh. Keys are read from the store the server runs on.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { connectPeople, excelApp, type ExcelApp } from './helpers/excel.ts';
import { traceColumns } from './helpers/person-trace.ts';
import { backend, rowKeys } from './helpers/stores.ts';

async function refresh(excel: ExcelApp, id: string): Promise<void> {
  const answer = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(answer.status, 200, answer.text);
}

test(`${backend}: rows a person drags, sorts and edits in Excel keep their keys; a deleted row's key is gone and a typed row gets a new one`, async (t) => {
  const rows = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'].map((name, i) => [name, 'Oslo', 50 - i, true]);
  const excel = await excelApp(t, { rows: [traceColumns, ...rows] });
  const id = await connectPeople(excel);
  const [ann, bob, cy, dee, eve] = await rowKeys(excel.store, id);

  // Ann (row 2, under the header) dragged to the end.
  excel.emulator.moveRow(excel.ref, 'People', 2, 6);
  await refresh(excel, id);
  assert.deepEqual(await rowKeys(excel.store, id), [bob, cy, dee, eve, ann]);

  // Sorted back by name (the person pastes the sorted rows), and Cy's amount edited.
  excel.emulator.setCells(excel.ref, 'People', 'A2', [
    ['Ann', 'Oslo', 50, true],
    ['Bob', 'Oslo', 49, true],
    ['Cy', 'Oslo', 100, true],
    ['Dee', 'Oslo', 47, true],
    ['Eve', 'Oslo', 46, true],
  ]);
  await refresh(excel, id);
  assert.deepEqual(await rowKeys(excel.store, id), [ann, bob, cy, dee, eve]);

  // Dee deleted, a row typed above Bob.
  excel.emulator.deleteRows(excel.ref, 'People', 5);
  excel.emulator.insertRows(excel.ref, 'People', 3, [['Fay', 'Lima', 7, false]]);
  await refresh(excel, id);
  const after = await rowKeys(excel.store, id);
  assert.deepEqual([after[0], ...after.slice(2)], [ann, bob, cy, eve]);
  assert.ok(![ann, bob, cy, dee, eve].includes(after[1]), `Fay's key ${after[1]} is new`);
});

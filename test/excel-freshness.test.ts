/**
 * A person's edits in the workbook: picked up once the freshness window has passed (or on
 * refresh), seen by the check before a write that chooses rows (the workbook's cTag first, the
 * worksheet's cells when it moved), and a renamed worksheet still found by its id.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, type ExcelApp } from './helpers/excel.ts';

type Row = Record<string, unknown>;
const ages = (rows: unknown) => (rows as Row[]).map((row) => [row.name, row.age]);

/** Graph requests since the log was reset: cTag probes, and reads of the worksheet's cells. */
function requests(excel: ExcelApp) {
  const all = excel.emulator.requests();
  return {
    probes: all.filter((r) => r.method === 'GET' && r.path.endsWith(excel.ref.itemId)).length,
    cells: all.filter((r) => r.method === 'GET' && r.path.includes('usedRange')).length,
  };
}

test("a person's edit shows once the freshness window has passed, or on refresh", async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.setCells(excel.ref, 'People', 'A2', [['Anna']]);
  const cached = await call(`${excel.url}/api/v1/${id}?_id=0`);
  assert.deepEqual(cached.body, [{ name: 'Ann', age: 31, member: true }]);
  const refreshed = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.deepEqual((await call(`${excel.url}/api/v1/${id}?_id=0`)).body, [
    { name: 'Anna', age: 31, member: true },
  ]);
  const patched = await call(`${excel.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { freshnessSeconds: 0 },
  });
  assert.equal(patched.status, 200, patched.text);
  excel.emulator.typeCells(excel.ref, 'People', 'B2', [['32']]);
  assert.deepEqual((await call(`${excel.url}/api/v1/${id}?name=Anna`)).body, [
    { name: 'Anna', age: 32, member: true },
  ]);
});

test('the check before a write by filter on an unchanged workbook is one cTag probe, not a read of the cells', async (t) => {
  const excel = await excelApp(t, { app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.resetRequests();
  const answer = await call(`${excel.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
  });
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  // The probe spares the check's read; the push reads the worksheet in its own session.
  assert.deepEqual(requests(excel), { probes: 1, cells: 1 });
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
});

test("a person's edit moves the cTag: the worksheet is read and the write planned on it", async (t) => {
  const excel = await excelApp(t, { app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  // Bob becomes a second Kim after Sheetport read the worksheet.
  excel.emulator.setCells(excel.ref, 'People', 'A3', [['Kim']]);
  excel.emulator.resetRequests();
  const answer = await call(`${excel.url}/api/v1/${id}?name=Kim`, {
    method: 'PATCH',
    body: { age: 50 },
  });
  assert.deepEqual(answer.body, { updated: 2 }, answer.text);
  assert.deepEqual(requests(excel), { probes: 1, cells: 2 });
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(ages(sheet), [
    ['Ann', 31],
    ['Kim', 50],
    ['Kim', 50],
    ['Lee', 22],
    ['Max', 50],
  ]);
});

test('a renamed worksheet is still found by its id, and the sheet takes its new name', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  excel.emulator.renameWorksheet(excel.ref, 'People', 'Folks');
  const refreshed = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  const sheet = await call(`${excel.url}/admin/v1/sheets/${id}`);
  assert.equal((sheet.body as { source: { tab: string } }).source.tab, 'Folks');
  const answer = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Nia' } });
  assert.equal(answer.status, 201, answer.text);
  assert.equal(excel.emulator.values(excel.ref, 'Folks').at(-1)?.[0], 'Nia');
});

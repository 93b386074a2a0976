/**
 * An Excel sheet is its workbook and its worksheet's id: a worksheet deleted leaves the sheet
 * readable (its last copy) and refuses writes with 409 tab-gone, writing nothing elsewhere.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { connectPeople, excelApp } from './helpers/excel.ts';

test('a worksheet deleted: reads serve the last copy, writes answer 409 tab-gone, and the sheet says so', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  const rows = `${excel.url}/api/v1/${id}`;
  const before = (await call(rows)).body;
  excel.emulator.deleteWorksheet(excel.ref, 'People');
  const refreshed = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  const read = await call(rows);
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body, before);
  const refused = await call(`${rows}?name=Bob`, { method: 'PATCH', body: { age: 28 } });
  assert.equal(refused.status, 409, refused.text);
  assert.equal((refused.body as { code: string }).code, 'tab-gone');
  const described = await call(`${excel.url}/admin/v1/sheets/${id}`);
  assert.ok((described.body as { tabGone?: string }).tabGone, described.text);
});

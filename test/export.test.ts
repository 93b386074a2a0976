import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import Excel from 'exceljs';
import { build, call } from './helpers/build.ts';
import { uploadFixture } from './helpers/upload.ts';

const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

async function sheetWith(t: TestContext, name: string, columns: string[], rows: unknown[]) {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name, columns, rows },
  });
  assert.equal(created.status, 201, created.text);
  return { url, rows: `${url}/api/v1/${(created.body as { id: string }).id}` };
}

/** GETs `target` as a workbook and reads it back with ExcelJS: every row's cells, header first. */
async function workbook(target: string, headers: Record<string, string> = {}) {
  const response = await fetch(target, { headers: { accept: xlsxType, ...headers } });
  assert.equal(response.status, 200, await response.clone().text());
  assert.equal(response.headers.get('content-type'), xlsxType);
  const book = new Excel.Workbook();
  await book.xlsx.load(await response.arrayBuffer());
  const sheet = book.worksheets[0];
  assert.ok(sheet !== undefined, 'the workbook has a worksheet');
  const rows: Excel.Row[] = [];
  sheet.eachRow({ includeEmpty: true }, (row) => rows.push(row));
  const values = rows.map((row) =>
    Array.from({ length: sheet.columnCount }, (_, i) => row.getCell(i + 1).value ?? null),
  );
  return { response, sheet, rows, values };
}

const people = [
  { name: 'Ann', age: 31, member: true, city: 'Oslo', note: '=1+1' },
  { name: 'Bob', age: 45.5, member: false, city: 'Bergen', note: null },
  { name: 'Cy', age: 28, member: true, city: 'Oslo', note: 'plain' },
];
const columns = ['name', 'age', 'member', 'city', 'note'];

test('GET with the XLSX type answers a workbook: header row, then typed cells', async (t) => {
  const { rows } = await sheetWith(t, 'People', columns, people);
  const { response, values } = await workbook(rows);
  assert.match(
    response.headers.get('content-disposition') ?? '',
    /attachment; filename="People.xlsx"/,
  );
  assert.match(response.headers.get('etag') ?? '', /^W\/"\d+-xlsx"$/);
  assert.deepEqual(values, [
    columns,
    ['Ann', 31, true, 'Oslo', '=1+1'],
    ['Bob', 45.5, false, 'Bergen', null],
    ['Cy', 28, true, 'Oslo', 'plain'],
  ]);
});

test('a workbook answers the same filters, _sort, _fields and paging as JSON', async (t) => {
  const { rows } = await sheetWith(t, 'People', columns, people);
  const query = '?city=Oslo&_sort=-age&_fields=age,name';
  const { values } = await workbook(`${rows}${query}`);
  assert.deepEqual(values, [
    ['age', 'name'],
    [31, 'Ann'],
    [28, 'Cy'],
  ]);
  const json = await call(`${rows}${query}`);
  assert.deepEqual(json.body, [
    { age: 31, name: 'Ann' },
    { age: 28, name: 'Cy' },
  ]);
  const page = await workbook(`${rows}?_limit=1&_offset=1&_with_id=true`);
  assert.deepEqual(page.values, [
    ['_id', ...columns],
    [1, 'Bob', 45.5, false, 'Bergen', null],
  ]);
  assert.equal(page.response.headers.get('x-total-count'), '3');
  const none = await workbook(`${rows}?city=Nowhere`);
  assert.deepEqual(none.values, [columns]);
});

test('dates, times and date-times are Excel dates with a format showing what was stored', async (t) => {
  const { url } = await build(t);
  const uploaded = await uploadFixture(url, 'libreoffice.xlsx');
  assert.equal(uploaded.status, 201, JSON.stringify(uploaded.body));
  const { sheet, values } = await workbook(`${url}/api/v1/${uploaded.body.id as string}`);
  assert.deepEqual(values[0], ['what', 'when']);
  const when = values.slice(1).map(([what, value]) => [what, value]);
  assert.deepEqual(when, [
    ['time', new Date('1899-12-30T09:30:00Z')],
    ['midnight', new Date('1899-12-30T00:00:00Z')],
    ['date', new Date('2026-02-01T00:00:00Z')],
    ['date-time', new Date('2026-02-01T14:05:00Z')],
    ['date-time at midnight', new Date('2026-02-01T00:00:00Z')],
    ['last second', new Date('1899-12-30T23:59:59Z')],
  ]);
  const formats = [2, 4, 5].map((row) => sheet.getRow(row).getCell(2).numFmt);
  assert.deepEqual(formats, ['hh:mm:ss', 'yyyy-mm-dd', 'yyyy-mm-dd hh:mm:ss']);
});

test('If-None-Match with the workbook ETag answers 304; JSON and XLSX ETags differ', async (t) => {
  const { rows } = await sheetWith(t, 'People', columns, people);
  const { response } = await workbook(rows);
  const etag = response.headers.get('etag') as string;
  const again = await fetch(rows, { headers: { accept: xlsxType, 'if-none-match': etag } });
  assert.equal(again.status, 304);
  const json = await call(rows);
  assert.notEqual(json.headers.get('etag'), etag);
});

test('a sheet name outside ASCII is kept in the UTF-8 file name', async (t) => {
  const { rows } = await sheetWith(t, 'Bücher "2026"', columns, people);
  const { response } = await workbook(rows);
  const disposition = response.headers.get('content-disposition') ?? '';
  assert.match(disposition, /filename="B_cher _2026_.xlsx"/);
  assert.match(disposition, /filename\*=UTF-8''B%C3%BCcher%20%222026%22.xlsx/);
});

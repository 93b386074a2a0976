import { test } from 'node:test';
import Excel from 'exceljs';
import assert from 'node:assert/strict';
import * as expected from './fixtures/expected-rows.ts';
import { build, call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';
import { rowsOf, upload, uploadFixture } from './helpers/upload.ts';

type Described = {
  id: string;
  source: Record<string, unknown>;
  settings: { textColumns?: string[] };
};

async function uploaded(url: string, name: string, fields: Record<string, string | string[]> = {}) {
  const { status, body } = await uploadFixture(url, name, { fields });
  assert.equal(status, 201, JSON.stringify(body));
  return body as unknown as Described;
}

const skus = async (url: string, id: string, query: string) =>
  ((await call(`${url}/api/v1/${id}?${query}`)).body as { sku: unknown }[]).map((r) => r.sku);

test('a European file uploaded without decimal is read with the decimal comma, and the answer says so', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'european.csv');
  assert.equal(sheet.source.decimal, ',');
  assert.deepEqual(await rowsOf(url, sheet.id), expected.european.rows);
  // Given, the mark wins over what the file says.
  const given = await uploaded(url, 'european.csv', { decimal: '.' });
  assert.equal(given.source.decimal, '.');
  assert.deepEqual(await rowsOf(url, given.id), [
    { Artikel: 'Kaffee', Preis: '12,50', Menge: 1.25 },
    { Artikel: 'Tee', Preis: '3,99', Menge: 20 },
    { Artikel: 'Zucker', Preis: '0,99', Menge: 1 },
  ]);
});

test('a file that does not say its decimal mark keeps 1.250 as text rather than guess', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'grouped-only.csv');
  assert.equal(sheet.source.decimal, '.');
  assert.deepEqual(await rowsOf(url, sheet.id), expected.groupedOnly.rows);
});

test('a code column found in the file is declared text: reads, sort, filters, writes and the typed document keep it so', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'skus.csv');
  assert.deepEqual(sheet.settings.textColumns, ['sku']);
  assert.deepEqual(await rowsOf(url, sheet.id), expected.skus.rows);
  // Text sorts as text: "007" before "0123" before "1001".
  assert.deepEqual(await skus(url, sheet.id, '_sort=sku'), ['007', '0123', '1001']);
  assert.deepEqual(await skus(url, sheet.id, '_sort=-sku'), ['1001', '0123', '007']);
  // Filter values are text too: 1001 matches "1001", and __gt compares text.
  assert.deepEqual(await skus(url, sheet.id, 'sku=1001'), ['1001']);
  assert.deepEqual(await skus(url, sheet.id, 'sku=__gt(0500)'), ['1001']);
  assert.deepEqual(await skus(url, sheet.id, 'sku=__in(007,1001)'), ['007', '1001']);
  // A JSON number written to the column is stored as its decimal text.
  const added = await call(`${url}/api/v1/${sheet.id}`, {
    method: 'POST',
    body: { sku: 2002, name: 'Chair', stock: 5 },
  });
  assert.equal(added.status, 201, added.text);
  const patched = await call(`${url}/api/v1/${sheet.id}?sku=0123`, {
    method: 'PATCH',
    body: { sku: 123.5 },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual(await skus(url, sheet.id, ''), ['007', '123.5', '1001', '2002']);
  assert.deepEqual(await skus(url, sheet.id, 'sku=2002'), ['2002']);
  const document = (await call(`${url}/api/v1/${sheet.id}/openapi.json`)).body as {
    components: { schemas: { Row: { properties: Record<string, unknown> } } };
  };
  assert.deepEqual(document.components.schemas.Row.properties.sku, { type: ['string', 'null'] });
  assert.deepEqual(document.components.schemas.Row.properties.stock, { type: ['number', 'null'] });
});

/** A workbook whose `sku` column holds codes typed as text beside a code typed as a number. */
async function skuWorkbook(rows: (string | number)[][]): Promise<Buffer> {
  const book = new Excel.Workbook();
  const sheet = book.addWorksheet('Stock');
  sheet.addRow(['sku', 'price', 'stock']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

test('a workbook column of codes (007 typed as text beside 1001 typed as a number) is declared text, every cell made text', async (t) => {
  const { url } = await build(t);
  const workbook = await skuWorkbook([
    ['007', 1.5, 3],
    [1001, 2, 4],
    ['0123', 2.25, 5],
  ]);
  // More rows than one transaction of the import holds: every chunk is made text.
  const many = await skuWorkbook(
    Array.from({ length: 12_000 }, (_, i) => [i === 0 ? '007' : 1000 + i, 1.5, i]),
  );
  const answered = await upload(url, workbook, 'stock.xlsx');
  assert.equal(answered.status, 201, JSON.stringify(answered.body));
  const sheet = answered.body as unknown as Described;
  assert.deepEqual(sheet.settings.textColumns, ['sku']);
  assert.deepEqual(await skus(url, sheet.id, '_sort=sku'), ['007', '0123', '1001']);
  // A column whose cells have a decimal part is no code column, whatever else it holds.
  assert.deepEqual(await rowsOf(url, sheet.id), [
    { sku: '007', price: 1.5, stock: 3 },
    { sku: '1001', price: 2, stock: 4 },
    { sku: '0123', price: 2.25, stock: 5 },
  ]);
  const big = await upload(url, many, 'many.xlsx');
  assert.equal(big.status, 201, JSON.stringify(big.body));
  const bigSheet = big.body as unknown as Described;
  assert.deepEqual(bigSheet.settings.textColumns, ['sku']);
  const numbers = (await call(`${url}/api/v1/${bigSheet.id}?sku=__ne(007)&_limit=20000`)).body as {
    sku: unknown;
  }[];
  assert.equal(numbers.length, 11_999);
  assert.ok(
    numbers.every((row) => typeof row.sku === 'string'),
    'every sku is text',
  );
  // Declared by hand, a column is text from the start, and is not listed twice.
  const declared = await upload(url, workbook, 'stock.xlsx', { fields: { textColumn: 'sku' } });
  assert.deepEqual((declared.body as unknown as Described).settings.textColumns, ['sku']);
});

test('a text column is exported as text, in CSV and in XLSX', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'skus.csv');
  const csv = await fetch(`${url}/api/v1/${sheet.id}`, { headers: { accept: 'text/csv' } });
  assert.equal(csv.status, 200);
  assert.match(
    await csv.text(),
    /^sku,name,stock\r?\n007,Agent kit,3\r?\n0123,Lamp,12\r?\n1001,Desk,0/,
  );
  const { default: Excel } = await import('exceljs');
  const xlsx = await fetch(`${url}/api/v1/${sheet.id}`, {
    headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  });
  assert.equal(xlsx.status, 200);
  const book = new Excel.Workbook();
  await book.xlsx.load(await xlsx.arrayBuffer());
  const column = book.worksheets[0]?.getColumn(1).values.slice(2);
  assert.deepEqual(column, ['007', '0123', '1001']);
});

test('textColumn parts declare columns text at upload, names with commas included', async (t) => {
  const { url } = await build(t);
  const file = 'code, internal;qty;price\n12;3;1.5\n1001;4;2\n';
  const { status, body } = await upload(url, file, 'codes.csv', {
    fields: { textColumn: ['code, internal', 'qty'] },
  });
  assert.equal(status, 201, JSON.stringify(body));
  const sheet = body as unknown as Described;
  assert.deepEqual(sheet.settings.textColumns, ['code, internal', 'qty']);
  assert.deepEqual(await rowsOf(url, sheet.id), [
    { 'code, internal': '12', qty: '3', price: 1.5 },
    { 'code, internal': '1001', qty: '4', price: 2 },
  ]);
});

test('a textColumn that is not a column of the file is refused, and no sheet is made', async (t) => {
  const { url } = await build(t);
  const before = (await call(`${url}/admin/v1/sheets`)).body as unknown[];
  const { status, body } = await uploadFixture(url, 'skus.csv', { fields: { textColumn: 'SKU' } });
  assert.equal(status, 400);
  assert.equal((body as { code?: string }).code, 'unknown-column');
  assert.match(
    String(body.detail),
    /"SKU" is not a column; the columns are "sku", "name", "stock"/,
  );
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, before);
});

test('an XLSX workbook takes textColumn too: its numbers become the text they show', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'workbook.xlsx', { textColumn: ['age', 'member'] });
  // `note` holds 007 and no decimal: found to be a code column, it is declared text too.
  assert.deepEqual(sheet.settings.textColumns, ['age', 'member', 'note']);
  const rows = await rowsOf(url, sheet.id);
  assert.deepEqual(
    rows.map((row) => [row.age, row.member]),
    [
      ['42', 'true'],
      ['27.5', 'false'],
    ],
  );
});

test('declaring a column text in the settings turns its stored numbers into text, as one write', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'parts',
      columns: ['part', 'qty'],
      rows: [
        { part: 1001, qty: 2 },
        { part: 'A-7', qty: 3 },
        { part: 42.5, qty: null },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  const before = await call(`${url}/api/v1/${id}`);
  const patched = await call(`${url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { textColumns: ['part'] },
  });
  assert.equal(patched.status, 200, patched.text);
  assert.deepEqual((patched.body as Described).settings.textColumns, ['part']);
  const after = await call(`${url}/api/v1/${id}`);
  assert.deepEqual(after.body, [
    { part: '1001', qty: 2 },
    { part: 'A-7', qty: 3 },
    { part: '42.5', qty: null },
  ]);
  // The rows changed: a new version, so no cached answer or ETag stands for the old cells.
  assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
  // Taken off the list: cells stay as they are; later writes are typed as usual.
  const off = await call(`${url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { textColumns: [] },
  });
  assert.equal(off.status, 200, off.text);
  assert.equal((off.body as Described).settings.textColumns, undefined);
  await call(`${url}/api/v1/${id}`, { method: 'POST', body: { part: 7, qty: 1 } });
  assert.deepEqual(
    ((await call(`${url}/api/v1/${id}`)).body as { part: unknown }[]).map((r) => r.part),
    ['1001', 'A-7', '42.5', 7],
  );
});

test('a text column the sheet does not have is refused in the settings, and nothing changes', async (t) => {
  const { url } = await build(t);
  const sheet = await uploaded(url, 'skus.csv');
  const refused = await call(`${url}/admin/v1/sheets/${sheet.id}`, {
    method: 'PATCH',
    body: { textColumns: ['stock', 'SKU'] },
  });
  assert.equal(refused.status, 400, refused.text);
  assert.equal((refused.body as { code: string }).code, 'unknown-column');
  const now = (await call(`${url}/admin/v1/sheets/${sheet.id}`)).body as Described;
  assert.deepEqual(now.settings.textColumns, ['sku']);
  assert.deepEqual(await rowsOf(url, sheet.id), expected.skus.rows);
});

test('a text column of a Google sheet reads what each cell shows, and a number written to it goes in as text', async (t) => {
  const google = await setup(t, {
    rows: [
      ['sku', 'member', 'joined', 'qty'],
      [1001, true, { date: '2021-03-01T14:05:00' }, 2],
      ['007', false, null, 3],
    ],
  });
  const id = await connect(google);
  const patched = await call(`${google.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { textColumns: ['sku', 'member', 'joined'] },
  });
  assert.equal(patched.status, 200, patched.text);
  // A date-time reads as the tab shows it (`yyyy-mm-dd h:mm:ss`), not as the row API's ISO text.
  assert.deepEqual(await rowsOf(google.url, id), [
    { sku: '1001', member: 'TRUE', joined: '2021-03-01 14:05:00', qty: 2 },
    { sku: '007', member: 'FALSE', joined: null, qty: 3 },
  ]);
  assert.deepEqual(await skus(google.url, id, 'sku=1001'), ['1001']);
  const added = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { sku: 2002, qty: 1 },
  });
  assert.equal(added.status, 201, added.text);
  // The spreadsheet holds the text "2002", as a person typing '2002 would have it.
  assert.deepEqual(google.emulator.rows(google.spreadsheetId, 'People')[3]?.[0], '2002');
});

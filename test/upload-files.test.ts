import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as expected from './fixtures/expected-rows.ts';
import type { ExpectedFile } from './fixtures/expected-rows.ts';
import { build, call } from './helpers/build.ts';
import { rowsOf, sheetIds, upload, uploadFixture, type UploadOptions } from './helpers/upload.ts';

/** Uploads a fixture and checks the sheet it makes against what the file must import as. */
async function assertImports(
  url: string,
  fileName: string,
  want: ExpectedFile,
  options: UploadOptions = {},
): Promise<string> {
  const { status, body } = await uploadFixture(url, fileName, options);
  assert.equal(status, 201, `${fileName}: ${JSON.stringify(body)}`);
  assert.deepEqual(body.columns, want.columns, fileName);
  const source = body.source as Record<string, unknown>;
  assert.equal(source.delimiter, want.delimiter, `${fileName}: delimiter`);
  assert.equal(source.encoding, want.encoding, `${fileName}: encoding`);
  if (want.decimal !== undefined)
    assert.equal(source.decimal, want.decimal, `${fileName}: decimal`);
  const settings = body.settings as { textColumns?: string[] };
  assert.deepEqual(settings.textColumns, want.textColumns, `${fileName}: text columns`);
  assert.deepEqual(await rowsOf(url, body.id as string), want.rows, fileName);
  return body.id as string;
}

test('CSV files as Excel writes them in other locales and encodings import with their text intact', async (t) => {
  const { url } = await build(t);
  const table: [string, ExpectedFile][] = [
    // Only a decimal comma explains their amounts: they are read with one, as given or not.
    ['excel-de.csv', expected.excelGermanDecimalComma],
    ['excel-fr.csv', expected.excelFrenchDecimalComma],
    ['excel-windows-1252.csv', expected.excelWindows1252],
    ['excel-unicode-text.txt', expected.excelUnicodeText],
    ['utf-16be.csv', expected.utf16be],
    ['pipes.txt', expected.pipes],
    ['names.txt', expected.namesDetected],
    ['iso-8859-15.csv', expected.iso885915AsWindows1252],
  ];
  for (const [fileName, want] of table) await assertImports(url, fileName, want);
});

test('a .tsv file uploaded as text/tab-separated-values imports with tabs between fields', async (t) => {
  const { url } = await build(t);
  const id = await assertImports(url, 'people.tsv', expected.peopleTsv, {
    type: 'text/tab-separated-values',
  });
  const { body } = await call(`${url}/api/v1/${id}?city=Lisbon*`);
  assert.deepEqual(body, [expected.peopleTsv.rows[0]]);
});

test('decimal="," reads numbers written with a decimal comma, grouped or not, trailing zeros and all', async (t) => {
  const { url } = await build(t);
  const options = { fields: { decimal: ',' } };
  await assertImports(url, 'excel-de.csv', expected.excelGermanDecimalComma, options);
  await assertImports(url, 'excel-fr.csv', expected.excelFrenchDecimalComma, options);
  // Numbers compare as numbers from then on.
  const id = await assertImports(url, 'excel-de.csv', expected.excelGermanDecimalComma, options);
  const { body } = await call(`${url}/api/v1/${id}?Betrag=__gt(1000)`);
  assert.deepEqual(body, [
    expected.excelGermanDecimalComma.rows[0],
    expected.excelGermanDecimalComma.rows[2],
  ]);
});

test('amounts with trailing zeros import as numbers, so filters and sorts read the column as one', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'prices.csv');
  assert.equal(status, 201, JSON.stringify(body));
  const id = body.id as string;
  assert.deepEqual(await rowsOf(url, id), expected.prices.rows);
  const items = async (query: string) =>
    ((await call(`${url}/api/v1/${id}?${query}`)).body as { item: string }[]).map((r) => r.item);
  assert.deepEqual(await items('price=__gt(1)'), ['pen', 'book', 'bag']);
  assert.deepEqual(await items('_sort=price'), ['ink', 'pen', 'book', 'bag']);
  // An amount written as in the file matches the number by value.
  assert.deepEqual(await items('price=1.50'), ['pen']);
  assert.deepEqual(await items('price=20.00'), ['bag']);
  assert.deepEqual(await items('price=__in(0.10,12.99)'), ['book', 'ink']);
  assert.deepEqual(await items('code=007'), ['pen']);

  const de = await uploadFixture(url, 'prices-de.csv', { fields: { decimal: ',' } });
  assert.equal(de.status, 201, JSON.stringify(de.body));
  assert.deepEqual(await rowsOf(url, de.body.id as string), expected.pricesDecimalComma.rows);
  // Column names keep their text as written.
  const header = await upload(url, Buffer.from('name,20.00,0.10\nx,1,2\n'), 'header.csv');
  assert.equal(header.status, 201, JSON.stringify(header.body));
  assert.deepEqual(header.body.columns, ['name', '20.00', '0.10']);
});

test('a sheet imported before amounts were read as numbers keeps its text cells, and filters still find them', async (t) => {
  const { url, store } = await build(t);
  // As an older release stored prices.csv: `1.50` and `0.10` as text, `20` and `12.99` as numbers.
  await store.createSheet(
    {
      id: 'earlier-prices',
      name: 'prices',
      columns: ['item', 'price'],
      source: { provider: 'upload', fileName: 'prices.csv', format: 'csv' },
      settings: { deleteEnabled: true },
    },
    [
      [
        ['pen', '1.50'],
        ['book', 12.99],
        ['bag', 20],
        ['ink', '0.10'],
      ],
    ],
  );
  const read = async (query: string) => (await call(`${url}/api/v1/earlier-prices?${query}`)).body;
  assert.deepEqual(await read(''), [
    { item: 'pen', price: '1.50' },
    { item: 'book', price: 12.99 },
    { item: 'bag', price: 20 },
    { item: 'ink', price: '0.10' },
  ]);
  assert.deepEqual(await read('price=1.50'), [{ item: 'pen', price: '1.50' }]);
  assert.deepEqual(await read('price=__in(0.10,20.00)'), [
    { item: 'bag', price: 20 },
    { item: 'ink', price: '0.10' },
  ]);
});

test('the "delimiter" and "encoding" parts override what would be detected', async (t) => {
  const { url } = await build(t);
  await assertImports(url, 'names.txt', expected.namesOneColumn, {
    fields: { delimiter: '\t' },
  });
  await assertImports(url, 'iso-8859-15.csv', expected.iso885915, {
    fields: { encoding: 'ISO-8859-15' },
  });
  // A UTF-16 file without its byte-order mark reads only when its encoding is named.
  const bomless = Buffer.from('name\tcity\r\nZoë\tZürich\r\n', 'utf16le');
  const refused = await upload(url, bomless, 'no-bom.txt');
  assert.equal(refused.status, 415, JSON.stringify(refused.body));
  const { status, body } = await upload(url, bomless, 'no-bom.txt', {
    fields: { encoding: 'utf-16le' },
  });
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(await rowsOf(url, body.id as string), [{ name: 'Zoë', city: 'Zürich' }]);
});

test('a bad delimiter, encoding or decimal part is refused with 400 before anything is written', async (t) => {
  const { url } = await build(t);
  const table: [Record<string, string>, RegExp][] = [
    [{ delimiter: ';;' }, /delimiter ";;" is not one character/],
    [{ delimiter: '' }, /delimiter "" is not one character/],
    [{ delimiter: '"' }, /other than a quote or a line break/],
    [{ encoding: 'klingon' }, /encoding "klingon" is not one this server knows/],
    [{ decimal: ';' }, /decimal mark ";" is neither "." nor ","/],
  ];
  for (const [fields, detail] of table) {
    const { status, body } = await uploadFixture(url, 'people.tsv', { fields });
    assert.equal(status, 400, JSON.stringify(fields));
    assert.equal(body.code, 'invalid-body');
    assert.match(body.detail as string, detail);
  }
  const xlsx = await uploadFixture(url, 'libreoffice.xlsx', { fields: { decimal: ',' } });
  assert.equal(xlsx.status, 400);
  assert.match(xlsx.body.detail as string, /apply to CSV files only/);
  assert.deepEqual(await sheetIds(url), []);
});

test('XLSX times read as HH:MM:SS, dates as YYYY-MM-DD, date-times with no zone', async (t) => {
  const { url } = await build(t);
  const id = await assertImports(url, 'libreoffice.xlsx', expected.times);
  // Filters and sorting compare them as text.
  const sorted = await call(`${url}/api/v1/${id}?_sort=when`);
  assert.deepEqual(
    (sorted.body as { when: string }[]).map((row) => row.when),
    [
      '00:00:00',
      '09:30:00',
      '2026-02-01',
      '2026-02-01T00:00:00',
      '2026-02-01T14:05:00',
      '23:59:59',
    ],
  );
  const matched = await call(`${url}/api/v1/${id}?when=2026-02-01T*`);
  assert.deepEqual(matched.body, expected.times.rows.slice(3, 5));
});

test('a workbook in the 1904 date system reads the same dates, however its flag is written', async (t) => {
  const { url } = await build(t);
  await assertImports(url, 'times-1904.xlsx', expected.times);
  await assertImports(url, 'times-1904-flag-1.xlsx', expected.times);
});

test('error cells, rich text, hyperlinks, merged cells, percentages, big numbers and a blank row keep their values', async (t) => {
  const { url } = await build(t);
  await assertImports(url, 'libreoffice.xlsx', expected.kept, { fields: { tab: 'Kept' } });
});

interface SheetsCreated {
  sheets: { id: string; name: string; columns: string[]; source: { tab: string } }[];
  skipped: { tab: string; reason: string }[];
}

test('tab=* makes a sheet of every worksheet, named "<name> / <tab>", and names the tabs it skips', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'libreoffice.xlsx', { fields: { tab: '*' } });
  assert.equal(status, 201, JSON.stringify(body));
  const created = body as unknown as SheetsCreated;
  assert.deepEqual(
    created.sheets.map((sheet) => [sheet.name, sheet.source.tab]),
    [
      ['libreoffice / Times', 'Times'],
      ['libreoffice / Kept', 'Kept'],
    ],
  );
  assert.deepEqual(created.skipped, [{ tab: 'Notes', reason: expected.notesReason }]);
  const [times, kept] = created.sheets;
  assert.deepEqual(await rowsOf(url, times?.id ?? ''), expected.times.rows);
  assert.deepEqual(await rowsOf(url, kept?.id ?? ''), expected.kept.rows);
  assert.deepEqual((await sheetIds(url)).sort(), [times?.id, kept?.id].sort());

  const named = await uploadFixture(url, 'workbook.xlsx', { fields: { tab: '*', name: 'Q1' } });
  assert.equal(named.status, 201, JSON.stringify(named.body));
  assert.deepEqual(
    (named.body as unknown as SheetsCreated).sheets.map((sheet) => sheet.name),
    ['Q1 / Staff', 'Q1 / Budget'],
  );
});

test('tab=* on a CSV file is refused, as any tab is, and creates nothing', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'people.csv', { fields: { tab: '*' } });
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-upload');
  assert.deepEqual(await sheetIds(url), []);
});

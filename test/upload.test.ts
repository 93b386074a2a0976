import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';
import { fixture, postForm, rowsOf, sheetIds, upload, uploadFixture } from './helpers/upload.ts';

const peopleColumns = [
  'name',
  'age',
  'code',
  'price',
  'plus',
  'sci',
  'amount',
  'phone',
  'note',
  'Straße',
];

const emptyPerson = Object.fromEntries(peopleColumns.map((column) => [column, null]));

const peopleRows = [
  {
    name: 'Ann',
    age: 31,
    code: '007',
    price: 1.5,
    plus: '+5',
    sci: '1e3',
    amount: '1,000',
    phone: '+1 555 0100',
    note: 'Lisbon, Portugal',
    Straße: 'Rua Augusta',
  },
  {
    ...emptyPerson,
    name: 'O\'Brien, "Bo"',
    age: -7,
    price: 3.25,
    note: 'first line\nsecond line',
    Straße: 'Königsallee',
  },
  { ...emptyPerson, name: 'Zoë', age: 0.5, code: '-0', price: 42, Straße: '東京 🙂' },
  { ...emptyPerson, name: 'Mei', age: 29 },
];

test('a CSV upload creates a sheet whose cells keep their types: numbers, text that looks numeric, empty cells', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'people.csv', { type: 'text/csv' });
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.columns, peopleColumns);
  assert.equal(body.rowCount, 4);
  assert.deepEqual(body.source, {
    provider: 'upload',
    fileName: 'people.csv',
    format: 'csv',
    delimiter: ',',
    encoding: 'utf-8',
    decimal: '.',
  });
  // `code` holds 007: a code column, declared text.
  assert.deepEqual(body.settings, {
    deleteEnabled: true,
    access: 'open',
    allowedOrigins: ['*'],
    textColumns: ['code'],
  });

  const rows = await rowsOf(url, body.id as string);
  assert.deepEqual(rows, peopleRows);
  for (const row of rows) assert.deepEqual(Object.keys(row), peopleColumns);
});

test('a CSV upload keeps Unicode column names and values, which filters can then match', async (t) => {
  const { url } = await build(t);
  const { body } = await uploadFixture(url, 'people.csv');
  const query = `${encodeURIComponent('Straße')}=${encodeURIComponent('東京 🙂')}`;
  const { status, body: rows } = await call(`${url}/api/v1/${body.id as string}?${query}`);
  assert.equal(status, 200);
  assert.deepEqual(rows, [peopleRows[2]]);
});

test('a quoted CSV field keeps its newline, commas and doubled quotes', async (t) => {
  const { url } = await build(t);
  const { body } = await uploadFixture(url, 'people.csv');
  const rows = await rowsOf(url, body.id as string);
  assert.equal(rows[1]?.name, 'O\'Brien, "Bo"');
  assert.equal(rows[1]?.note, 'first line\nsecond line');
});

test('an uploaded sheet is named by the "name" part when one is sent', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'people.csv', {
    fields: { name: 'Staff list' },
  });
  assert.equal(status, 201);
  assert.equal(body.name, 'Staff list');
});

test('an uploaded sheet without a "name" part is named after the file without its extension', async (t) => {
  const { url } = await build(t);
  const csv = await uploadFixture(url, 'people.csv');
  assert.equal(csv.body.name, 'people');
  const xlsx = await uploadFixture(url, 'workbook.xlsx', { fileName: 'team.budget.xlsx' });
  assert.equal(xlsx.body.name, 'team.budget');
});

test('an XLSX upload reads the first worksheet by default', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'workbook.xlsx');
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.columns, [
    'name',
    'age',
    'member',
    'started',
    'lastSeen',
    'double',
    'note',
  ]);
  assert.equal(body.rowCount, 2);
  assert.deepEqual(body.source, {
    provider: 'upload',
    fileName: 'workbook.xlsx',
    format: 'xlsx',
    tab: 'Staff',
  });
});

test('an XLSX upload keeps cell types: numbers, text, booleans, dates as ISO without a zone, formula results, rich text as text', async (t) => {
  const { url } = await build(t);
  const { body } = await uploadFixture(url, 'workbook.xlsx');
  assert.deepEqual(await rowsOf(url, body.id as string), [
    {
      name: 'Ann',
      age: 42,
      member: true,
      started: '2024-01-05',
      lastSeen: '2024-01-05T13:45:00',
      double: 84,
      note: 'Hello world',
    },
    {
      name: 'Bob',
      age: 27.5,
      member: false,
      started: null,
      lastSeen: null,
      double: 55,
      note: '007',
    },
  ]);
});

test('an XLSX upload with tab=Budget reads the second worksheet', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'workbook.xlsx', { fields: { tab: 'Budget' } });
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.columns, ['item', 'amount', 'paid']);
  assert.equal((body.source as { tab?: string }).tab, 'Budget');
  assert.deepEqual(await rowsOf(url, body.id as string), [
    { item: 'Rent', amount: 1200, paid: true },
    { item: 'Food', amount: 350.5, paid: false },
  ]);
});

test('an XLSX upload naming a tab the workbook lacks is refused with 400 invalid-upload', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'workbook.xlsx', {
    fields: { tab: 'Payroll' },
  });
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-upload');
  assert.match(body.detail as string, /Payroll/);
  assert.deepEqual(await sheetIds(url), []);
});

test('a CSV header with an empty name is refused with 400 invalid-header naming the cell, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const { status, type, body } = await uploadFixture(url, 'bad-header-empty.csv');
  assert.equal(status, 400);
  assert.match(type, /^application\/problem\+json/);
  assert.equal(body.code, 'invalid-header');
  const cells = body.cells as { cell: string; problem: string }[];
  assert.deepEqual(
    cells.map((c) => c.cell),
    ['B1'],
  );
  assert.match(cells[0]?.problem ?? '', /empty/);
  assert.match(body.detail as string, /B1/);
  assert.deepEqual(await sheetIds(url), []);
});

test('a CSV header with a repeated name is refused with 400 invalid-header naming the repeat, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'bad-header-duplicate.csv');
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-header');
  const cells = body.cells as { cell: string; problem: string }[];
  assert.deepEqual(
    cells.map((c) => c.cell),
    ['C1'],
  );
  assert.match(cells[0]?.problem ?? '', /A1/);
  assert.deepEqual(await sheetIds(url), []);
});

test('a CSV row with a value beyond the header is refused with 400 naming the cell, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'data-beyond-header.csv');
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-header');
  assert.deepEqual(
    (body.cells as { cell: string }[]).map((c) => c.cell),
    ['C3'],
  );
  assert.deepEqual(await sheetIds(url), []);
});

test('a CSV file with an unclosed quote is refused with 400 invalid-upload, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'unclosed-quote.csv');
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-upload');
  assert.deepEqual(await sheetIds(url), []);
});

test('a corrupt XLSX file is refused with 400 invalid-upload, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'corrupt.xlsx');
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-upload');
  assert.deepEqual(await sheetIds(url), []);
});

test('a PNG image is refused with 415 unsupported-upload, whatever its file name says', async (t) => {
  const { url } = await build(t);
  for (const fileName of ['not-a-spreadsheet.png', 'disguised.csv']) {
    const { status, body } = await uploadFixture(url, 'not-a-spreadsheet.png', { fileName });
    assert.equal(status, 415, fileName);
    assert.equal(body.code, 'unsupported-upload', fileName);
  }
  assert.deepEqual(await sheetIds(url), []);
});

test('an old Excel 97-2003 .xls workbook is refused with 415 unsupported-upload', async (t) => {
  const { url } = await build(t);
  const { status, body } = await uploadFixture(url, 'old-format.xls');
  assert.equal(status, 415);
  assert.equal(body.code, 'unsupported-upload');
  assert.match(body.detail as string, /xls/i);
  assert.deepEqual(await sheetIds(url), []);
});

test('a multipart body without a "file" part is refused with 400, and no sheet is created', async (t) => {
  const { url } = await build(t);
  const form = new FormData();
  form.append('name', 'nothing attached');
  const { status, body } = await postForm(url, form);
  assert.equal(status, 400);
  assert.equal(body.code, 'invalid-body');
  assert.match(body.detail as string, /"file"/);
  assert.deepEqual(await sheetIds(url), []);
});

test('a file larger than the upload limit is refused with 413 body-too-large, and no sheet is created', async (t) => {
  const { url } = await build(t, { uploadLimit: 2048 });
  const lines = ['name,note'];
  for (let i = 0; i < 200; i++) lines.push(`row ${i},some text to make the file large`);
  const csv = `${lines.join('\n')}\n`;
  assert.ok(csv.length > 4096);
  const { status, body } = await upload(url, csv, 'large.csv', { type: 'text/csv' });
  assert.equal(status, 413);
  assert.equal(body.code, 'body-too-large');
  assert.deepEqual(await sheetIds(url), []);
});

test('a file under the upload limit is accepted even when larger than the JSON body limit', async (t) => {
  const { url } = await build(t, { bodyLimit: 1024, uploadLimit: 65536 });
  const lines = ['name,n'];
  for (let i = 0; i < 500; i++) lines.push(`row ${i},${i}`);
  const csv = `${lines.join('\n')}\n`;
  assert.ok(csv.length > 4096);
  const { status, body } = await upload(url, csv, 'medium.csv', { type: 'text/csv' });
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.rowCount, 500);
});

test('the "name" and "tab" parts are honoured when they come after the file part', async (t) => {
  const { url } = await build(t);
  const form = new FormData();
  form.append('file', new Blob([await fixture('workbook.xlsx')]), 'workbook.xlsx');
  form.append('name', 'Budget 2024');
  form.append('tab', 'Budget');
  const { status, body } = await postForm(url, form);
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.name, 'Budget 2024');
  assert.deepEqual(body.columns, ['item', 'amount', 'paid']);
});

test('a byte order mark at the start of a CSV file is not part of the first column name', async (t) => {
  const { url } = await build(t);
  const { status, body } = await upload(url, '\ufeffname,age\nAnn,31\n', 'excel.csv');
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.columns, ['name', 'age']);
  assert.deepEqual(await rowsOf(url, body.id as string), [{ name: 'Ann', age: 31 }]);
});

test('a CSV file with only a header row creates a sheet with columns and no rows', async (t) => {
  const { url } = await build(t);
  const { status, body } = await upload(url, 'name,age\n', 'empty.csv');
  assert.equal(status, 201, JSON.stringify(body));
  assert.deepEqual(body.columns, ['name', 'age']);
  assert.equal(body.rowCount, 0);
});

test('blank lines at the end of a CSV file are not rows of the sheet', async (t) => {
  const { url } = await build(t);
  const { status, body } = await upload(url, 'name,age\nAnn,31\n\n\n', 'trailing.csv');
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.rowCount, 1);
  assert.deepEqual(await rowsOf(url, body.id as string), [{ name: 'Ann', age: 31 }]);
});

test('blank lines between data rows are empty rows, however many there are', async (t) => {
  const { url } = await build(t);
  const small = await upload(url, 'name,age\nAnn,31\n\n,\n\nBob,27\n\n', 'gaps.csv');
  assert.equal(small.status, 201, JSON.stringify(small.body));
  assert.deepEqual(await rowsOf(url, small.body.id as string), [
    { name: 'Ann', age: 31 },
    { name: null, age: null },
    { name: null, age: null },
    { name: null, age: null },
    { name: 'Bob', age: 27 },
  ]);
  // Far more blank lines than a function call takes arguments, before and after the data row.
  const blanks = 150_000;
  const content = `name,age\n${'\n'.repeat(blanks)}Ann,31\n${'\n'.repeat(blanks)}`;
  const { status, body } = await upload(url, content, 'blanks.csv');
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.rowCount, blanks + 1);
  const { body: found } = await call(`${url}/api/v1/${body.id as string}?name=Ann&_with_id=true`);
  assert.deepEqual(found, [{ _id: blanks, name: 'Ann', age: 31 }]);
});

test('a CSV file that is not UTF-8 is read as Windows-1252, even when its first such byte comes late', async (t) => {
  const { url } = await build(t);
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const late = `name\n${'Ann\n'.repeat(20_000)}Zo\xeb\n`;
  for (const [fileName, content, rows] of [
    ['short-latin1.csv', latin1('name\nZo\xeb\n'), 1],
    ['long-latin1.csv', latin1(late), 20_001],
  ] as const) {
    const { status, body } = await upload(url, content, fileName);
    assert.equal(status, 201, `${fileName}: ${JSON.stringify(body)}`);
    assert.equal((body.source as { encoding: string }).encoding, 'windows-1252');
    assert.equal(body.rowCount, rows);
    const { body: found } = await call(`${url}/api/v1/${body.id as string}?name=Zo%C3%AB`);
    assert.deepEqual(found, [{ name: 'Zoë' }], fileName);
  }
});

test('a CSV file said to be UTF-8 that is not is refused naming the line, and no sheet is created', async (t) => {
  const { url } = await build(t);
  // Early in the file, where the delimiter is decided, and far past it, while rows stream in.
  for (const lines of [3000, 60_000]) {
    const content = Buffer.from(`name\n${'Ann\n'.repeat(lines)}Zo\xeb\n`, 'latin1');
    const { status, body } = await upload(url, content, 'latin1.csv', {
      fields: { encoding: 'utf-8' },
    });
    assert.equal(status, 400, JSON.stringify(body));
    assert.equal(body.code, 'invalid-upload');
    assert.equal(body.line, lines + 2);
    assert.match(
      body.detail as string,
      new RegExp(`^Line ${lines + 2} of the file holds bytes that are not utf-8 text`),
    );
  }
  assert.deepEqual(await sheetIds(url), []);
});

test('a multipart body with two file parts is refused with 400, not as too large', async (t) => {
  const { url } = await build(t);
  const form = new FormData();
  form.append('file', new Blob(['a\n1\n']), 'one.csv');
  form.append('file', new Blob(['b\n2\n']), 'two.csv');
  const { status, body } = await postForm(url, form);
  assert.equal(status, 400, JSON.stringify(body));
  assert.equal(body.code, 'invalid-body');
  assert.match(body.detail as string, /file/i);
  assert.deepEqual(await sheetIds(url), []);
});

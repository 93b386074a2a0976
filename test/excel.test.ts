import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp } from './helpers/excel.ts';

test('an Excel worksheet connects by drive and item ids and serves typed rows', async (t) => {
  const excel = await excelApp(t, {
    rows: [
      ['name', 'age', 'member', 'joined', 'code'],
      ['Ann', 31, true, { value: 44256, numberFormat: 'm/d/yyyy' }, '007'],
      ['Bob', 27, false, null, { value: 7, numberFormat: '000' }],
      ['Joan', 45, true, { value: 43789.5, numberFormat: 'yyyy-mm-dd h:mm' }, null],
    ],
  });
  const created = await call(`${excel.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'excel', drive: excel.ref.driveId, item: excel.ref.itemId } },
  });
  assert.equal(created.status, 201, created.text);
  const { id, source } = created.body as { id: string; source: { worksheetId: string } };
  assert.deepEqual(created.body, {
    ...(created.body as object),
    name: 'People',
    columns: ['name', 'age', 'member', 'joined', 'code'],
    rowCount: 3,
    source: {
      provider: 'excel',
      drive: excel.ref.driveId,
      item: excel.ref.itemId,
      tab: 'People',
      worksheetId: source.worksheetId,
    },
  });
  assert.match(source.worksheetId, /.+/);
  const rows = await call(`${excel.url}/api/v1/${id}`);
  assert.deepEqual(rows.body, [
    { name: 'Ann', age: 31, member: true, joined: '2021-03-01', code: '007' },
    { name: 'Bob', age: 27, member: false, joined: null, code: 7 },
    { name: 'Joan', age: 45, member: true, joined: '2019-11-20T12:00:00', code: null },
  ]);
});

test('a OneDrive or SharePoint sharing link connects the workbook it leads to', async (t) => {
  const excel = await excelApp(t);
  const created = await call(`${excel.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      source: { provider: 'excel', link: excel.emulator.shareLink(excel.ref), tab: 'Other' },
    },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual((created.body as { source: unknown }).source, {
    provider: 'excel',
    drive: excel.ref.driveId,
    item: excel.ref.itemId,
    tab: 'Other',
    worksheetId: (created.body as { source: { worksheetId: string } }).source.worksheetId,
  });
});

test('POST one and many, PUT, PATCH, DELETE by _id and by filter, and upsert each reach the worksheet before they are answered', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  const rows = `${excel.url}/api/v1/${id}`;
  const steps: [string, string, unknown, unknown][] = [
    ['POST', '', { name: 'Zed', age: 50 }, { created: 1, keys: ['5'] }],
    [
      'POST',
      '',
      [{ name: 'Mei' }, { name: 'Ola', age: 9, member: true }],
      { created: 2, keys: ['6', '7'] },
    ],
    ['PUT', '?_id=1', { name: 'Bo', age: 28 }, { updated: 1 }],
    ['PATCH', '?name=K*', { member: false }, { updated: 1 }],
    ['DELETE', '?_id=0,3', undefined, { deleted: 2 }],
    ['DELETE', '?name=Mei', undefined, { deleted: 1 }],
  ];
  for (const [method, query, body, expected] of steps) {
    const answer = await call(`${rows}${query}`, { method, body });
    assert.deepEqual(answer.body, expected, `${method}${query}: ${answer.text}`);
    const { api, sheet } = await bothSides(excel, id);
    assert.deepEqual(api, sheet, `after ${method}${query}`);
  }
  const upsert = await call(`${rows}?_upsert=name`, {
    method: 'POST',
    body: [
      { name: 'Bo', age: 29 },
      { name: 'Pia', age: 3 },
    ],
  });
  assert.ok(upsert.status === 200 || upsert.status === 201, upsert.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet, 'after the upsert');
  assert.deepEqual(api, [
    { name: 'Bo', age: 29, member: null },
    { name: 'Kim', age: 40, member: false },
    { name: 'Max', age: 50, member: true },
    { name: 'Zed', age: 50, member: null },
    { name: 'Ola', age: 9, member: true },
    { name: 'Pia', age: 3, member: null },
  ]);
});

test('text stays text: strings Excel would read as numbers, formulas, booleans or dates are written as the text sent', async (t) => {
  const excel = await excelApp(t, { rows: [['a', 'b', 'c', 'd', 'e']] });
  const id = await connectPeople(excel);
  const sent = { a: '007', b: '=1+1', c: 'TRUE', d: '1/2/2024', e: '12.5%' };
  const answer = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: [sent, { a: 7, b: true }],
  });
  assert.equal(answer.status, 201, answer.text);
  assert.deepEqual(excel.emulator.values(excel.ref, 'People').slice(1), [
    ['007', '=1+1', 'TRUE', '1/2/2024', '12.5%'],
    [7, true, '', '', ''],
  ]);
  assert.equal(excel.emulator.cell(excel.ref, 'People', 'B2').formula, undefined, 'no formula');
  const refreshed = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.deepEqual((await call(`${excel.url}/api/v1/${id}`)).body, [
    sent,
    { a: 7, b: true, c: null, d: null, e: null },
  ]);
});

test("a PATCH of one column leaves the other cells' number formats as a person set them", async (t) => {
  const excel = await excelApp(t, {
    rows: [
      ['name', 'price'],
      ['tea', { value: 3.5, numberFormat: '$#,##0.00' }],
    ],
  });
  const id = await connectPeople(excel);
  const answer = await call(`${excel.url}/api/v1/${id}?name=tea`, {
    method: 'PATCH',
    body: { price: 4 },
  });
  assert.equal(answer.status, 200, answer.text);
  const price = excel.emulator.cell(excel.ref, 'People', 'B2');
  assert.deepEqual([price.value, price.numberFormat], [4, '$#,##0.00']);
  assert.equal(excel.emulator.cell(excel.ref, 'People', 'A2').numberFormat, 'General');
});

test('tab "*" makes a sheet of every worksheet, and GET /admin/v1/providers shows Excel configured', async (t) => {
  const excel = await excelApp(t);
  const created = await call(`${excel.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      source: { provider: 'excel', drive: excel.ref.driveId, item: excel.ref.itemId, tab: '*' },
    },
  });
  assert.equal(created.status, 201, created.text);
  const { sheets } = created.body as { sheets: { name: string }[] };
  assert.deepEqual(
    sheets.map((sheet) => sheet.name),
    ['CRM / People', 'CRM / Other'],
  );
  const providers = await call(`${excel.url}/admin/v1/providers`);
  assert.deepEqual((providers.body as { excel: unknown }).excel, {
    configured: true,
    canWrite: true,
    tenant: excel.app.tenant,
  });
  const again = await call(`${excel.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      source: { provider: 'excel', link: excel.emulator.shareLink(excel.ref), tab: 'Other' },
    },
  });
  assert.equal(again.status, 409, again.text);
  assert.equal((again.body as { code: string }).code, 'already-connected');
});

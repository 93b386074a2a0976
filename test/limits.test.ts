/**
 * The column limit is one both stores hold: at the largest value SHEETPORT_MAX_COLUMNS accepts,
 * a sheet made from scratch or uploaded reads, filters, sorts and writes on each store; one
 * column more is refused before anything is written.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultLimits } from '../src/access/limits.ts';
import { configSchema } from '../src/config/config.ts';
import { build, call } from './helpers/build.ts';
import { backend } from './helpers/stores.ts';

const maxColumns = (configSchema.properties.SHEETPORT_MAX_COLUMNS as { maximum: number }).maximum;
const columns = Array.from({ length: maxColumns }, (_, i) => `column ${i + 1}`);
const last = columns.at(-1) as string;
const row = (n: number) =>
  Object.fromEntries(columns.map((column, i) => [column, i === 0 ? `r${n}` : n * i]));

test(`${backend}: a sheet of ${maxColumns} columns, the most the setting allows, works end to end`, async (t) => {
  const { url } = await build(t, { limits: { ...defaultLimits, columnsPerSheet: maxColumns } });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'wide', columns, rows: [row(1), row(2), row(3)] },
  });
  assert.equal(created.status, 201, created.text);
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;
  const all = (await call(rows)).body as Record<string, unknown>[];
  assert.equal(all.length, 3);
  assert.deepEqual(Object.keys(all[2] ?? {}), columns);
  const lastOf = (n: number) => n * (maxColumns - 1);
  const found = await call(`${rows}?${encodeURIComponent(last)}=${lastOf(2)}`);
  assert.deepEqual(
    (found.body as Record<string, unknown>[]).map((r) => r['column 1']),
    ['r2'],
  );
  const sorted = await call(`${rows}?_sort=-${encodeURIComponent(last)}&_fields=column%201`);
  assert.deepEqual(sorted.body, [{ 'column 1': 'r3' }, { 'column 1': 'r2' }, { 'column 1': 'r1' }]);
  const patched = await call(`${rows}?_id=0`, { method: 'PATCH', body: { [last]: 'changed' } });
  assert.deepEqual(patched.body, { updated: 1 });
  const deleted = await call(`${rows}?${encodeURIComponent(last)}=changed`, { method: 'DELETE' });
  assert.deepEqual(deleted.body, { deleted: 1 });
  const csv = await call(rows, { headers: { accept: 'text/csv' } });
  assert.equal(csv.text.split('\n')[0]?.split(',').length, maxColumns);
});

test(`${backend}: an uploaded file of ${maxColumns} columns and enough rows to be indexed filters by its last column`, async (t) => {
  const { url } = await build(t, { limits: { ...defaultLimits, columnsPerSheet: maxColumns } });
  const lines = [
    columns.join(','),
    ...Array.from({ length: 100 }, (_, n) => Object.values(row(n)).join(',')),
  ];
  const form = new FormData();
  form.set('file', new Blob([`${lines.join('\n')}\n`]), 'wide.csv');
  const uploaded = await fetch(`${url}/admin/v1/sheets`, { method: 'POST', body: form });
  const text = await uploaded.text();
  assert.equal(uploaded.status, 201, text);
  const { id } = JSON.parse(text) as { id: string };
  const found = await call(
    `${url}/api/v1/${id}?${encodeURIComponent(last)}=__ge(${99 * (maxColumns - 1)})`,
  );
  assert.deepEqual(
    (found.body as Record<string, unknown>[]).map((r) => r['column 1']),
    ['r99'],
  );
});

test(`${backend}: one column more than the limit is refused with limit-exceeded, and no sheet is made`, async (t) => {
  const { url } = await build(t, { limits: { ...defaultLimits, columnsPerSheet: maxColumns } });
  const before = await call(`${url}/admin/v1/sheets`);
  const refused = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'too wide', columns: [...columns, 'one more'] },
  });
  assert.equal(refused.status, 400, refused.text);
  assert.deepEqual(
    {
      code: (refused.body as { code: string }).code,
      limit: (refused.body as { limit: string }).limit,
    },
    { code: 'limit-exceeded', limit: 'columnsPerSheet' },
  );
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, before.body);
});

/**
 * `_group`, `_agg` and `_q` over HTTP, on the store the suite is pointed at, for a small sheet
 * (filtered in memory, aggregated by the database) and a large one (filtered through its index).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import Excel from 'exceljs';
import { build, call } from './helpers/build.ts';

const columns = ['city', 'price', 'kind', 'note'];
const rows = [
  { city: 'Paris', price: 10, kind: 'a', note: 'École' },
  { city: 'Oslo', price: 2.5, kind: 'b', note: null },
  { city: 'Paris', price: 'n/a', kind: 'a', note: 'ÉCOLE du soir' },
  { city: null, price: 4, kind: 'b', note: 'x' },
  { city: 'Paris', price: 20.5, kind: 'b', note: 'Straße' },
  { city: 31, price: true, kind: 'a', note: null },
  { city: '31', price: null, kind: 'a', note: 'city' },
  { city: 'Oslo', price: -1, kind: 'a', note: 'SS' },
];

const shapes = [
  { name: 'small sheet', store: {} },
  { name: 'indexed sheet', store: { indexThreshold: 0 } },
];

async function sheet(t: TestContext, store: { indexThreshold?: number }, cacheSize = 0) {
  const server = await build(t, { cacheSize }, {}, { store });
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'sales', columns, rows },
  });
  assert.equal(created.status, 201, created.text);
  return `${server.url}/api/v1/${(created.body as { id: string }).id}`;
}

const get = (url: string, query: string, headers: Record<string, string> = {}) =>
  call(`${url}?${query}`, { headers });

for (const shape of shapes) {
  test(`${shape.name}: groups answer in first-appearance order, number cells only, null groups`, async (t) => {
    const url = await sheet(t, shape.store);
    const answer = await get(
      url,
      '_group=city&_agg=count(),count(price),sum(price),avg(price),min(price),max(price),count_distinct(kind)',
    );
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body, [
      {
        city: 'Paris',
        'count()': 3,
        'count(price)': 3,
        'sum(price)': 30.5,
        'avg(price)': 15.25,
        'min(price)': 10,
        'max(price)': 20.5,
        'count_distinct(kind)': 2,
      },
      {
        city: 'Oslo',
        'count()': 2,
        'count(price)': 2,
        'sum(price)': 1.5,
        'avg(price)': 0.75,
        'min(price)': -1,
        'max(price)': 2.5,
        'count_distinct(kind)': 2,
      },
      {
        city: null,
        'count()': 1,
        'count(price)': 1,
        'sum(price)': 4,
        'avg(price)': 4,
        'min(price)': 4,
        'max(price)': 4,
        'count_distinct(kind)': 1,
      },
      {
        city: 31,
        'count()': 1,
        'count(price)': 1,
        'sum(price)': null,
        'avg(price)': null,
        'min(price)': null,
        'max(price)': null,
        'count_distinct(kind)': 1,
      },
      {
        city: '31',
        'count()': 1,
        'count(price)': 0,
        'sum(price)': null,
        'avg(price)': null,
        'min(price)': null,
        'max(price)': null,
        'count_distinct(kind)': 1,
      },
    ]);
  });

  test(`${shape.name}: filters, _or and _q choose the rows first; _agg alone answers one object`, async (t) => {
    const url = await sheet(t, shape.store);
    assert.deepEqual((await get(url, '_agg=count(),sum(price)')).body, [
      { 'count()': 8, 'sum(price)': 36 },
    ]);
    assert.deepEqual((await get(url, 'kind=b&_agg=count(),sum(price)')).body, [
      { 'count()': 3, 'sum(price)': 27 },
    ]);
    assert.deepEqual((await get(url, 'kind=zzz&_agg=count(),sum(price)')).body, [
      { 'count()': 0, 'sum(price)': null },
    ]);
    assert.deepEqual((await get(url, 'kind=zzz&_group=city&_agg=count()')).body, []);
    // A bound inside an _or, read through the index, binds only the parameters it reads.
    const read = await get(url, '_or=city=Oslo|price=__gt(15)');
    assert.deepEqual(read.body, [rows[1], rows[4], rows[7]]);
    assert.deepEqual((await get(url, '_or=city=Oslo|price=__gt(15)&_group=city')).body, [
      { city: 'Oslo' },
      { city: 'Paris' },
    ]);
    assert.deepEqual((await get(url, '_q=école&_group=city&_agg=count()')).body, [
      { city: 'Paris', 'count()': 2 },
    ]);
  });

  test(`${shape.name}: _sort orders groups by columns and aggregates, nulls last; _limit pages groups`, async (t) => {
    const url = await sheet(t, shape.store);
    const sorted = await get(url, '_group=city&_agg=sum(price)&_sort=-sum(price)');
    assert.deepEqual(
      (sorted.body as { city: unknown }[]).map((group) => group.city),
      ['Paris', null, 'Oslo', 31, '31'],
    );
    const ascending = await get(url, '_group=city&_agg=sum(price)&_sort=sum(price)');
    assert.deepEqual(
      (ascending.body as { city: unknown }[]).map((group) => group.city),
      ['Oslo', null, 'Paris', 31, '31'],
    );
    const byCity = await get(url, '_group=city&_sort=-city');
    assert.deepEqual(
      (byCity.body as { city: unknown }[]).map((group) => group.city),
      ['Paris', 'Oslo', '31', 31, null],
    );
    const page = await get(url, '_group=city&_limit=2&_offset=2');
    assert.deepEqual(page.body, [{ city: null }, { city: 31 }]);
    assert.equal(page.headers.get('x-total-count'), '5');
    const link = page.headers.get('link') ?? '';
    assert.match(link, /_offset=4>; rel="next"/);
    assert.match(link, /_offset=0>; rel="prev"/);
    // A page past the last group still says how many there are.
    for (const query of ['_group=city&_limit=2&_offset=10', '_group=city&_limit=0']) {
      const empty = await get(url, query);
      assert.deepEqual(empty.body, [], query);
      assert.equal(empty.headers.get('x-total-count'), '5', query);
    }
  });

  test(`${shape.name}: _q finds text in any cell by Unicode case folding, never column names`, async (t) => {
    const url = await sheet(t, shape.store);
    const found = async (q: string) =>
      ((await get(url, `_q=${encodeURIComponent(q)}`)).body as { note: unknown }[]).map(
        (row) => row.note,
      );
    assert.deepEqual(await found('ÉCOLE'), ['École', 'ÉCOLE du soir']);
    assert.deepEqual(await found('strasse'), ['Straße']);
    assert.deepEqual(await found('ss'), ['Straße', 'SS']);
    assert.deepEqual(await found('price'), []);
    assert.deepEqual(await found('city'), ['city']);
    assert.deepEqual(await found('2.5'), [null]);
    assert.deepEqual(await found('TRU'), [null]);
    assert.deepEqual(await found('kind=a'), []);
    const combined = await get(url, `_q=${encodeURIComponent('école')}&price=10`);
    assert.deepEqual(combined.body, [rows[0]]);
    const paged = await get(url, `_q=${encodeURIComponent('ÉCOLE')}&_sort=-note&_limit=1`);
    assert.deepEqual(paged.body, [rows[0]]);
    assert.equal(paged.headers.get('x-total-count'), '2');
    const csv = await get(url, `_q=${encodeURIComponent('straße')}&_fields=city,note`, {
      accept: 'text/csv',
    });
    assert.equal(csv.text, 'city,note\nParis,Straße\n');
  });

  test(`${shape.name}: _q chooses the rows a write changes`, async (t) => {
    const url = await sheet(t, shape.store);
    const patched = await call(`${url}?_q=${encodeURIComponent('ÉCOLE')}`, {
      method: 'PATCH',
      body: { kind: 'school' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual((await get(url, 'kind=school&_group=note')).body, [
      { note: 'École' },
      { note: 'ÉCOLE du soir' },
    ]);
  });

  test(`${shape.name}: filtered groups follow the writes that change, add and remove grouped cells`, async (t) => {
    const url = await sheet(t, shape.store);
    const groups = async () => {
      const answer = await get(url, '_group=city&_agg=count(),sum(price)&kind=a');
      assert.equal(answer.status, 200, answer.text);
      return answer.body;
    };
    // The first filtered aggregate may put the grouped columns into the index: later writes
    // must keep them current.
    assert.deepEqual(await groups(), [
      { city: 'Paris', 'count()': 2, 'sum(price)': 10 },
      { city: 31, 'count()': 1, 'sum(price)': null },
      { city: '31', 'count()': 1, 'sum(price)': null },
      { city: 'Oslo', 'count()': 1, 'sum(price)': -1 },
    ]);
    const writes: [string, string, object | undefined][] = [
      ['PATCH', 'city=Oslo', { city: 'Bergen', price: 7 }],
      ['POST', '', { city: 'Paris', price: 1, kind: 'a' }],
      ['DELETE', '_id=0', undefined],
      ['PATCH', 'note=SS', { kind: 'b' }],
      ['PATCH', 'city=', { kind: 'a' }],
    ];
    for (const [method, query, body] of writes) {
      const written = await call(`${url}?${query}`, { method, body });
      assert.ok(written.status < 300, `${method} ${query}: ${written.text}`);
    }
    assert.deepEqual(await groups(), [
      { city: 'Paris', 'count()': 2, 'sum(price)': 1 },
      { city: null, 'count()': 1, 'sum(price)': 4 },
      { city: 31, 'count()': 1, 'sum(price)': null },
      { city: '31', 'count()': 1, 'sum(price)': null },
    ]);
  });
}

test('aggregates come as CSV and XLSX, carry an ETag and answer 304 to it', async (t) => {
  const server = await build(t, { cacheSize: 1_000_000 });
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'sales', columns, rows },
  });
  const url = `${server.url}/api/v1/${(created.body as { id: string }).id}`;
  const reads = { count: 0 };
  const readAggregate = server.store.readAggregate.bind(server.store);
  server.store.readAggregate = (sheet, plan) => {
    reads.count++;
    return readAggregate(sheet, plan);
  };
  const json = await get(url, '_group=kind&_agg=count(),sum(price)');
  const etag = json.headers.get('etag') ?? '';
  assert.match(etag, /^W\/"\d+"$/);
  const again = await get(url, '_group=kind&_agg=count(),sum(price)', { 'if-none-match': etag });
  assert.equal(again.status, 304);
  // Cached like a read: asked a second time, the answer is kept; then it is not computed again.
  await get(url, '_group=kind&_agg=count(),sum(price)');
  const cached = await get(url, '_group=kind&_agg=count(),sum(price)');
  assert.deepEqual(cached.body, json.body);
  assert.equal(reads.count, 2);
  const csv = await get(url, '_group=kind&_agg=count(),sum(price)', { accept: 'text/csv' });
  assert.equal(csv.status, 200);
  assert.equal(csv.text, 'kind,count(),sum(price)\na,5,9\nb,3,27\n');
  assert.notEqual(csv.headers.get('etag'), etag);
  const xlsx = await fetch(`${url}?_group=kind&_agg=count()`, {
    headers: { accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  });
  assert.equal(xlsx.status, 200);
  const book = new Excel.Workbook();
  await book.xlsx.load(await xlsx.arrayBuffer());
  const values: unknown[][] = [];
  book.worksheets[0]?.eachRow((row) => values.push((row.values as unknown[]).slice(1)));
  assert.deepEqual(values, [
    ['kind', 'count()'],
    ['a', 5],
    ['b', 3],
  ]);
  // A write makes a new version: the cached answer is not served for it.
  const posted = await call(url, { method: 'POST', body: { city: 'Rome', price: 1, kind: 'a' } });
  assert.equal(posted.status, 201, posted.text);
  const after = await get(url, '_group=kind&_agg=count(),sum(price)');
  assert.deepEqual(after.body, [
    { kind: 'a', 'count()': 6, 'sum(price)': 10 },
    { kind: 'b', 'count()': 3, 'sum(price)': 27 },
  ]);
  assert.notEqual(after.headers.get('etag'), etag);
});

test('bad aggregate requests are refused with a clear problem and a stable code', async (t) => {
  const url = await sheet(t, {});
  const table: [string, string, RegExp][] = [
    ['_group=town', 'unknown-column', /Column "town" does not exist/],
    ['_agg=sum(cost)', 'unknown-column', /Column "cost" does not exist/],
    ['_agg=median(price)', 'invalid-parameter', /the functions are count, count_distinct, sum/],
    ['_group=city&_fields=city', 'invalid-parameter', /_fields does not apply/],
    ['_group=city&_sort=price', 'invalid-parameter', /names neither a group column nor/],
    ['_agg=sum(price', 'invalid-parameter', /no closing "\)"/],
  ];
  for (const [query, code, detail] of table) {
    const answer = await get(url, query);
    assert.equal(answer.status, 400, query);
    const problem = answer.body as { code: string; detail: string };
    assert.equal(problem.code, code, query);
    assert.match(problem.detail, detail, query);
  }
});

test('aggregates need the read scope, as reads do: a key without it is refused', async (t) => {
  const adminToken = 'test-admin-token-0123456789';
  const admin = { authorization: `Bearer ${adminToken}` };
  const server = await build(t, { adminToken });
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'sales', columns, rows },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const keyOf = async (scopes: string[]) => {
    const made = await call(`${server.url}/admin/v1/sheets/${id}/keys`, {
      method: 'POST',
      headers: admin,
      body: { scopes },
    });
    assert.equal(made.status, 201, made.text);
    return { authorization: `Bearer ${(made.body as { key: string }).key}` };
  };
  const url = `${server.url}/api/v1/${id}?_group=city&_agg=sum(price)`;
  const refused = await call(url, { headers: await keyOf(['create', 'update']) });
  assert.equal(refused.status, 403, refused.text);
  assert.equal((refused.body as { code: string }).code, 'forbidden');
  assert.equal((await call(url)).status, 401);
  const allowed = await call(url, { headers: await keyOf(['read']) });
  assert.equal(allowed.status, 200, allowed.text);
});

test('columns named with quotes, dots, brackets, commas and parentheses group and sum', async (t) => {
  const server = await build(t);
  const names = ['a"b', 'a\\b', 'x.y', '$', '[0]', 'a,b', 'f(x)', 'é 😀'];
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'odd',
      columns: names,
      rows: [
        Object.fromEntries(names.map((name) => [name, 1])),
        Object.fromEntries(names.map((name) => [name, 2])),
        Object.fromEntries(names.map((name) => [name, 1])),
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const url = `${server.url}/api/v1/${(created.body as { id: string }).id}`;
  for (const name of names) {
    const escaped = name.replace(/[\\,()]/g, (c) => `\\${c}`);
    const query = new URLSearchParams({ _group: escaped, _agg: `sum(${escaped})` });
    const answer = await call(`${url}?${query.toString()}`);
    assert.equal(answer.status, 200, `${name}: ${answer.text}`);
    assert.deepEqual(
      answer.body,
      [
        { [name]: 1, [`sum(${escaped})`]: 2 },
        { [name]: 2, [`sum(${escaped})`]: 2 },
      ],
      name,
    );
  }
});

test('a sum past the range of a double answers null, not an error', async (t) => {
  const server = await build(t);
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'huge', columns: ['x'], rows: [{ x: 1e308 }, { x: 1e308 }, { x: 5e-324 }] },
  });
  assert.equal(created.status, 201, created.text);
  const url = `${server.url}/api/v1/${(created.body as { id: string }).id}`;
  const answer = await call(`${url}?_agg=sum(x),min(x),max(x),count(x)`);
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, [
    { 'sum(x)': null, 'min(x)': 5e-324, 'max(x)': 1e308, 'count(x)': 3 },
  ]);
  const tiny = await call(`${url}?x=__lt(1)&_agg=avg(x),sum(x)`);
  assert.deepEqual(tiny.body, [{ 'avg(x)': 5e-324, 'sum(x)': 5e-324 }]);
});

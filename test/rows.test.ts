import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';

type Row = Record<string, unknown>;
type Reply = Awaited<ReturnType<typeof call>>;

interface SheetApi {
  /** Base URL of the server. */
  url: string;
  id: string;
  /** The sheet's rows endpoint, /api/v1/<id>. */
  rows: string;
}

/** Starts a server holding one scratch sheet with these columns and rows. */
async function sheetWith(
  t: TestContext,
  columns: string[],
  rows: Row[] = [],
  options: Partial<AppOptions> = {},
): Promise<SheetApi> {
  const { url } = await build(t, options);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'test sheet', columns, rows },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  return { url, id, rows: `${url}/api/v1/${id}` };
}

async function read(target: string): Promise<Row[]> {
  const reply = await call(target);
  assert.equal(reply.status, 200, reply.text);
  return reply.body as Row[];
}

const names = (rows: Row[]) => rows.map((row) => row.name);

/** Asserts an RFC 9457 problem document with Sheetport's members; returns it for more checks. */
function assertProblem(reply: Reply, status: number, code: string): Row {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  const problem = reply.body as Row;
  assert.equal(problem.type, `urn:sheetport:problem:${code}`);
  assert.equal(problem.status, status);
  assert.equal(problem.code, code);
  assert.equal(typeof problem.title, 'string');
  assert.notEqual(problem.title, '');
  assert.equal(typeof problem.detail, 'string');
  assert.notEqual(problem.detail, '');
  return problem;
}

const peopleColumns = ['name', 'age', 'city', 'member'];
const ann = { name: 'Ann', age: 31, city: 'Oslo', member: true };
const bob = { name: 'Bob', age: 25, city: 'Bergen', member: false };
const jo = { name: 'Jo', age: 40, city: null, member: true };
const joan = { name: 'Joan', age: 7.5, city: 'Oslo', member: false };
const kim = { name: 'Kim', age: 'n/a', city: 'Tromsø', member: null };
const people: Row[] = [ann, bob, jo, joan, kim];

const peopleSheet = (t: TestContext) => sheetWith(t, peopleColumns, people);

/** Four rows a, b, c, d: positions are easy to read in assertions. */
const lettersSheet = (t: TestContext) =>
  sheetWith(
    t,
    ['letter', 'n'],
    ['a', 'b', 'c', 'd'].map((letter, n) => ({ letter, n })),
  );
const letters = (rows: Row[]) => rows.map((row) => row.letter);

const pathShapes = [
  { label: '/api/v1/<id>', path: (id: string) => `/api/v1/${id}` },
  { label: '/api/v1/sheets/<id>', path: (id: string) => `/api/v1/sheets/${id}` },
];

for (const shape of pathShapes) {
  describe(`rows at ${shape.label}`, () => {
    async function endpoint(t: TestContext): Promise<string> {
      const api = await peopleSheet(t);
      return `${api.url}${shape.path(api.id)}`;
    }

    test('GET answers every row in sheet order, keys in column order', async (t) => {
      const rows = await endpoint(t);
      const reply = await call(rows);
      assert.equal(reply.status, 200);
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(reply.body, people);
      for (const row of reply.body as Row[]) assert.deepEqual(Object.keys(row), peopleColumns);
    });

    test('POST appends the row after the last one and answers 201 {"created":1}', async (t) => {
      const rows = await endpoint(t);
      const lea = { name: 'Lea', age: 22, city: 'Oslo', member: true };
      const reply = await call(rows, { method: 'POST', body: lea });
      assert.equal(reply.status, 201, reply.text);
      // Its key: the first row id the sheet had not given out.
      assert.deepEqual(reply.body, { created: 1, keys: [String(people.length)] });
      assert.deepEqual(await read(rows), [...people, lea]);
    });

    test('PUT with _id=1 replaces that row whole, columns left out become null', async (t) => {
      const rows = await endpoint(t);
      const reply = await call(`${rows}?_id=1`, {
        method: 'PUT',
        body: { name: 'Bea', city: 'Bodø' },
      });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body, { updated: 1 });
      const bea = { name: 'Bea', age: null, city: 'Bodø', member: null };
      assert.deepEqual(await read(rows), [ann, bea, jo, joan, kim]);
    });

    test('PATCH with _id=1 changes only the columns sent', async (t) => {
      const rows = await endpoint(t);
      const reply = await call(`${rows}?_id=1`, { method: 'PATCH', body: { age: 26 } });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body, { updated: 1 });
      assert.deepEqual(await read(rows), [ann, { ...bob, age: 26 }, jo, joan, kim]);
    });

    test('DELETE with _id=1 removes that row and the rows below move up', async (t) => {
      const rows = await endpoint(t);
      const reply = await call(`${rows}?_id=1`, { method: 'DELETE' });
      assert.equal(reply.status, 200, reply.text);
      assert.deepEqual(reply.body, { deleted: 1 });
      assert.deepEqual(await read(rows), [ann, jo, joan, kim]);
      assert.deepEqual(await read(`${rows}?_id=1`), [jo]);
    });

    test('a request for an unknown sheet answers 404 sheet-not-found', async (t) => {
      const { url } = await build(t);
      const target = `${url}${shape.path('no-such-sheet')}`;
      assertProblem(await call(target), 404, 'sheet-not-found');
      assertProblem(
        await call(target, { method: 'POST', body: { name: 'x' } }),
        404,
        'sheet-not-found',
      );
    });
  });
}

describe('/query', () => {
  test('GET /api/v1/<id>/query reads with filters and sort like the sheet path', async (t) => {
    const { rows } = await peopleSheet(t);
    assert.deepEqual(await read(`${rows}/query`), people);
    assert.deepEqual(await read(`${rows}/query?member=true&_sort=-age`), [jo, ann]);
    assert.deepEqual(await read(`${rows}/query?city=Oslo`), await read(`${rows}?city=Oslo`));
  });

  test('POST, PUT, PATCH and DELETE on /query answer 405 with Allow and change nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const writes = [
      { method: 'POST', target: `${rows}/query`, body: { name: 'Lea' } },
      { method: 'PUT', target: `${rows}/query?name=Ann`, body: { name: 'Lea' } },
      { method: 'PATCH', target: `${rows}/query?name=Ann`, body: { age: 1 } },
      { method: 'DELETE', target: `${rows}/query?name=Ann`, body: undefined },
    ];
    for (const { method, target, body } of writes) {
      const reply = await call(target, { method, body });
      assertProblem(reply, 405, 'method-not-allowed');
      const allow = reply.headers.get('allow') ?? '';
      assert.match(allow, /\bGET\b/, `${method}: Allow is "${allow}"`);
      assert.doesNotMatch(allow, new RegExp(`\\b${method}\\b`), `${method}: Allow is "${allow}"`);
    }
    assert.deepEqual(await read(rows), people);
  });
});

describe('typed cells', () => {
  test('numbers, booleans and null read back with their JSON types; "" reads as null', async (t) => {
    const { rows } = await sheetWith(t, ['label', 'n', 'flag', 'note']);
    const written = [
      { label: 'x', n: 31, flag: true, note: null },
      { label: 'y', n: -2.5, flag: false, note: '' },
      { label: 'z', n: 0, flag: 'true', note: '007' },
      { label: 'w', n: '42', flag: null, note: 'text' },
    ];
    const reply = await call(rows, { method: 'POST', body: written });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(reply.body, { created: 4, keys: ['0', '1', '2', '3'] });
    assert.deepEqual(await read(rows), [
      { label: 'x', n: 31, flag: true, note: null },
      { label: 'y', n: -2.5, flag: false, note: null },
      { label: 'z', n: 0, flag: 'true', note: '007' },
      { label: 'w', n: '42', flag: null, note: 'text' },
    ]);
  });

  test('rows given when the sheet is created read back with their JSON types', async (t) => {
    const { rows } = await peopleSheet(t);
    const found = await read(rows);
    assert.deepEqual(found, people);
    assert.equal(typeof found[0]?.age, 'number');
    assert.equal(typeof found[0]?.member, 'boolean');
    assert.equal(found[2]?.city, null);
  });
});

describe('filters', () => {
  test('each filter form selects the rows whose cells match it', async (t) => {
    const { rows } = await peopleSheet(t);
    const table: [string, string[]][] = [
      ['name=Ann', ['Ann']],
      ['city=Oslo', ['Ann', 'Joan']],
      ['age=31', ['Ann']],
      ['age=7.5', ['Joan']],
      ['member=true', ['Ann', 'Jo']],
      ['member=false', ['Bob', 'Joan']],
      ['city=', ['Jo']],
      ['name=Jo*', ['Jo', 'Joan']],
      ['name=jo*', []],
      ['name=*n', ['Ann', 'Joan']],
      ['name=*', ['Ann', 'Bob', 'Jo', 'Joan', 'Kim']],
      ['name=__eq(Kim)', ['Kim']],
      ['name=__eq(Jo*)', []],
      ['age=__eq(40)', ['Jo']],
      ['city=__ne(Oslo)', ['Bob', 'Jo', 'Kim']],
      ['age=__ne(31)', ['Bob', 'Jo', 'Joan', 'Kim']],
      ['age=__gt(30)', ['Ann', 'Jo']],
      ['age=__gt(7.5)', ['Ann', 'Bob', 'Jo']],
      ['age=__ge(31)', ['Ann', 'Jo']],
      ['age=__ge(7.5)', ['Ann', 'Bob', 'Jo', 'Joan']],
      ['age=__lt(31)', ['Bob', 'Joan']],
      ['age=__le(25)', ['Bob', 'Joan']],
      ['age=__gt(a)', ['Kim']],
      ['member=__gt(a)', []],
      ['member=__le(zzz)', []],
      ['city=__gt(Oslo)', ['Kim']],
      ['city=__ge(Oslo)', ['Ann', 'Joan', 'Kim']],
      ['city=__lt(Oslo)', ['Bob']],
      ['city=__le(Bergen)', ['Bob']],
      ['name=__lt(B)', ['Ann']],
      ['name=__le(Bob)', ['Ann', 'Bob']],
      ['city=Oslo&age=__gt(30)', ['Ann']],
      ['city=Oslo&member=false', ['Joan']],
      ['age=__gt(20)&age=__lt(35)', ['Ann', 'Bob']],
      ['name=J*&city=', ['Jo']],
      ['name=J*&city=Bergen', []],
    ];
    for (const [query, expected] of table) {
      await t.test(`?${query} selects [${expected.join(', ')}]`, async () => {
        assert.deepEqual(names(await read(`${rows}?${query}`)), expected);
      });
    }
  });

  test('a filter on an unknown column answers 400 unknown-column naming the column', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const query of ['nope=1', 'name=Ann&nope=__gt(3)', '_sort=nope']) {
      const problem = assertProblem(await call(`${rows}?${query}`), 400, 'unknown-column');
      assert.equal(problem.column, 'nope', query);
      assert.match(String(problem.detail), /nope/, query);
    }
    const patched = await call(`${rows}?nope=Ann`, { method: 'PATCH', body: { age: 1 } });
    assert.equal(assertProblem(patched, 400, 'unknown-column').column, 'nope');
    const deleted = await call(`${rows}?nope=Ann`, { method: 'DELETE' });
    assert.equal(assertProblem(deleted, 400, 'unknown-column').column, 'nope');
    assert.deepEqual(await read(rows), people);
  });

  test('a malformed operator answers 400 invalid-filter', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const query of ['age=__gt(30', 'age=__gt()', 'age=__lt()x']) {
      assertProblem(await call(`${rows}?${query}`), 400, 'invalid-filter');
    }
    const deleted = await call(`${rows}?age=__gt(30`, { method: 'DELETE' });
    assertProblem(deleted, 400, 'invalid-filter');
    assert.deepEqual(await read(rows), people);
  });

  test('an unknown operator answers 400 invalid-filter', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const query of ['age=__between(1)', 'age=__like(3)', 'age=__(3)', 'age=__GT(3)']) {
      assertProblem(await call(`${rows}?${query}`), 400, 'invalid-filter');
    }
    const patched = await call(`${rows}?age=__foo(1)`, { method: 'PATCH', body: { age: 1 } });
    assertProblem(patched, 400, 'invalid-filter');
    assert.deepEqual(await read(rows), people);
  });

  test('an unknown _parameter answers 400 invalid-parameter instead of filtering', async (t) => {
    const { rows } = await peopleSheet(t);
    assertProblem(await call(`${rows}?_bogus=1`), 400, 'invalid-parameter');
    assertProblem(await call(`${rows}?_id=0&_id=1`), 400, 'invalid-parameter');
  });
});

describe('_id', () => {
  test('GET _id=2 answers only the third row; _id=0,2 the first and third', async (t) => {
    const { rows } = await peopleSheet(t);
    assert.deepEqual(await read(`${rows}?_id=2`), [jo]);
    assert.deepEqual(await read(`${rows}?_id=0,2`), [ann, jo]);
  });

  test('DELETE with _id=0,2 removes both rows as numbered before the delete', async (t) => {
    const { rows } = await lettersSheet(t);
    const reply = await call(`${rows}?_id=0,2`, { method: 'DELETE' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { deleted: 2 });
    assert.deepEqual(letters(await read(rows)), ['b', 'd']);
  });

  test('PATCH with _id=1,3 updates both rows and nothing else', async (t) => {
    const { rows } = await lettersSheet(t);
    const reply = await call(`${rows}?_id=1,3`, { method: 'PATCH', body: { n: 9 } });
    assert.deepEqual(reply.body, { updated: 2 });
    assert.deepEqual(await read(rows), [
      { letter: 'a', n: 0 },
      { letter: 'b', n: 9 },
      { letter: 'c', n: 2 },
      { letter: 'd', n: 9 },
    ]);
  });

  test('PUT with _id=0,3 replaces both rows whole and nothing else', async (t) => {
    const { rows } = await lettersSheet(t);
    const reply = await call(`${rows}?_id=0,3`, { method: 'PUT', body: { letter: 'z' } });
    assert.deepEqual(reply.body, { updated: 2 });
    assert.deepEqual(await read(rows), [
      { letter: 'z', n: null },
      { letter: 'b', n: 1 },
      { letter: 'c', n: 2 },
      { letter: 'z', n: null },
    ]);
  });

  test('_id that is not a non-negative integer answers 400 invalid-id and changes nothing', async (t) => {
    const { rows } = await lettersSheet(t);
    const before = await read(rows);
    for (const id of ['-1', '1.5', 'abc', '', '1,,2', '0,x', '0x1', '1e2']) {
      const target = `${rows}?_id=${encodeURIComponent(id)}`;
      const requests = [
        { method: 'GET', body: undefined },
        { method: 'PUT', body: { letter: 'z' } },
        { method: 'PATCH', body: { letter: 'z' } },
        { method: 'DELETE', body: undefined },
      ];
      for (const { method, body } of requests) {
        const reply = await call(target, { method, body });
        assert.equal(reply.status, 400, `${method} _id=${id}: ${reply.text}`);
        assertProblem(reply, 400, 'invalid-id');
      }
    }
    assert.deepEqual(await read(rows), before);
  });

  test('_id past the last row answers 404 row-not-found and changes nothing', async (t) => {
    const { rows } = await lettersSheet(t);
    const before = await read(rows);
    const requests = [
      { method: 'GET', query: '_id=4', body: undefined },
      { method: 'DELETE', query: '_id=4', body: undefined },
      { method: 'DELETE', query: '_id=0,4', body: undefined },
      { method: 'PATCH', query: '_id=1,4', body: { letter: 'z' } },
      { method: 'PUT', query: '_id=9', body: { letter: 'z' } },
      { method: 'PUT', query: '_id=2,100', body: { letter: 'z' } },
    ];
    for (const { method, query, body } of requests) {
      const reply = await call(`${rows}?${query}`, { method, body });
      assert.equal(reply.status, 404, `${method} ?${query}: ${reply.text}`);
      assertProblem(reply, 404, 'row-not-found');
    }
    assert.deepEqual(await read(rows), before);
  });

  test('_id together with a filter answers 400 invalid-parameter and changes nothing', async (t) => {
    const { rows } = await lettersSheet(t);
    assertProblem(await call(`${rows}?_id=0&letter=a`), 400, 'invalid-parameter');
    const deleted = await call(`${rows}?_id=0&letter=b`, { method: 'DELETE' });
    assertProblem(deleted, 400, 'invalid-parameter');
    assert.deepEqual(letters(await read(rows)), ['a', 'b', 'c', 'd']);
  });
});

describe('writes by filter', () => {
  test('PUT with a filter replaces every matching row whole and counts them', async (t) => {
    const { rows } = await peopleSheet(t);
    const reply = await call(`${rows}?city=Oslo`, {
      method: 'PUT',
      body: { name: 'Zed', member: false },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { updated: 2 });
    const zed = { name: 'Zed', age: null, city: null, member: false };
    assert.deepEqual(await read(rows), [zed, bob, jo, zed, kim]);
  });

  test('PATCH with a filter changes only the sent columns of every matching row', async (t) => {
    const { rows } = await peopleSheet(t);
    const reply = await call(`${rows}?member=true`, {
      method: 'PATCH',
      body: { city: 'Lima', age: null },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { updated: 2 });
    assert.deepEqual(await read(rows), [
      { ...ann, city: 'Lima', age: null },
      bob,
      { ...jo, city: 'Lima', age: null },
      joan,
      kim,
    ]);
  });

  test('PATCH with several filters updates only rows matching all of them', async (t) => {
    const { rows } = await peopleSheet(t);
    const reply = await call(`${rows}?city=Oslo&age=__lt(10)`, {
      method: 'PATCH',
      body: { member: true },
    });
    assert.deepEqual(reply.body, { updated: 1 });
    assert.deepEqual(await read(rows), [ann, bob, jo, { ...joan, member: true }, kim]);
  });

  test('DELETE with a filter removes every matching row and counts them', async (t) => {
    const { rows } = await peopleSheet(t);
    const reply = await call(`${rows}?member=false`, { method: 'DELETE' });
    assert.equal(reply.status, 200, reply.text);
    assert.deepEqual(reply.body, { deleted: 2 });
    assert.deepEqual(await read(rows), [ann, jo, kim]);
  });

  test('writes whose filter matches no row answer a count of 0 and change nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const target = `${rows}?name=Nobody`;
    assert.deepEqual((await call(target, { method: 'PUT', body: { name: 'x' } })).body, {
      updated: 0,
    });
    assert.deepEqual((await call(target, { method: 'PATCH', body: { name: 'x' } })).body, {
      updated: 0,
    });
    assert.deepEqual((await call(target, { method: 'DELETE' })).body, { deleted: 0 });
    assert.deepEqual(await read(rows), people);
  });

  test('PUT, PATCH and DELETE with neither _id nor a filter answer 400 selection-required and change nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const requests = [
      { method: 'PUT', body: { name: 'x' } },
      { method: 'PATCH', body: { name: 'x' } },
      { method: 'DELETE', body: undefined },
    ];
    for (const { method, body } of requests) {
      assertProblem(await call(rows, { method, body }), 400, 'selection-required');
    }
    assert.deepEqual(await read(rows), people);
  });

  test('PUT, PATCH and DELETE refuse _sort, _limit and _offset with 400 invalid-parameter', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const paging of ['_limit=1', '_offset=1', '_sort=name']) {
      const target = `${rows}?city=Oslo&${paging}`;
      const put = await call(target, { method: 'PUT', body: { name: 'x' } });
      assertProblem(put, 400, 'invalid-parameter');
      const patch = await call(target, { method: 'PATCH', body: { name: 'x' } });
      assertProblem(patch, 400, 'invalid-parameter');
      assertProblem(await call(target, { method: 'DELETE' }), 400, 'invalid-parameter');
    }
    assert.deepEqual(await read(rows), people);
  });
});

describe('DELETE switch', () => {
  test('DELETE switched off answers 405 delete-disabled with an Allow header and deletes nothing', async (t) => {
    const { url, id, rows } = await peopleSheet(t);
    const off = await call(`${url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      body: { deleteEnabled: false },
    });
    assert.equal(off.status, 200, off.text);
    for (const query of ['_id=0', 'name=Ann', '']) {
      const reply = await call(`${rows}?${query}`, { method: 'DELETE' });
      assertProblem(reply, 405, 'delete-disabled');
      const allow = reply.headers.get('allow');
      assert.ok(allow !== null, 'no Allow header');
      assert.match(allow, /\bGET\b/);
      assert.doesNotMatch(allow, /\bDELETE\b/);
    }
    assert.deepEqual(await read(rows), people);
    const patched = await call(`${rows}?name=Ann`, { method: 'PATCH', body: { age: 32 } });
    assert.deepEqual(patched.body, { updated: 1 }, 'other writes still work');
  });

  test('DELETE works again once switched back on', async (t) => {
    const { url, id, rows } = await peopleSheet(t);
    const settings = `${url}/admin/v1/sheets/${id}`;
    await call(settings, { method: 'PATCH', body: { deleteEnabled: false } });
    assert.equal((await call(`${rows}?_id=0`, { method: 'DELETE' })).status, 405);
    const on = await call(settings, { method: 'PATCH', body: { deleteEnabled: true } });
    assert.equal(on.status, 200, on.text);
    assert.deepEqual((await call(`${rows}?_id=0`, { method: 'DELETE' })).body, { deleted: 1 });
    assert.deepEqual(await read(rows), [bob, jo, joan, kim]);
  });
});

describe('paging and sorting', () => {
  const scores: Row[] = [
    { name: 'a', team: 'red', score: 3 },
    { name: 'b', team: 'blue', score: 10 },
    { name: 'c', team: 'red', score: null },
    { name: 'd', team: 'blue', score: 2 },
    { name: 'e', team: null, score: 7 },
    { name: 'f', team: 'red', score: 10 },
  ];
  const scoresSheet = (t: TestContext) => sheetWith(t, ['name', 'team', 'score'], scores);

  test('_limit and _offset page through rows in sheet order', async (t) => {
    const { rows } = await scoresSheet(t);
    const table: [string, string[]][] = [
      ['_limit=2', ['a', 'b']],
      ['_offset=4', ['e', 'f']],
      ['_offset=1&_limit=2', ['b', 'c']],
      ['_limit=0', []],
      ['_offset=6', []],
      ['_offset=100&_limit=5', []],
      ['team=red&_limit=2&_offset=1', ['c', 'f']],
    ];
    for (const [query, expected] of table) {
      assert.deepEqual(names(await read(`${rows}?${query}`)), expected, query);
    }
  });

  test('_sort orders numbers by value, puts empty cells last and breaks ties by sheet order', async (t) => {
    const { rows } = await scoresSheet(t);
    assert.deepEqual(names(await read(`${rows}?_sort=score`)), ['d', 'a', 'e', 'b', 'f', 'c']);
    assert.deepEqual(names(await read(`${rows}?_sort=name`)), ['a', 'b', 'c', 'd', 'e', 'f']);
  });

  test('_sort=-col sorts descending with empty cells still last', async (t) => {
    const { rows } = await scoresSheet(t);
    assert.deepEqual(names(await read(`${rows}?_sort=-score`)), ['b', 'f', 'e', 'a', 'd', 'c']);
    assert.deepEqual(names(await read(`${rows}?_sort=-team`)), ['a', 'c', 'f', 'b', 'd', 'e']);
  });

  test('_sort with several keys sorts by the first, then the next', async (t) => {
    const { rows } = await scoresSheet(t);
    const sorted = names(await read(`${rows}?_sort=team,-score`));
    assert.deepEqual(sorted, ['b', 'd', 'f', 'a', 'c', 'e']);
    assert.deepEqual(names(await read(`${rows}?_sort=-score,-name`)), [
      'f',
      'b',
      'e',
      'a',
      'd',
      'c',
    ]);
  });

  test('_sort applies before _offset and _limit, and after filters', async (t) => {
    const { rows } = await scoresSheet(t);
    assert.deepEqual(names(await read(`${rows}?_sort=-score&_offset=1&_limit=2`)), ['f', 'e']);
    assert.deepEqual(names(await read(`${rows}?team=red&_sort=-score`)), ['f', 'a', 'c']);
  });

  test('bad _limit, _offset or _sort values answer 400 invalid-parameter', async (t) => {
    const { rows } = await scoresSheet(t);
    for (const query of [
      '_limit=-1',
      '_limit=abc',
      '_limit=1.5',
      '_offset=-2',
      '_sort=',
      '_sort=-',
    ]) {
      assertProblem(await call(`${rows}?${query}`), 400, 'invalid-parameter');
    }
  });
});

describe('CSV', () => {
  test('Accept: text/csv answers the selected rows as CSV with a header row', async (t) => {
    const { rows } = await sheetWith(
      t,
      ['name', 'note', 'n', 'ok'],
      [
        { name: 'Ann', note: 'says "hi", twice', n: 3, ok: true },
        { name: 'Bob', note: null, n: 2.5, ok: false },
      ],
    );
    const reply = await call(rows, { headers: { accept: 'text/csv' } });
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/csv/);
    assert.deepEqual(reply.text.split(/\r?\n/), [
      'name,note,n,ok',
      'Ann,"says ""hi"", twice",3,true',
      'Bob,,2.5,false',
      '',
    ]);
    const filtered = await call(`${rows}?name=Bob`, { headers: { accept: 'text/csv' } });
    assert.deepEqual(filtered.text.split(/\r?\n/), ['name,note,n,ok', 'Bob,,2.5,false', '']);
  });

  test('JSON is answered without Accept or when JSON is preferred over CSV', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const accept of ['application/json', 'text/csv;q=0.5, application/json', '*/*']) {
      const reply = await call(rows, { headers: { accept } });
      assert.match(reply.headers.get('content-type') ?? '', /^application\/json/, accept);
      assert.deepEqual(reply.body, people, accept);
    }
  });
});

describe('ETag', () => {
  test('If-None-Match with the current ETag answers 304 with no body', async (t) => {
    const { rows } = await peopleSheet(t);
    const first = await call(rows);
    const etag = first.headers.get('etag');
    assert.ok(etag !== null, 'no ETag');
    assert.match(etag, /^W\/".+"$/);
    const again = await call(rows, { headers: { 'if-none-match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.text, '');
  });

  // RFC 9110 §13.1.2: If-None-Match is a list, compared weakly, and `*` matches any current rows.
  test('If-None-Match listing several ETags answers 304 when one of them is current', async (t) => {
    const { rows } = await peopleSheet(t);
    const etag = (await call(rows)).headers.get('etag') ?? '';
    const reply = await call(rows, { headers: { 'if-none-match': `W/"stale", ${etag}` } });
    assert.equal(reply.status, 304, `If-None-Match: W/"stale", ${etag}`);
  });

  test('If-None-Match compares weakly: the strong form of the current ETag answers 304', async (t) => {
    const { rows } = await peopleSheet(t);
    const etag = (await call(rows)).headers.get('etag') ?? '';
    const strong = etag.replace(/^W\//, '');
    const reply = await call(rows, { headers: { 'if-none-match': strong } });
    assert.equal(reply.status, 304, `If-None-Match: ${strong} against ETag ${etag}`);
  });

  test('If-None-Match: * answers 304 for a sheet that exists', async (t) => {
    const { rows } = await peopleSheet(t);
    const reply = await call(rows, { headers: { 'if-none-match': '*' } });
    assert.equal(reply.status, 304);
  });

  test('after a write the old ETag no longer matches and the new rows are sent', async (t) => {
    const { rows } = await peopleSheet(t);
    const etag = (await call(rows)).headers.get('etag') ?? '';
    await call(rows, { method: 'POST', body: { name: 'Lea' } });
    const after = await call(rows, { headers: { 'if-none-match': etag } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), etag);
    assert.equal((after.body as Row[]).length, people.length + 1);
  });
});

describe('request bodies', () => {
  test('malformed JSON answers 400 malformed-json and changes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const body of ['{"name": ', "{'name': 'x'}", '{"name":"x",}']) {
      assertProblem(await call(rows, { method: 'POST', body }), 400, 'malformed-json');
      const patch = await call(`${rows}?_id=0`, { method: 'PATCH', body });
      assertProblem(patch, 400, 'malformed-json');
    }
    assert.deepEqual(await read(rows), people);
  });

  test('a body that is not JSON answers 415 unsupported-media-type and changes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const types = ['text/plain', 'application/x-www-form-urlencoded', 'text/csv'];
    for (const type of types) {
      const headers = { 'content-type': type };
      const post = await call(rows, { method: 'POST', body: 'name=Lea', headers });
      assertProblem(post, 415, 'unsupported-media-type');
      const put = await call(`${rows}?_id=0`, { method: 'PUT', body: 'name=Lea', headers });
      assertProblem(put, 415, 'unsupported-media-type');
    }
    assert.deepEqual(await read(rows), people);
  });

  test('a body over the limit answers 413 body-too-large and changes nothing', async (t) => {
    const { rows } = await sheetWith(t, ['name'], [{ name: 'Ann' }], { bodyLimit: 1024 });
    const small = await call(rows, { method: 'POST', body: { name: 'x'.repeat(900) } });
    assert.equal(small.status, 201, 'a body under the limit is accepted');
    const before = await read(rows);
    const big = { name: 'y'.repeat(2000) };
    assertProblem(await call(rows, { method: 'POST', body: big }), 413, 'body-too-large');
    const many = Array.from({ length: 200 }, (_, i) => ({ name: `row ${i}` }));
    assertProblem(await call(rows, { method: 'POST', body: many }), 413, 'body-too-large');
    const patch = await call(`${rows}?_id=0`, { method: 'PATCH', body: big });
    assertProblem(patch, 413, 'body-too-large');
    assert.deepEqual(await read(rows), before);
  });

  test('a body with __proto__ or constructor.prototype keys is refused and pollutes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const bodies = [
      '{"__proto__":{"polluted":1}}',
      '{"name":"x","__proto__":{"polluted":1}}',
      '[{"name":"x"},{"__proto__":{"polluted":1}}]',
      '{"constructor":{"prototype":{"polluted":1}}}',
    ];
    for (const body of bodies) {
      assertProblem(await call(rows, { method: 'POST', body }), 400, 'malformed-json');
      const patch = await call(`${rows}?_id=0`, { method: 'PATCH', body });
      assertProblem(patch, 400, 'malformed-json');
    }
    assert.equal(({} as Row).polluted, undefined);
    assert.equal(Object.hasOwn(Object.prototype, 'polluted'), false);
    assert.deepEqual(await read(rows), people);
  });

  test('a body naming an unknown column answers 400 unknown-column naming it and changes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    const body = { name: 'Lea', nickname: 'L' };
    const requests = [
      { method: 'POST', target: rows },
      { method: 'PUT', target: `${rows}?_id=0` },
      { method: 'PATCH', target: `${rows}?city=Oslo` },
    ];
    for (const { method, target } of requests) {
      const problem = assertProblem(await call(target, { method, body }), 400, 'unknown-column');
      assert.equal(problem.column, 'nickname', method);
      assert.match(String(problem.detail), /nickname/);
    }
    assert.deepEqual(await read(rows), people);
  });

  test('a nested object or list as a cell value answers 400 invalid-body and changes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const value of [{ first: 'Lea' }, ['Lea'], []]) {
      const body = { name: value };
      assertProblem(await call(rows, { method: 'POST', body }), 400, 'invalid-body');
      const put = await call(`${rows}?_id=0`, { method: 'PUT', body });
      assertProblem(put, 400, 'invalid-body');
      const patch = await call(`${rows}?_id=0`, { method: 'PATCH', body });
      assertProblem(patch, 400, 'invalid-body');
    }
    assert.deepEqual(await read(rows), people);
  });

  test('a body that is not a row object answers 400 invalid-body and changes nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const body of ['42', '"Lea"', 'true', 'null', '[]', '[1, 2]']) {
      assertProblem(await call(rows, { method: 'POST', body }), 400, 'invalid-body');
    }
    for (const body of ['42', '[{"name":"Lea"}]']) {
      const patch = await call(`${rows}?_id=0`, { method: 'PATCH', body });
      assertProblem(patch, 400, 'invalid-body');
      const put = await call(`${rows}?_id=0`, { method: 'PUT', body });
      assertProblem(put, 400, 'invalid-body');
    }
    assert.deepEqual(await read(rows), people);
  });

  test('POST of an array adds all its rows in order and answers {"created":n}', async (t) => {
    const { rows } = await peopleSheet(t);
    const added = [{ name: 'Lea' }, { name: 'Max', age: 50 }, { name: 'Ned', member: true }];
    const reply = await call(rows, { method: 'POST', body: added });
    assert.equal(reply.status, 201, reply.text);
    assert.deepEqual(reply.body, { created: 3, keys: ['5', '6', '7'] });
    const blank = { name: null, age: null, city: null, member: null };
    assert.deepEqual(await read(rows), [...people, ...added.map((row) => ({ ...blank, ...row }))]);
  });

  test('POST of an array with one bad row answers 400 and adds none of the rows', async (t) => {
    const { rows } = await peopleSheet(t);
    const unknownColumn = [{ name: 'Lea' }, { name: 'Max', nickname: 'M' }, { name: 'Ned' }];
    assertProblem(await call(rows, { method: 'POST', body: unknownColumn }), 400, 'unknown-column');
    const nested = [{ name: 'Lea' }, { name: 'Max' }, { name: { first: 'Ned' } }];
    assertProblem(await call(rows, { method: 'POST', body: nested }), 400, 'invalid-body');
    const notAnObject = [{ name: 'Lea' }, 'Max'];
    assertProblem(await call(rows, { method: 'POST', body: notAnObject }), 400, 'invalid-body');
    assert.deepEqual(await read(rows), people);
  });

  test('POST with query parameters answers 400 invalid-parameter and adds nothing', async (t) => {
    const { rows } = await peopleSheet(t);
    for (const query of ['_id=0', 'name=Ann']) {
      const reply = await call(`${rows}?${query}`, { method: 'POST', body: { name: 'Lea' } });
      assertProblem(reply, 400, 'invalid-parameter');
    }
    assert.deepEqual(await read(rows), people);
  });
});

describe('problem documents', () => {
  test('an unknown path under the API answers 404 route-not-found as a problem document', async (t) => {
    const { rows } = await peopleSheet(t);
    assertProblem(await call(`${rows}/nope`), 404, 'route-not-found');
  });

  test('every error answer carries type, title, status, detail and code', async (t) => {
    const { url, id, rows } = await peopleSheet(t);
    await call(`${url}/admin/v1/sheets/${id}`, { method: 'PATCH', body: { deleteEnabled: false } });
    const cases: [
      string,
      string,
      { method?: string; body?: unknown; headers?: Record<string, string> },
      number,
      string,
    ][] = [
      ['GET unknown sheet', `${url}/api/v1/nope`, {}, 404, 'sheet-not-found'],
      ['GET _id past end', `${rows}?_id=99`, {}, 404, 'row-not-found'],
      ['GET unknown column', `${rows}?x=1`, {}, 400, 'unknown-column'],
      ['GET bad filter', `${rows}?age=__gt(1`, {}, 400, 'invalid-filter'],
      ['GET bad _id', `${rows}?_id=-1`, {}, 400, 'invalid-id'],
      ['GET bad parameter', `${rows}?_x=1`, {}, 400, 'invalid-parameter'],
      [
        'PATCH no selection',
        rows,
        { method: 'PATCH', body: { age: 1 } },
        400,
        'selection-required',
      ],
      ['POST nested', rows, { method: 'POST', body: { name: {} } }, 400, 'invalid-body'],
      ['POST bad JSON', rows, { method: 'POST', body: '{' }, 400, 'malformed-json'],
      ['DELETE disabled', `${rows}?_id=0`, { method: 'DELETE' }, 405, 'delete-disabled'],
      ['POST /query', `${rows}/query`, { method: 'POST', body: {} }, 405, 'method-not-allowed'],
      [
        'POST text/plain',
        rows,
        { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } },
        415,
        'unsupported-media-type',
      ],
    ];
    for (const [label, target, init, status, code] of cases) {
      await t.test(`${label} -> ${status} ${code}`, async () => {
        assertProblem(await call(target, init), status, code);
      });
    }
  });
});

describe('Unicode', () => {
  test('Unicode column names and values round-trip through writes, filters, sort and CSV', async (t) => {
    const { rows } = await sheetWith(t, ['prénom', 'âge', '都市']);
    const written = [
      { prénom: '日本語 ✓', âge: 3, 都市: '東京' },
      { prénom: 'Zoë 😀', âge: 5, 都市: 'Zürich' },
    ];
    assert.deepEqual((await call(rows, { method: 'POST', body: written })).body, {
      created: 2,
      keys: ['0', '1'],
    });
    const found = await read(rows);
    assert.deepEqual(found, written);
    assert.deepEqual(Object.keys(found[0] ?? {}), ['prénom', 'âge', '都市']);

    const byName = `${rows}?${encodeURIComponent('prénom')}=${encodeURIComponent('日本語 ✓')}`;
    assert.deepEqual(await read(byName), [written[0]]);
    const wildcard = `${rows}?${encodeURIComponent('都市')}=${encodeURIComponent('Z*')}`;
    assert.deepEqual(await read(wildcard), [written[1]]);
    const sorted = `${rows}?_sort=${encodeURIComponent('-âge')}`;
    assert.deepEqual(await read(sorted), [written[1], written[0]]);

    const patched = await call(byName, { method: 'PATCH', body: { 都市: 'Ōsaka' } });
    assert.deepEqual(patched.body, { updated: 1 });
    const csv = await call(rows, { headers: { accept: 'text/csv' } });
    assert.deepEqual(csv.text.split(/\r?\n/), [
      'prénom,âge,都市',
      '日本語 ✓,3,Ōsaka',
      'Zoë 😀,5,Zürich',
      '',
    ]);

    const unknown = await call(`${rows}?${encodeURIComponent('prenom')}=x`);
    assert.equal(assertProblem(unknown, 400, 'unknown-column').column, 'prenom');
  });
});

test('each write answers the version it made, and a GET then answers the same ETag', async (t) => {
  const { rows } = await sheetWith(t, ['name'], [{ name: 'a' }]);
  const versions: number[] = [];
  for (const [method, query, body] of [
    ['POST', '', { name: 'b' }],
    ['PATCH', '?_id=0', { name: 'A' }],
    ['DELETE', '?_id=1', undefined],
  ] as const) {
    const reply = await call(`${rows}${query}`, { method, body });
    assert.equal(reply.status < 300, true, reply.text);
    versions.push(Number(/^W\/"(\d+)"$/.exec(reply.headers.get('etag') ?? '')?.[1]));
    const read = await call(rows);
    assert.equal(read.headers.get('etag'), reply.headers.get('etag'));
  }
  assert.deepEqual(versions, [versions[0], (versions[0] ?? 0) + 1, (versions[0] ?? 0) + 2]);
  const failed = await call(`${rows}?_id=9`, { method: 'DELETE' });
  assert.equal(failed.headers.get('etag'), null, 'a failed write makes no version');
});

test('GET with _with_id=true gives each row its position, so a filtered row can be written back', async (t) => {
  const { rows } = await sheetWith(
    t,
    ['name', 'city'],
    [
      { name: 'Ann', city: 'Lisbon' },
      { name: 'Bob', city: 'Oslo' },
      { name: 'Joan', city: 'Lisbon' },
    ],
  );
  const found = await read(`${rows}?city=Lisbon&_sort=-name&_with_id=true`);
  assert.deepEqual(found, [
    { _id: 2, name: 'Joan', city: 'Lisbon' },
    { _id: 0, name: 'Ann', city: 'Lisbon' },
  ]);
  assert.equal(Object.keys(found[0] ?? {})[0], '_id');
  const patched = await call(`${rows}?_id=${found[0]?._id}`, {
    method: 'PATCH',
    body: { city: 'Porto' },
  });
  assert.deepEqual(patched.body, { updated: 1 });
  assert.deepEqual(await read(`${rows}?name=Joan`), [{ name: 'Joan', city: 'Porto' }]);
  const csv = await call(`${rows}?_id=1&_with_id=true`, { headers: { accept: 'text/csv' } });
  assert.equal(csv.text, '_id,name,city\n1,Bob,Oslo\n');
  assertProblem(await call(`${rows}?_with_id=yes`), 400, 'invalid-parameter');
  assertProblem(
    await call(`${rows}?_id=0&_with_id=true`, { method: 'DELETE' }),
    400,
    'invalid-parameter',
  );
});

test('_with_id=true is refused on a sheet whose own column is named _id', async (t) => {
  const { rows } = await sheetWith(t, ['_id', 'name'], [{ _id: 'a', name: 'Ann' }]);
  assertProblem(await call(`${rows}?_with_id=true`), 400, 'invalid-parameter');
  assert.deepEqual(await read(rows), [{ _id: 'a', name: 'Ann' }]);
});

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { build, call } from './helpers/build.ts';
import { anchorEveryRow, bothSides, connect, setup } from './helpers/google.ts';

type Row = Record<string, unknown>;

const people: Row[] = [
  { email: 'ann@example.com', name: 'Ann', age: 31, team: 'red' },
  { email: 'bob@example.com', name: 'Bob', age: 27, team: 'red' },
  { email: 'joan@example.com', name: 'Joan', age: 45, team: 'blue' },
];

async function sheetWith(t: TestContext, rows: Row[] = people) {
  const built = await build(t);
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['email', 'name', 'age', 'team'], rows },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const rowsUrl = `${built.url}/api/v1/${id}`;
  const read = async () => (await call(rowsUrl)).body as Row[];
  return { ...built, id, rows: rowsUrl, read };
}

const upsert = (rows: string, column: string, body: unknown, headers = {}) =>
  call(`${rows}?_upsert=${encodeURIComponent(column)}`, { method: 'POST', body, headers });

test('an upsert that matches nothing appends the row and answers 201 {created: 1, updated: 0}', async (t) => {
  const { rows, read } = await sheetWith(t);
  const answer = await upsert(rows, 'email', { email: 'eva@example.com', name: 'Eva' });
  assert.equal(answer.status, 201, answer.text);
  assert.deepEqual(answer.body, { created: 1, updated: 0, keys: ['3'] });
  assert.deepEqual(await read(), [
    ...people,
    { email: 'eva@example.com', name: 'Eva', age: null, team: null },
  ]);
});

test('an upsert that matches updates the matching row with PATCH semantics and answers 200', async (t) => {
  const { rows, read } = await sheetWith(t);
  const answer = await upsert(rows, 'email', { email: 'bob@example.com', age: 28 });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { created: 0, updated: 1, keys: ['1'] });
  const after = await read();
  assert.deepEqual(after[1], { email: 'bob@example.com', name: 'Bob', age: 28, team: 'red' });
  assert.deepEqual([after[0], after[2]], [people[0], people[2]]);
});

test('an array mixes updates and appends in one write; a key matching several rows updates them all', async (t) => {
  const { rows, read } = await sheetWith(t);
  const answer = await upsert(rows, 'team', [
    { team: 'red', age: 50 },
    { team: 'green', name: 'Gus' },
    { team: 'blue', name: 'Joanna' },
  ]);
  assert.equal(answer.status, 201, answer.text);
  // Red's first match is Ann's row; Gus's row is new.
  assert.deepEqual(answer.body, { created: 1, updated: 3, keys: ['0', '3', '2'] });
  assert.deepEqual(await read(), [
    { email: 'ann@example.com', name: 'Ann', age: 50, team: 'red' },
    { email: 'bob@example.com', name: 'Bob', age: 50, team: 'red' },
    { email: 'joan@example.com', name: 'Joanna', age: 45, team: 'blue' },
    { email: null, name: 'Gus', age: null, team: 'green' },
  ]);
});

test('body rows apply in order: a later row with the same key updates the row an earlier one created', async (t) => {
  const { rows, read } = await sheetWith(t);
  const answer = await upsert(rows, 'email', [
    { email: 'eva@example.com', name: 'Eva' },
    { email: 'eva@example.com', age: 38 },
  ]);
  assert.equal(answer.status, 201);
  // The second body row updated the row the first created: both name it.
  assert.deepEqual(answer.body, { created: 1, updated: 1, keys: ['3', '3'] });
  assert.deepEqual((await read()).slice(3), [
    { email: 'eva@example.com', name: 'Eva', age: 38, team: null },
  ]);
});

test('keys match as `<column>=<value>` does: numbers by their text, `*` literally, and case counts', async (t) => {
  const { rows, read } = await sheetWith(t, [
    { email: 'a*', name: 'star', age: 1, team: 'x' },
    { email: 'abc', name: 'plain', age: 31, team: 'x' },
  ]);
  assert.deepEqual((await upsert(rows, 'email', { email: 'a*', team: 'y' })).body, {
    created: 0,
    updated: 1,
    keys: ['0'],
  });
  assert.deepEqual((await upsert(rows, 'age', { age: 31, team: 'z' })).body, {
    created: 0,
    updated: 1,
    keys: ['1'],
  });
  assert.deepEqual((await upsert(rows, 'email', { email: 'ABC', team: 'w' })).body, {
    created: 1,
    updated: 0,
    keys: ['2'],
  });
  assert.deepEqual(
    (await read()).map((row) => [row.email, row.team]),
    [
      ['a*', 'y'],
      ['abc', 'z'],
      ['ABC', 'w'],
    ],
  );
});

test('a body row without the key column, or with it empty, answers 400 upsert-key-missing and writes nothing', async (t) => {
  const { rows, read } = await sheetWith(t);
  for (const body of [
    { name: 'Nobody' },
    [{ email: 'eva@example.com', name: 'Eva' }, { name: 'Nobody' }],
    { email: '', name: 'Empty' },
    { email: null, name: 'Null' },
  ]) {
    const answer = await upsert(rows, 'email', body);
    assert.equal(answer.status, 400, answer.text);
    assert.equal((answer.body as { code: string }).code, 'upsert-key-missing');
  }
  assert.deepEqual(await read(), people);
});

test('an unknown key column, or an unknown column in the body, answers 400 unknown-column and writes nothing', async (t) => {
  const { rows, read } = await sheetWith(t);
  const unknownKey = await upsert(rows, 'phone', { phone: '1', name: 'X' });
  assert.equal(unknownKey.status, 400);
  assert.equal((unknownKey.body as { code: string }).code, 'unknown-column');
  const unknownCell = await upsert(rows, 'email', { email: 'bob@example.com', phone: '1' });
  assert.equal(unknownCell.status, 400);
  assert.equal((unknownCell.body as { code: string }).code, 'unknown-column');
  const otherParameter = await call(`${rows}?_upsert=email&name=Bob`, {
    method: 'POST',
    body: { email: 'bob@example.com' },
  });
  assert.equal(otherParameter.status, 400);
  assert.equal((otherParameter.body as { code: string }).code, 'invalid-parameter');
  assert.deepEqual(await read(), people);
});

test('an upsert honours If-Match: 412 on a moved version, and nothing changes', async (t) => {
  const { rows, read } = await sheetWith(t);
  const etag = (await call(rows)).headers.get('etag') as string;
  assert.equal(
    (await call(rows, { method: 'POST', body: { email: 'x@example.com' } })).status,
    201,
  );
  const answer = await upsert(
    rows,
    'email',
    { email: 'ann@example.com', age: 99 },
    {
      'if-match': etag,
    },
  );
  assert.equal(answer.status, 412);
  assert.equal((await read())[0]?.age, 31);
});

test('an upsert emits its changes as row events, in the same transaction: rows.updated with the previous rows, rows.created', async (t) => {
  const { rows, store, id } = await sheetWith(t);
  const answer = await upsert(rows, 'email', [
    { email: 'bob@example.com', age: 28 },
    { email: 'eva@example.com', name: 'Eva' },
  ]);
  assert.equal(answer.status, 201);
  const events = (await store.eventsAfter(id, null, 10)).map(
    (event) => JSON.parse(event.body) as { type: string; data: Row },
  );
  const byType = new Map(events.map((event) => [event.type, event.data]));
  assert.deepEqual(byType.get('rows.updated')?.rows, [
    { _id: 1, _key: '1', email: 'bob@example.com', name: 'Bob', age: 28, team: 'red' },
  ]);
  assert.deepEqual(byType.get('rows.updated')?.previous, [{ _id: 1, _key: '1', ...people[1] }]);
  assert.deepEqual(byType.get('rows.created')?.rows, [
    { _id: 3, _key: '3', email: 'eva@example.com', name: 'Eva', age: null, team: null },
  ]);
  assert.equal(events.length, 2);
});

test('on a Google sheet an upsert is one batchUpdate, and the spreadsheet equals the copy, even when the answer is lost', async (t) => {
  const google = await setup(t);
  // Rows anchored already (as an earlier write would leave them): the batch is the one write.
  anchorEveryRow(google);
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  google.emulator.resetStats();
  const answer = await upsert(rows, 'name', [
    { name: 'Bob', age: 28 },
    { name: 'Eva', age: 38 },
  ]);
  assert.equal(answer.status, 201, answer.text);
  const { keys } = answer.body as { keys: string[] };
  assert.deepEqual(answer.body, { created: 1, updated: 1, keys });
  const keyed = (await call(`${rows}?_with_key=true`)).body as Row[];
  assert.deepEqual(
    keys.map((key) => keyed.find((row) => row._key === key)?.name),
    ['Bob', 'Eva'],
  );
  const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.equal(writes.length, 1);
  let { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    (api as Row[]).map((row) => [row.name, row.age]),
    [
      ['Ann', 31],
      ['Bob', 28],
      ['Joan', 45],
      ['Eva', 38],
    ],
  );

  // Applied, then the answer lost: found applied by reading back, never applied twice.
  google.emulator.failNext(1, { status: 500, when: 'after', only: 'writes' });
  const again = await upsert(rows, 'name', [
    { name: 'Eva', age: 39 },
    { name: 'Ivo', age: 52 },
  ]);
  assert.equal(again.status, 201, again.text);
  ({ api, sheet } = await bothSides(google, id));
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    (sheet as Row[]).map((row) => [row.name, row.age]),
    [
      ['Ann', 31],
      ['Bob', 28],
      ['Joan', 45],
      ['Eva', 39],
      ['Ivo', 52],
    ],
  );
});

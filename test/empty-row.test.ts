import assert from 'node:assert/strict';
import { test } from 'node:test';
import { build, call } from './helpers/build.ts';
import { bothSides, connect, setup } from './helpers/google.ts';
import { until } from './helpers/until.ts';

const original = [
  { name: 'Ann', age: 31, member: true, joined: '2021-03-01' },
  { name: 'Bob', age: 27, member: false, joined: null },
  { name: 'Joan', age: 45, member: true, joined: '2019-11-20' },
];

test('a write that would leave an empty row in a Google sheet answers 400 empty-row and changes neither side', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  const writes: [string, string, unknown][] = [
    ['POST', '', {}],
    ['POST', '', { name: '', age: null }],
    ['POST', '', [{ name: 'Zed' }, {}]],
    ['PUT', '?_id=1', {}],
    ['PUT', '?name=Bob', { name: '' }],
    ['PATCH', '?_id=1', { name: null, age: null, member: null }],
  ];
  google.emulator.resetStats();
  for (const [method, query, body] of writes) {
    const answer = await call(`${rows}${query}`, { method, body });
    assert.equal(answer.status, 400, `${method}${query}: ${answer.text}`);
    assert.equal((answer.body as { code: string }).code, 'empty-row');
  }
  assert.equal(google.emulator.stats().writes, 0);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, original);
  assert.deepEqual(sheet, original);
});

test('a PATCH that leaves a value in the row still goes through', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const answer = await call(`${google.url}/api/v1/${id}?_id=1`, {
    method: 'PATCH',
    body: { name: null, age: null },
  });
  assert.equal(answer.status, 200, answer.text);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual((api as unknown[])[1], { name: null, age: null, member: false, joined: null });
});

test('in one commit, only the write that would leave an empty row fails; the others land', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  // Sent while a slow push is out, they wait for it and then share the next commit.
  google.emulator.latencyMs = 300;
  google.emulator.resetStats();
  const first = call(rows, { method: 'POST', body: { name: 'Ann2' } });
  await until(() => google.emulator.stats().writes === 1, 'the first push is applied');
  const together = await Promise.all([
    call(rows, { method: 'POST', body: { name: 'Zed' } }),
    call(rows, { method: 'POST', body: {} }),
    call(`${rows}?_id=0`, { method: 'PUT', body: {} }),
    call(rows, { method: 'POST', body: { name: 'Mei' } }),
  ]);
  assert.equal((await first).status, 201);
  assert.deepEqual(
    together.map((answer) => answer.status),
    [201, 400, 400, 201],
  );
  google.emulator.latencyMs = 0;
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  // The two that landed were sent at once, so either may come first.
  assert.deepEqual((api as { name: string }[]).map((row) => row.name).sort(), [
    'Ann',
    'Ann2',
    'Bob',
    'Joan',
    'Mei',
    'Zed',
  ]);
  assert.equal(google.emulator.stats().writes, 2);
});

test('an upsert on a Google sheet never makes an empty row: its key cell is required', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const answer = await call(`${google.url}/api/v1/${id}?_upsert=name`, {
    method: 'POST',
    body: { name: null },
  });
  assert.equal(answer.status, 400, answer.text);
  assert.equal((answer.body as { code: string }).code, 'upsert-key-missing');
});

test('a scratch sheet keeps empty rows where they are written', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'notes', columns: ['a', 'b'], rows: [{ a: 1 }] },
  });
  assert.equal(created.status, 201, created.text);
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;
  assert.equal((await call(rows, { method: 'POST', body: {} })).status, 201);
  assert.equal((await call(`${rows}?_id=0`, { method: 'PUT', body: {} })).status, 200);
  assert.equal((await call(rows, { method: 'POST', body: { a: 2 } })).status, 201);
  assert.deepEqual((await call(rows)).body, [
    { a: null, b: null },
    { a: null, b: null },
    { a: 2, b: null },
  ]);
});

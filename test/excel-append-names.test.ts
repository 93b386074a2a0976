/**
 * The defined names that anchor an Excel append (see docs/excel.md, "Where an append lands"):
 * an append sent again after a failure takes new names, and names a failure left behind are
 * deleted by the next push on the sheet. Checked on the worksheet and its names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp } from './helpers/excel.ts';

const names = (rows: (string | number | boolean)[][]) => rows.slice(1).map((row) => row[0]);

test('names a failure left behind after the append landed are deleted by the next push', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  // The append lands; the delete of its first name is refused, the second's is not run (424).
  excel.emulator.failNext(1, {
    status: 429,
    retryAfterSeconds: 0,
    match: { method: 'DELETE', path: '/names/' },
  });
  const zoe = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zoe' } });
  assert.equal(zoe.status, 201, zoe.text);
  const left = excel.emulator.definedNames(excel.ref, 'People');
  assert.equal(left.length, 2, `the two names stay: ${left.join(', ')}`);
  assert.ok(left.every((name) => name.startsWith('Sheetport_')));
  // An update (no append, no names of its own) prunes them.
  const bob = await call(`${excel.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 28 },
  });
  assert.equal(bob.status, 200, bob.text);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
  const sheet = excel.emulator.values(excel.ref, 'People');
  assert.deepEqual(names(sheet), ['Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe']);
});

test('an append whose insert landed and whose write was refused is sent again at new names: no blank row, the rows in order', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  excel.emulator.failNext(1, {
    status: 503,
    retryAfterSeconds: 0,
    match: { method: 'PATCH', path: '/names/' },
  });
  // Right after the refused write, a person inserts a row at the top.
  const zoe = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zoe' } });
  assert.equal(zoe.status, 201, zoe.text);
  const patches = excel.emulator
    .requests()
    .filter((r) => r.method === 'PATCH' && r.path.includes('/names/'));
  assert.deepEqual(
    patches.map((r) => r.status),
    [503, 200],
  );
  const [first, second] = patches.map((r) => r.path);
  assert.notEqual(first, second, 'the second attempt wrote at new names');
  const ivy = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Ivy' } });
  assert.equal(ivy.status, 201, ivy.text);
  const sheet = excel.emulator.values(excel.ref, 'People');
  assert.deepEqual(names(sheet), ['Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe', 'Ivy']);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
  const { api, sheet: rows } = await bothSides(excel, id);
  assert.deepEqual(api, rows);
});

test('a person inserting a row right below the last row while Graph holds the append: the write no longer fits, nothing is written over, the outcome is 504, and the next push deletes the names', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 4000 }, app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/insert' } });
  const answer = call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zoe', age: 19 },
    headers: { 'idempotency-key': '"zoe"' },
  });
  for (let i = 0; i < 300 && excel.emulator.heldCount === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(excel.emulator.heldCount, 1, 'Graph holds the append');
  excel.emulator.clearFaults();
  // Row 7 is right below Max, the last row: inside the name the write goes through.
  excel.emulator.insertRows(excel.ref, 'People', 7, [['Below', 0, false]]);
  assert.equal(excel.emulator.applyHeld(), 1);
  const answered = await answer;
  assert.equal(answered.status, 504, answered.text);
  const inside = excel.emulator.requests().filter((r) => r.path.includes('_span/range'));
  assert.deepEqual(
    inside.map((r) => r.status),
    [400],
    'Graph refused the write: its rows no longer fit the name',
  );
  assert.deepEqual(names(excel.emulator.values(excel.ref, 'People')), [
    'Ann',
    'Bob',
    'Kim',
    'Lee',
    'Max',
    'Below',
  ]);
  assert.equal(excel.emulator.definedNames(excel.ref, 'People').length, 2, 'the names stay');
  const ivy = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Ivy' } });
  assert.equal(ivy.status, 201, ivy.text);
  assert.deepEqual(names(excel.emulator.values(excel.ref, 'People')), [
    'Ann',
    'Bob',
    'Kim',
    'Lee',
    'Max',
    'Below',
    'Ivy',
  ]);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
});

test('names added in a batch whose answer was lost: the push closes that session and anchors again in a new one, and the held batch is refused when Graph runs it', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 6000 } });
  const id = await connectPeople(excel);
  excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/names/add' } });
  const zoe = call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zoe' } });
  for (let i = 0; i < 300 && excel.emulator.heldCount === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(excel.emulator.heldCount, 1, 'Graph holds the first names');
  // Graph runs the held batch while the push is still at work: right after the append's insert
  // (the third write after it: the two names added again, then the insert).
  let late: { applied: boolean }[] = [];
  const release = () => {
    const releasedAt = excel.emulator.requests().length;
    excel.emulator.applyHeld();
    late = excel.emulator.requests().slice(releasedAt);
  };
  excel.emulator.afterNext('write', () =>
    excel.emulator.afterNext('write', () => excel.emulator.afterNext('write', release)),
  );
  const answered = await zoe;
  assert.equal(answered.status, 201, answered.text);
  assert.ok(late.length > 0, 'the held batch ran during the push');
  assert.ok(
    late.every((r) => !r.applied),
    'refused: its session was closed',
  );
  assert.deepEqual(names(excel.emulator.values(excel.ref, 'People')), [
    'Ann',
    'Bob',
    'Kim',
    'Lee',
    'Max',
    'Zoe',
  ]);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
});

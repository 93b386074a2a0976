/**
 * Scattered writes to an Excel worksheet in few requests: a filtered DELETE or PATCH whose rows
 * lie in many runs goes as JSON batches of at most 20 range operations, bottom-up, each depending
 * on the one before. Checked end to end: the requests Graph saw, the worksheet and the copy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp } from './helpers/excel.ts';
import type { CellInput } from './graph-emulator/index.ts';

/** 100 people; every other one is a member: 50 runs of one row each. */
const hundred: CellInput[][] = [
  ['name', 'age', 'member'],
  ...Array.from({ length: 100 }, (_, i) => [`P${i}`, i, i % 2 === 0]),
];

test('a filtered DELETE of 50 rows in 50 runs is 3 requests to Graph, each row deleted once', async (t) => {
  const excel = await excelApp(t, { rows: hundred });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.resetRequests();
  const answer = await call(`${excel.url}/api/v1/${id}?member=true`, { method: 'DELETE' });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { deleted: 50 });
  const log = excel.emulator.requests();
  const batches = log.filter((r) => r.kind === 'batch');
  assert.equal(batches.length, 3, 'at most ⌈50 ÷ 20⌉ requests');
  const deletes = log.filter((r) => r.path.endsWith('/delete'));
  assert.equal(deletes.length, 50);
  assert.ok(
    deletes.every((r) => r.batchRequestId !== undefined && r.applied),
    'each inside a batch',
  );
  const rows = deletes.map((r) => Number(/address='(\d+):/.exec(r.path)?.[1]));
  assert.deepEqual(
    rows,
    [...rows].sort((a, b) => b - a),
    'bottom-up',
  );
  assert.equal(log.filter((r) => r.method === 'PATCH').length, 0, 'nothing below is rewritten');
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => row.name),
    Array.from({ length: 50 }, (_, i) => `P${2 * i + 1}`),
  );
});

test('a batch whose answer is lost after it applied, then one refused by a 429 inside: each run is deleted once', async (t) => {
  const excel = await excelApp(t, { rows: hundred });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.failNext(1, { when: 'after', mode: 'reset', match: { only: 'batch' } });
  excel.emulator.failNext(1, {
    status: 429,
    retryAfterSeconds: 1,
    match: { path: "range(address='42:42')" },
  });
  excel.emulator.resetRequests();
  const answer = await call(`${excel.url}/api/v1/${id}?member=true`, { method: 'DELETE' });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { deleted: 50 });
  const applied = excel.emulator.requests().filter((r) => r.path.endsWith('/delete') && r.applied);
  assert.equal(applied.length, 50, 'each run deleted once');
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => row.name),
    Array.from({ length: 50 }, (_, i) => `P${2 * i + 1}`),
  );
});

test('a filtered PATCH of 50 rows in 50 runs is 3 requests to Graph, writing only the cells it changes', async (t) => {
  const excel = await excelApp(t, { rows: hundred });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.resetRequests();
  const answer = await call(`${excel.url}/api/v1/${id}?member=true`, {
    method: 'PATCH',
    body: { age: 0 },
  });
  assert.equal(answer.status, 200, answer.text);
  const log = excel.emulator.requests();
  assert.equal(log.filter((r) => r.kind === 'batch').length, 3);
  const patches = log.filter((r) => r.method === 'PATCH');
  assert.equal(patches.length, 50);
  assert.ok(patches.every((r) => /address='B\d+:B\d+'/.test(r.path)));
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.slice(0, 4).map((row) => row.age),
    [0, 1, 0, 3],
  );
});

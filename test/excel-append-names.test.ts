/**
 * The defined names that anchor an Excel append (see docs/excel.md, "Where an append lands"):
 * an append sent again after a failure takes new names and deletes those before, and names a
 * failure left behind are deleted by an append once their push is long over, never a person's.
 * Checked on the worksheet and the workbook's names.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, type ExcelApp } from './helpers/excel.ts';
import { anchorComment, worksheetMarker } from '../src/providers/excel/append-anchors.ts';
import { sessionLifetimeMs } from '../src/providers/excel/excel-push.ts';

/** The people `connectPeople` starts the worksheet with, in order. */
const people = ['Ann', 'Bob', 'Kim', 'Lee', 'Max'];

/** The first column of a worksheet, below its header. */
const namesIn = (excel: ExcelApp, worksheet = 'People') =>
  excel.emulator
    .values(excel.ref, worksheet)
    .slice(1)
    .map((row) => row[0]);

/** POSTs a row with this name, which must be created. */
async function post(excel: ExcelApp, id: string, name: string): Promise<void> {
  const answer = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name } });
  assert.equal(answer.status, 201, answer.text);
}

/** Waits for Graph to hold a batch back, and checks it holds one. */
async function heldBack(excel: ExcelApp, what: string): Promise<void> {
  for (let i = 0; i < 300 && excel.emulator.heldCount === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(excel.emulator.heldCount, 1, what);
}

test("an append deletes the names Sheetport left on its worksheet by a push long over, and never a person's names, another worksheet's, or those of a push that may be at work", async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  const marker = worksheetMarker(excel.emulator.worksheetId(excel.ref, 'People'));
  const long = (Date.now() - sessionLifetimeMs - 60_000).toString(36);
  const soon = (Date.now() + 60_000).toString(36);
  const named = (worksheet: string, deadline: string, kind = 'end') =>
    `Sheetport_${worksheet}_${deadline}_0123456789abcdef_a1b2c3_${kind}`;
  const seeded = [
    { name: named(marker, long), comment: anchorComment, gone: true },
    { name: named(marker, long, 'span'), comment: anchorComment, gone: true },
    { name: named(marker, soon), comment: anchorComment, gone: false },
    { name: named('0badc0de', long), comment: anchorComment, gone: false },
    { name: named(marker, long).replace('_end', '_mine'), comment: anchorComment, gone: false },
    { name: `${named(marker, long)}_x`, comment: anchorComment, gone: false },
    { name: 'Sheetport_totals', comment: anchorComment, gone: false },
    { name: `${named(marker, long)}`.replace('a1b2c3', 'ffffff'), comment: 'mine', gone: false },
  ];
  for (const { name, comment } of seeded) {
    excel.emulator.defineName(excel.ref, 'People', name, 'A20:C20', comment);
  }
  await post(excel, id, 'Zoe');
  assert.deepEqual(
    excel.emulator.definedNames(excel.ref, 'People'),
    seeded.filter(({ gone }) => !gone).map(({ name }) => name),
  );
  assert.deepEqual(namesIn(excel), [...people, 'Zoe']);
});

test('a name whose delete was refused after the append landed stays while its push may be at work, and the next append lists the names again', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  // The append lands; the delete of its first name is refused, the second's goes.
  excel.emulator.failNext(1, {
    status: 429,
    retryAfterSeconds: 0,
    match: { method: 'DELETE', path: '/names/' },
  });
  await post(excel, id, 'Zoe');
  const left = excel.emulator.definedNames(excel.ref, 'People');
  assert.equal(left.length, 1, `one name stays: ${left.join(', ')}`);
  assert.match(left[0] ?? '', /^Sheetport_[0-9a-f]{8}_[0-9a-z]+_[0-9a-f]{16}_[0-9a-f]{6}_end$/);
  excel.emulator.resetRequests();
  await post(excel, id, 'Ivy');
  const listings = excel.emulator
    .requests()
    .filter((r) => r.method === 'GET' && r.path.endsWith('/workbook/names'));
  assert.equal(listings.length, 1, 'the names were listed with the next append');
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), left, 'its push is recent');
  assert.deepEqual(namesIn(excel), [...people, 'Zoe', 'Ivy']);
  excel.emulator.resetRequests();
  await post(excel, id, 'Lea');
  const again = excel.emulator.requests().filter((r) => r.path.endsWith('/workbook/names'));
  assert.equal(again.length, 1, 'a name seen that stays for now is looked for again');
});

test('an append whose insert landed and whose write was refused is sent again at new names: no blank row, the rows in order', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  excel.emulator.failNext(1, {
    status: 503,
    retryAfterSeconds: 0,
    match: { method: 'PATCH', path: '/names/' },
  });
  await post(excel, id, 'Zoe');
  const patches = excel.emulator
    .requests()
    .filter((r) => r.method === 'PATCH' && r.path.includes('/names/'));
  assert.deepEqual(
    patches.map((r) => r.status),
    [503, 200],
  );
  const [first, second] = patches.map((r) => r.path);
  assert.notEqual(first, second, 'the second attempt wrote at new names');
  await post(excel, id, 'Ivy');
  assert.deepEqual(namesIn(excel), [...people, 'Zoe', 'Ivy']);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
  const { api, sheet: rows } = await bothSides(excel, id);
  assert.deepEqual(api, rows);
});

test('a person inserting a row right below the last row while Graph holds the append: the write no longer fits, nothing is written over, the outcome is 504, and the names stay while the push is recent', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 4000 }, app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/insert' } });
  const answer = call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zoe', age: 19 },
    headers: { 'idempotency-key': '"zoe"' },
  });
  await heldBack(excel, 'Graph holds the append');
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
  assert.deepEqual(namesIn(excel), [...people, 'Below']);
  assert.equal(excel.emulator.definedNames(excel.ref, 'People').length, 2, 'the names stay');
  await post(excel, id, 'Ivy');
  assert.deepEqual(namesIn(excel), [...people, 'Below', 'Ivy']);
  assert.equal(excel.emulator.definedNames(excel.ref, 'People').length, 2, 'only those two');
});

test('names added in a batch whose answer was lost: the push closes that session and anchors again in a new one, and the held batch is refused when Graph runs it', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 6000 } });
  const id = await connectPeople(excel);
  excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/names/add' } });
  const zoe = call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zoe' } });
  await heldBack(excel, 'Graph holds the first names');
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
  assert.deepEqual(namesIn(excel), [...people, 'Zoe']);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
});

test('an appending push takes four HTTP requests to Graph, its names inside its two batches: ten Graph requests when it lists the names (the first after a start), nine after', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  const push = async (name: string) => {
    excel.emulator.resetRequests();
    await post(excel, id, name);
    // The session is closed once the answer is out.
    const closed = () => excel.emulator.requests().some((r) => r.path.endsWith('/closeSession'));
    for (let i = 0; i < 200 && !closed(); i++) await new Promise((r) => setTimeout(r, 10));
    const workbook = excel.emulator
      .requests()
      .filter((r) => r.kind !== 'login' && !/\/items\/[^/]+$/.test(r.path));
    const http = workbook.filter((r) => r.batchRequestId === undefined);
    const graph = workbook.filter((r) => r.kind !== 'batch');
    return {
      http: http.map((r) => `${r.method} ${r.path.replace(/^.*\/workbook\//, '')}`),
      graph: graph.length,
    };
  };
  assert.deepEqual(await push('Zoe'), {
    http: ['POST createSession', 'POST /v1.0/$batch', 'POST /v1.0/$batch', 'POST closeSession'],
    graph: 10,
  });
  assert.deepEqual(await push('Ivy'), {
    http: ['POST createSession', 'POST /v1.0/$batch', 'POST /v1.0/$batch', 'POST closeSession'],
    graph: 9,
  });
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), []);
});

test('a worksheet renamed since the sheet last read it: Graph refuses the names, whose reference names the worksheet, and the append goes without them, below the last row', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  excel.emulator.renameWorksheet(excel.ref, 'People', 'Folks');
  await post(excel, id, 'Nia');
  const adds = excel.emulator.requests().filter((r) => r.path.endsWith('/names/add'));
  assert.deepEqual(
    adds.map((r) => r.status),
    [400],
    'the first name was refused (the second, depending on it, not run)',
  );
  assert.deepEqual(namesIn(excel, 'Folks'), [...people, 'Nia']);
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'Folks'), []);
});

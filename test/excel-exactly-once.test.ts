/**
 * Each claim the Excel push makes where Graph has no atomic batch (see excel-push.ts), checked
 * on the worksheet afterwards: a lost answer, a late apply, a person's edit between the push's
 * read and its write, a non-contiguous delete cut off mid-way. The checks are on the data.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '../src/cells/cell.ts';
import { Problem } from '../src/errors/problem.ts';
import { excelSetup, pushOnPeople, type ExcelSetup } from './helpers/excel.ts';

const appendZoe = [{ kind: 'append' as const, rows: [['Zoe', 19, true]] as Cell[][] }];
const deleteAnnKimMax = [{ kind: 'delete' as const, positions: [0, 2, 4], before: [] as Cell[][] }];
/** A range PATCH: at an address, or (an append) at one of its names. */
const patch = { method: 'PATCH', path: '/range' };
/** An append is one `$batch`: the rows inserted, then written (the one after its names are added). */
const appendRequest = { only: 'batch' as const, holding: '/insert' };
const deletes = { method: 'POST', path: '/delete' };

/**
 * Runs `then` once both requests of the next append (its insert and its write) ran: after the
 * two names that anchor it are added, the insert and the write.
 */
function afterAppend(setup: ExcelSetup, then: () => void, writes = 4): void {
  setup.emulator.afterNext('write', () =>
    writes > 1 ? afterAppend(setup, then, writes - 1) : then(),
  );
}

test('a lost answer after the write applied: the push lands once, the row is not doubled', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: appendRequest });
  const { outcome } = await pushOnPeople(setup, appendZoe);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe']);
  const inserts = setup.emulator.requests().filter((r) => r.path.endsWith('/insert'));
  assert.equal(inserts.length, 1, 'the write is not sent again once the read-back shows it landed');
});

test('a write applied late, after Sheetport gave up on it: refused, because its session was closed first', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { mode: 'late', match: appendRequest });
  const { outcome } = await pushOnPeople(setup, appendZoe);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  assert.equal(setup.emulator.heldCount, 1, 'the first attempt is still held by Graph');
  const heldAt = Date.now();
  setup.emulator.applyHeld();
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe']);
  // The requests inside the held batch, logged when it ran.
  const inside = setup.emulator
    .requests()
    .filter((r) => r.batchRequestId !== undefined && r.at >= heldAt);
  // Its insert ran and was refused; its write, depending on it, did not run.
  assert.equal(inside.length, 1, 'its insert ran');
  assert.ok(
    inside.every((r) => !r.applied),
    'the held attempt was refused when it ran',
  );
  const closed = setup.emulator.sessions(setup.ref).filter((s) => s.closed);
  assert.ok(
    inside.every((r) => closed.some((s) => s.id === r.sessionId)),
    'its session was closed',
  );
});

test('a person inserts a row between the read the writes were planned on and the push: nothing is written, the push goes back with the worksheet as it is', async (t) => {
  const setup = await excelSetup(t);
  const planned = (await pushOnPeople(setup, [])).outcome;
  assert.equal(planned.landed, true);
  setup.emulator.insertRows(setup.ref, 'People', 3, [['New', 1, false]]);
  const expected: Cell[][] = [
    ['Ann', 31, true],
    ['Bob', 27, false],
    ['Kim', 40, true],
    ['Lee', 22, false],
    ['Max', 50, true],
  ];
  const update = {
    kind: 'update' as const,
    positions: [2],
    cells: new Map<number, Cell>([[1, 41]]),
    before: [['Kim', 40, true]] as Cell[][],
    after: [['Kim', 41, true]] as Cell[][],
  };
  const { outcome } = await pushOnPeople(setup, [update], { expected });
  assert.equal(outcome.landed, false);
  assert.ok(!outcome.landed && outcome.mayLand === false);
  assert.deepEqual(!outcome.landed && outcome.table.rows.map((row) => row[0]), [
    'Ann',
    'New',
    'Bob',
    'Kim',
    'Lee',
    'Max',
  ]);
  const ages = setup.emulator.values(setup.ref, 'People').map((row) => row[1]);
  assert.deepEqual(ages, ['age', 31, 1, 27, 40, 22, 50], 'nothing written on the moved rows');
});

test('a person inserts a row while the write waits after a 429: the write is not sent on the moved rows', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { status: 429, retryAfterSeconds: 0, match: patch });
  // Right after Graph refuses the write, before Sheetport tries again.
  setup.emulator.afterNext('write', () =>
    setup.emulator.insertRows(setup.ref, 'People', 2, [['Top', 0, false]]),
  );
  const update = {
    kind: 'update' as const,
    positions: [2],
    cells: new Map<number, Cell>([[1, 41]]),
    before: [['Kim', 40, true]] as Cell[][],
    after: [['Kim', 41, true]] as Cell[][],
  };
  const { outcome } = await pushOnPeople(setup, [update]);
  assert.equal(outcome.landed, false, 'planned again on the worksheet as it is');
  assert.ok(!outcome.landed && !outcome.mayLand, 'and nothing of it can land later');
  const ages = setup.emulator.values(setup.ref, 'People').map((row) => row[1]);
  assert.deepEqual(ages, ['age', 0, 31, 27, 40, 22, 50]);
});

test('a delete of three non-adjacent rows whose batch answer is lost after it applied: completes exactly once', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: { only: 'batch' } });
  const { outcome } = await pushOnPeople(setup, deleteAnnKimMax);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Bob', 'Lee']);
  const sent = setup.emulator.requests().filter((r) => r.path.endsWith('/delete'));
  assert.equal(sent.length, 3, `each range deleted once: ${sent.map((r) => r.path).join(', ')}`);
});

test('a delete of three non-adjacent rows whose second range applied but answered 503 inside the batch: the third is sent alone, each once', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, {
    when: 'after',
    status: 503,
    retryAfterSeconds: 0,
    match: { ...deletes, path: "range(address='4:4')" },
  });
  const { outcome } = await pushOnPeople(setup, deleteAnnKimMax);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Bob', 'Lee']);
  const sent = setup.emulator.requests().filter((r) => r.path.endsWith('/delete'));
  assert.deepEqual(
    sent.map((r) => [r.path.slice(r.path.indexOf('range')), r.status]),
    [
      ["range(address='6:6')/delete", 204],
      ["range(address='4:4')/delete", 503],
      // The first batch's third request was answered 424 without running (not logged as run).
      ["range(address='2:2')/delete", 204],
    ],
  );
  assert.equal(sent.filter((r) => r.applied).length, 3, 'each range deleted once');
});

test('a delete whose second range is refused by a 503 before it applied: sent again, completes exactly once', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, {
    when: 'before',
    status: 503,
    retryAfterSeconds: 0,
    match: { ...deletes, path: "range(address='4:4')" },
  });
  const { outcome } = await pushOnPeople(setup, deleteAnnKimMax);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Bob', 'Lee']);
});

test('a lost answer and a person editing a row the push did not write: the push is found landed, once', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: appendRequest });
  afterAppend(setup, () => setup.emulator.setCells(setup.ref, 'People', 'A2', [['Anna']]));
  const { outcome } = await pushOnPeople(setup, appendZoe);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Anna', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe'], 'written once');
});

test('a lost answer and a person editing the very cells the push wrote: the outcome is unknown, never guessed', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: appendRequest });
  afterAppend(setup, () => setup.emulator.setCells(setup.ref, 'People', 'A7', [['Zoey']]));
  await assert.rejects(pushOnPeople(setup, appendZoe), (error: unknown) => {
    assert.ok(error instanceof Problem);
    assert.equal(error.code, 'upstream-outcome-unknown');
    assert.doesNotMatch(
      error.detail,
      /nothing was changed/,
      'the detail does not contradict itself',
    );
    return true;
  });
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(
    names,
    ['name', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoey'],
    'written once, not again',
  );
});

test('a lost answer and Graph unreachable until the deadline: 504, then settling closes the session and finds the push landed', async (t) => {
  const setup = await excelSetup(t, { settings: { deadlineMs: 1500 } });
  const { sheet } = await pushOnPeople(setup, []);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: appendRequest });
  afterAppend(setup, () =>
    setup.emulator.failNext(1000, { status: 503, match: { only: 'reads' } }),
  );
  const lost = pushOnPeople(setup, appendZoe, { tag: 9, deadlineMs: 1500 });
  await assert.rejects(lost, (error: unknown) => {
    assert.ok(error instanceof Problem);
    assert.equal(error.code, 'upstream-outcome-unknown');
    return true;
  });
  setup.emulator.clearFaults();
  assert.equal(await setup.excel.settle(sheet, 9, Date.now() + 5000), 'plan-1');
  const names = setup.emulator.values(setup.ref, 'People').map((row) => row[0]);
  assert.deepEqual(names, ['name', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe']);
});

test('a push whose one write may have landed, its cells edited since: every settle answers that write unknown, and closes every session', async (t) => {
  const setup = await excelSetup(t);
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: appendRequest });
  afterAppend(setup, () => setup.emulator.setCells(setup.ref, 'People', 'A7', [['Zoey']]));
  const { sheet } = await pushOnPeople(setup, []);
  await assert.rejects(pushOnPeople(setup, appendZoe, { tag: 11 }));
  const unknown = { plan: 'plan-1', missed: [], partly: ['#0'] };
  assert.deepEqual(await setup.excel.settle(sheet, 11, Date.now() + 5000), unknown);
  assert.ok(
    setup.emulator.sessions(setup.ref).every((session) => session.closed),
    'every session of the push is closed',
  );
});

test('a formula that follows the written cells does not turn a lost answer into an unknown outcome', async (t) => {
  const rows = [
    ['name', 'age', 'double'],
    ['Ann', 31, { formula: '=B2*2' }],
    ['Bob', 27, { formula: '=B3*2' }],
    ['Kim', 40, { formula: '=B4*2' }],
  ];
  const setup = await excelSetup(t, { rows });
  setup.emulator.failNext(1, { when: 'after', mode: 'reset', match: patch });
  const update = {
    kind: 'update' as const,
    positions: [2],
    cells: new Map<number, Cell>([[1, 41]]),
    before: [['Kim', 40, 80]] as Cell[][],
    after: [['Kim', 41, 80]] as Cell[][],
  };
  const { outcome } = await pushOnPeople(setup, [update]);
  assert.deepEqual(outcome, { landed: true, plan: 'plan-1' });
  assert.deepEqual(
    setup.emulator.values(setup.ref, 'People').map((row) => row[2]),
    ['double', 62, 54, 82],
  );
  const writes = setup.emulator.requests().filter((r) => r.method === 'PATCH');
  assert.equal(writes.length, 1, 'not sent again: the read-back showed it landed');
});

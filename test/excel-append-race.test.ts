/**
 * An append to an Excel worksheet while a person inserts rows above it: Graph cannot make a write
 * conditional on what the worksheet holds, but Excel moves a defined name with the cells it
 * refers to, so the append is inserted and written where its names are when Graph applies it.
 * Checked on the worksheet: every row the person and the clients wrote is there once, in order,
 * the append at the end, whenever Graph applies it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '../src/cells/cell.ts';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, excelSetup, sheetOf } from './helpers/excel.ts';
import type { ExcelSource } from '../src/providers/excel/excel-source.ts';

const names = (rows: (string | number | boolean)[][]) => rows.slice(1).map((row) => row[0]);

test('a person inserts a row above while Graph holds the append and applies it before Sheetport gives up: the append lands at the end, each row once, and is found landed', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 4000 }, app: { cacheSize: 0 } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  // Graph holds the request that carries the append, whatever its shape.
  excel.emulator.failNext(1, { mode: 'late', match: { method: 'PATCH' } });
  excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/insert' } });
  const answer = call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zoe', age: 19, member: true },
    headers: { 'idempotency-key': '"zoe"' },
  });
  for (let i = 0; i < 300 && excel.emulator.heldCount === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(excel.emulator.heldCount, 1, 'Graph holds the append');
  excel.emulator.clearFaults();
  // The person's row moves every row down by one, Max onto the row the append was planned for.
  excel.emulator.insertRows(excel.ref, 'People', 2, [['Top', 0, false]]);
  // Graph applies the held request now, in its session, still open.
  assert.equal(excel.emulator.applyHeld(), 1);
  const answered = await answer;
  // Its answer was lost: the read-back finds Zoe's row, below Max, where the names had moved.
  assert.equal(answered.status, 201, answered.text);
  const sheet = excel.emulator.values(excel.ref, 'People');
  assert.deepEqual(
    names(sheet),
    ['Top', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe'],
    'the append at the end: no row written over, none doubled, none misplaced',
  );
  assert.deepEqual(excel.emulator.definedNames(excel.ref, 'People'), [], 'no name left');
  const ages = Object.fromEntries(sheet.slice(1).map((row) => [row[0], row[1]]));
  assert.equal(ages['Max'], 50, "Max's cells are Max's");
  assert.equal(ages['Zoe'], 19);
  // A retry with the same key never adds Zoe a second time.
  const retry = await call(`${excel.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zoe', age: 19, member: true },
    headers: { 'idempotency-key': '"zoe"' },
  });
  assert.equal(retry.status, 201, retry.text);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  const after = names(excel.emulator.values(excel.ref, 'People'));
  assert.equal(after.filter((name) => name === 'Zoe').length, 1, 'Zoe is in once');
  const refreshed = await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.ok(refreshed.status < 300, refreshed.text);
  const { api, sheet: rows } = await bothSides(excel, id);
  assert.deepEqual(api, rows, 'the copy is the worksheet once read again');
});

test('a person inserts a row between the push reading the worksheet in its session and its append: the append lands at the end', async (t) => {
  const setup = await excelSetup(t);
  const table = await setup.excel.connect({
    document: `${setup.ref.driveId}/${setup.ref.itemId}`,
    tab: 'People',
  });
  const sheet = sheetOf(table.source as ExcelSource, table.columns);
  // Right after the push's read in its own session, before its write is sent: the third read,
  // after creating the session, the worksheet read and, beside it in the same batch, the
  // workbook's names listed (the first push since the start looks for names a failure left).
  setup.emulator.afterNext('read', () =>
    setup.emulator.afterNext('read', () =>
      setup.emulator.afterNext('read', () =>
        setup.emulator.insertRows(setup.ref, 'People', 2, [['Top', 0, false]]),
      ),
    ),
  );
  const outcome = await setup.excel.push(
    sheet,
    [{ kind: 'append', rows: [['Zoe', 19, true]] as Cell[][] }],
    {
      tag: 7,
      plan: 'plan-1',
      earlier: [],
      expected: { columns: table.columns, rows: table.rows },
      positional: true,
      deadline: Date.now() + setup.settings.deadlineMs,
      tags: new Map(),
    },
  );
  assert.equal(outcome.landed, true);
  const rows = setup.emulator.values(setup.ref, 'People').slice(1);
  assert.deepEqual(
    rows.map((row) => row[0]),
    ['Top', 'Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Zoe'],
    'no row written over, the append at the end',
  );
  assert.deepEqual(setup.emulator.definedNames(setup.ref, 'People'), [], 'no name left');
  const max = rows.find((row) => row[0] === 'Max');
  assert.deepEqual(max, ['Max', 50, true], "Max's cells are Max's");
});

/**
 * What an Excel push's session read guarantees: the push opens its workbook session, reads the
 * worksheet in it, and sends nothing unless the worksheet still holds the rows its writes were
 * planned on; else the writes are planned again on what that read found. So a person's edit made
 * before that read (even after the session opened) is seen, and the write lands on the row it
 * chose; an edit after it, before the first write of the session, is not (one request's window,
 * which docs/excel.md states).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import {
  bothSides,
  connectPeople,
  excelApp,
  patchKimWhileInserting,
  type ExcelApp,
} from './helpers/excel.ts';

/**
 * Runs `edit` right after the push opens its session: the check before the push is one Graph
 * request (the workbook's cTag, unchanged), then `createSession`, then the read in the session.
 */
function afterSessionOpens(excel: ExcelApp, edit: () => void): void {
  excel.emulator.afterNext('read', () => excel.emulator.afterNext('read', edit));
}

type Row = Record<string, unknown>;

/** [name, age] of each row, as the API serves them and as the worksheet holds them. */
async function names(excel: ExcelApp, id: string): Promise<unknown[][][]> {
  const { api, sheet } = await bothSides(excel, id);
  return [api as Row[], sheet].map((rows) => rows.map((row) => [row.name, row.age]));
}

test('a person inserts a row above the target after the push opened its session, before its read: the update lands on the row it chose', async (t) => {
  const { excel, id, answer } = await patchKimWhileInserting(t, afterSessionOpens);
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  const expected = [
    ['Ann', 31],
    ['New', 1],
    ['Bob', 27],
    ['Kim', 41],
    ['Lee', 22],
    ['Max', 50],
  ];
  assert.deepEqual(await names(excel, id), [expected, expected]);
});

test('a person inserts a row above the target after the push opened its session, before its read: a DELETE by filter removes the row it chose', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  afterSessionOpens(excel, () =>
    excel.emulator.insertRows(excel.ref, 'People', 2, [['Top', 0, false]]),
  );
  const answer = await call(`${excel.url}/api/v1/${id}?name=Lee`, { method: 'DELETE' });
  assert.deepEqual(answer.body, { deleted: 1 }, answer.text);
  const expected = [
    ['Top', 0],
    ['Ann', 31],
    ['Bob', 27],
    ['Kim', 40],
    ['Max', 50],
  ];
  assert.deepEqual(await names(excel, id), [expected, expected]);
});

test('what the session read does not cover: a row inserted after that read, before the first write, moves the update onto the row that now sits there', async (t) => {
  const { excel, id, answer } = await patchKimWhileInserting(t, (excel, insert) =>
    afterSessionOpens(excel, () => excel.emulator.afterNext('read', insert)),
  );
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  await call(`${excel.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  const [, sheet] = await names(excel, id);
  // Kim's position as read holds Bob now: Bob took the update, Kim kept 40.
  assert.deepEqual(sheet, [
    ['Ann', 31],
    ['New', 1],
    ['Bob', 41],
    ['Kim', 40],
    ['Lee', 22],
    ['Max', 50],
  ]);
});

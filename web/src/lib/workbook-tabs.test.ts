import { readFile } from 'node:fs/promises';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { workbookTabs } from './workbook-tabs.ts';

const fixture = async (name: string) =>
  new Blob([await readFile(new URL(`../../../test/fixtures/${name}`, import.meta.url))]);

test('lists the worksheets of a workbook in order', async () => {
  assert.deepEqual(await workbookTabs(await fixture('workbook.xlsx')), ['Staff', 'Budget']);
});

test('lists the worksheets of a workbook LibreOffice wrote, empty or not', async () => {
  assert.deepEqual(await workbookTabs(await fixture('libreoffice.xlsx')), [
    'Times',
    'Kept',
    'Notes',
  ]);
});

test('tab names keep the characters XML escapes', async () => {
  const workbook = new ExcelJS.Workbook();
  for (const name of ['R&D <2025>', 'Ann\'s "list"', 'Ünïcode']) workbook.addWorksheet(name);
  const buffer = await workbook.xlsx.writeBuffer();
  assert.deepEqual(await workbookTabs(new Blob([buffer])), [
    'R&D <2025>',
    'Ann\'s "list"',
    'Ünïcode',
  ]);
});

test('a file that is not a zip archive is refused', async () => {
  await assert.rejects(workbookTabs(await fixture('people.csv')), /not a zip archive/);
});

test('an archive cut short is refused', async () => {
  await assert.rejects(workbookTabs(await fixture('corrupt.xlsx')));
});

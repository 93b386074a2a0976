import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import {
  textCell,
  workbookEntries,
  worksheetXml,
  zipArchive,
  zipEntry,
} from '../../test/helpers/zip-writer.ts';
import { DateCell, type Cell } from '../cells/cell.ts';
import { readXlsx } from './xlsx-file.ts';

const bounds = { maxUnzippedBytes: 1_048_576, maxCells: 100_000, maxColumns: 50 };

/** Style 1 a date, 2 a date-time, 3 a time, 4 a percentage; style 0 given a date, unused. */
const styles =
  '<styleSheet><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd\\ hh:mm"/></numFmts>' +
  '<cellXfs count="5"><xf numFmtId="14"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="21"/><xf numFmtId="9"/></cellXfs></styleSheet>';
const sharedStrings =
  '<sst><si><t>plain</t></si><si><r><rPr><b/></rPr><t>bold</t></r><r><t xml:space="preserve"> and not</t></r></si>' +
  '<si><t>line_x000D_break</t><rPh><t>phonetic</t></rPh></si><si><t/></si></sst>';

/** One row per case: the cell's XML in column A, and what the sheet reads there. */
const cases: [string, Cell][] = [
  ['<c r="A{r}"><v>42.5</v></c>', 42.5],
  ['<c r="A{r}" t="s"><v>0</v></c>', 'plain'],
  ['<c r="A{r}" t="s"><v>1</v></c>', 'bold and not'],
  ['<c r="A{r}" t="s"><v>2</v></c>', 'line\rbreak'],
  ['<c r="A{r}" t="s"><v>3</v></c>', null],
  ['<c r="A{r}" t="inlineStr"><is><t>inline &amp; kept</t></is></c>', 'inline & kept'],
  ['<c r="A{r}" t="inlineStr"><is><r><t>ri</t></r><r><t>ch_x0041_</t></r></is></c>', 'richA'],
  ['<c r="A{r}" t="b"><v>1</v></c>', true],
  ['<c r="A{r}" t="b"><v>0</v></c>', false],
  ['<c r="A{r}" t="e"><v>#DIV/0!</v></c>', '#DIV/0!'],
  ['<c r="A{r}"><f>1+1</f><v>2</v></c>', 2],
  ['<c r="A{r}" t="str"><f>"a"&amp;"b"</f><v>ab</v></c>', 'ab'],
  ['<c r="A{r}" t="e"><f>1/0</f><v>#DIV/0!</v></c>', '#DIV/0!'],
  ['<c r="A{r}" t="b"><f>TRUE()</f><v>1</v></c>', true],
  ['<c r="A{r}"><f t="shared" si="0"/><v>7</v></c>', 7],
  ['<c r="A{r}"><f>NOW()</f></c>', null],
  ['<c r="A{r}" s="1"><v>46054</v></c>', new DateCell('2026-02-01')],
  ['<c r="A{r}" s="2"><v>46054.5868055556</v></c>', new DateCell('2026-02-01T14:05:00')],
  ['<c r="A{r}" s="3"><v>0.395833333333333</v></c>', new DateCell('09:30:00')],
  ['<c r="A{r}" s="1"><f>TODAY()</f><v>46054</v></c>', new DateCell('2026-02-01')],
  ['<c r="A{r}" s="4"><v>0.25</v></c>', 0.25],
  ['<c r="A{r}" s="0"><v>46054</v></c>', 46054],
  ['<c r="A{r}" s="1"/>', null],
  ['<c r="A{r}"><v></v></c>', null],
  ['<c r="A{r}"><v>-1E-3</v></c>', -0.001],
];

async function workbookFile(t: TestContext, entries: ReturnType<typeof workbookEntries>) {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-worksheet-rows-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'book.xlsx');
  await writeFile(path, zipArchive(entries));
  return path;
}

async function rowsOf(path: string): Promise<{ columns: string[]; rows: Cell[][] }> {
  const file = await readXlsx(path, undefined, bounds);
  const rows: Cell[][] = [];
  for await (const chunk of file.rows) rows.push(...chunk);
  return { columns: file.columns, rows };
}

test('each kind of cell reads as a spreadsheet shows it, shared strings and styles coming after the sheet in the archive', async (t) => {
  const data = cases
    .map(([cell], i) => `<row r="${i + 2}">${cell.replaceAll('{r}', String(i + 2))}</row>`)
    .join('');
  const path = await workbookFile(t, [
    // The worksheet first, as streaming writers put it: its rows need the parts after it.
    ...workbookEntries(worksheetXml(`<row r="1">${textCell('A1', 'value')}</row>${data}`)),
    zipEntry('xl/styles.xml', styles),
    zipEntry('xl/sharedStrings.xml', sharedStrings),
  ]);
  const { columns, rows } = await rowsOf(path);
  assert.deepEqual(columns, ['value']);
  assert.equal(rows.length, cases.length);
  cases.forEach(([cell, want], i) => assert.deepEqual(rows[i], [want], cell));
});

test('a merged range reads its top-left cell only, whatever the others hold', async (t) => {
  const sheet = worksheetXml(
    `<row r="1">${textCell('A1', 'a')}${textCell('B1', 'b')}</row>` +
      `<row r="2">${textCell('A2', 'kept')}${textCell('B2', 'hidden')}</row>` +
      `<row r="3">${textCell('A3', 'top')}<c r="B3"><v>7</v></c></row>` +
      `<row r="4">${textCell('A4', 'hidden too')}<c r="B4"><v>3</v></c></row>`,
  ).replace(
    '</sheetData>',
    '</sheetData><mergeCells count="2"><mergeCell ref="A2:B2"/><mergeCell ref="A3:A4"/></mergeCells>',
  );
  assert.deepEqual(await rowsOf(await workbookFile(t, workbookEntries(sheet))), {
    columns: ['a', 'b'],
    rows: [
      ['kept', null],
      ['top', 7],
      [null, 3],
    ],
  });
});

test("a prefix on SpreadsheetML's elements changes nothing", async (t) => {
  const prefixed = worksheetXml(
    '<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>n</x:t></x:is></x:c></x:row><x:row r="2"><x:c r="A2"><x:v>5</x:v></x:c></x:row>',
  ).replace('<worksheet xmlns=', '<worksheet xmlns:x=');
  assert.deepEqual(await rowsOf(await workbookFile(t, workbookEntries(prefixed))), {
    columns: ['n'],
    rows: [[5]],
  });
});

test('rows listed out of order are refused as a damaged workbook, since rows are read as they come', async (t) => {
  const sheet = worksheetXml(
    `<row r="1">${textCell('A1', 'n')}</row><row r="3"><c r="A3"><v>3</v></c></row><row r="2"><c r="A2"><v>2</v></c></row>`,
  );
  await assert.rejects(rowsOf(await workbookFile(t, workbookEntries(sheet))), {
    code: 'invalid-upload',
    detail: 'The XLSX file could not be read: tab "Sheet" lists row 2 after row 3.',
  });
});

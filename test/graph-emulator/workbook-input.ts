/**
 * Building workbooks from a test's description, and the cells a test reads back. A string given
 * here is kept as text exactly (as typed after `'`); `typeCells` is the person typing instead.
 */
import { parseAddress, type Box } from './a1.ts';
import { GENERAL, jsonValue, type Cell } from './cell.ts';
import { worksheetId, type Workbook } from './drive.ts';
import { formatText } from './number-format.ts';
import { written } from './range-write.ts';
import { cellValue, getCell, putCell, usedBox, type Worksheet } from './worksheet.ts';

export type CellInput =
  | string
  | number
  | boolean
  | null
  | { value?: string | number | boolean; formula?: string; numberFormat?: string };

export interface WorksheetInput {
  name: string;
  /** Rows of cells from `at` (default `A1`); null leaves a cell empty. */
  rows?: CellInput[][];
  at?: string;
  visibility?: 'Visible' | 'Hidden';
}

/** A cell as a test reads it back: `value` as Graph's `values` shows it. */
export interface CellView {
  value: number | string | boolean;
  formula?: string;
  numberFormat: string;
  text: string;
}

export function newWorkbook(inputs: WorksheetInput[]): Workbook {
  if (inputs.length === 0) throw new Error('A workbook needs at least one worksheet');
  const workbook: Workbook = { worksheets: [], sheetsAdded: 0 };
  for (const input of inputs) addWorksheet(workbook, input);
  return workbook;
}

export function addWorksheet(workbook: Workbook, input: WorksheetInput): Worksheet {
  const taken = workbook.worksheets.some((s) => s.name.toLowerCase() === input.name.toLowerCase());
  if (taken) throw new Error(`Worksheet ${input.name} already exists`);
  workbook.sheetsAdded++;
  const sheet: Worksheet = {
    id: worksheetId(workbook.sheetsAdded),
    name: input.name,
    visibility: input.visibility ?? 'Visible',
    cells: new Map(),
  };
  workbook.worksheets.push(sheet);
  if (input.rows) setCells(sheet, input.at ?? 'A1', input.rows);
  return sheet;
}

export function cellOf(input: Exclude<CellInput, null>, current: Cell): Cell {
  if (typeof input !== 'object') return { value: input, numberFormat: current.numberFormat };
  const numberFormat = input.numberFormat ?? current.numberFormat;
  if (input.formula !== undefined) return written({ value: '', numberFormat }, input.formula);
  return { value: input.value ?? '', numberFormat };
}

export function anchor(a1: string): { row: number; column: number } {
  const box = parseAddress(a1)?.box;
  if (!box) throw new Error(`Not a cell address: ${a1}`);
  return { row: box.startRow, column: box.startColumn };
}

export function setCells(sheet: Worksheet, a1: string, rows: CellInput[][]): void {
  const { row, column } = anchor(a1);
  rows.forEach((cells, r) =>
    cells.forEach((input, c) => {
      const current = getCell(sheet, row + r, column + c);
      const cell: Cell =
        input === null ? { value: '', numberFormat: current.numberFormat } : cellOf(input, current);
      putCell(sheet, row + r, column + c, cell);
    }),
  );
}

export function typeCells(sheet: Worksheet, a1: string, rows: string[][]): void {
  const { row, column } = anchor(a1);
  rows.forEach((cells, r) =>
    cells.forEach((text, c) => {
      const [rr, cc] = [row + r, column + c];
      putCell(sheet, rr, cc, written(getCell(sheet, rr, cc), text));
    }),
  );
}

/** The values from A1 to the last used cell, `""` for empty ones, as Graph's `values` has them. */
export function valuesOf(sheet: Worksheet): (number | string | boolean)[][] {
  const used = usedBox(sheet, true);
  if (!used) return [];
  const box: Box = { startRow: 0, endRow: used.endRow, startColumn: 0, endColumn: used.endColumn };
  return Array.from({ length: box.endRow }, (_, r) =>
    Array.from({ length: box.endColumn }, (_, c) => jsonValue(cellValue(sheet, r, c))),
  );
}

export function viewCell(sheet: Worksheet, a1: string): CellView {
  const { row, column } = anchor(a1);
  const cell = getCell(sheet, row, column);
  const value = cellValue(sheet, row, column);
  return {
    value: jsonValue(value),
    ...(cell.formula === undefined ? {} : { formula: cell.formula }),
    numberFormat: cell.numberFormat ?? GENERAL,
    text: formatText(value, cell.numberFormat),
  };
}

/**
 * A worksheet's cells, kept sparse by position, and what Excel does to them: read a box as Graph's
 * range object, shift cells down or up, clear, and find the used range.
 */
import { formatAddress, MAX_COLUMNS, type Box } from './a1.ts';
import { emptyCell, isUsed, jsonValue, valueType, type Cell, type Scalar } from './cell.ts';
import { evaluate } from './formula.ts';
import { namesAfterDelete, namesAfterInsert, namesAfterMove, type DefinedName } from './names.ts';
import { formatText } from './number-format.ts';

export interface Worksheet {
  /** `{00000000-0001-0000-0000-000000000000}`, as Excel Online numbers its sheets. */
  id: string;
  name: string;
  visibility: 'Visible' | 'Hidden';
  /** Keyed by `row * MAX_COLUMNS + column`, both 0-based. */
  cells: Map<number, Cell>;
  /** The workbook's defined names that refer to this worksheet's cells. */
  names?: DefinedName[];
}

const key = (row: number, column: number): number => row * MAX_COLUMNS + column;
const position = (k: number) => ({ row: Math.floor(k / MAX_COLUMNS), column: k % MAX_COLUMNS });

export const getCell = (sheet: Worksheet, row: number, column: number): Cell =>
  sheet.cells.get(key(row, column)) ?? emptyCell;

export function putCell(sheet: Worksheet, row: number, column: number, cell: Cell): void {
  if (
    cell.value === '' &&
    cell.formula === undefined &&
    cell.numberFormat === emptyCell.numberFormat
  ) {
    sheet.cells.delete(key(row, column));
  } else {
    sheet.cells.set(key(row, column), cell);
  }
}

export const copySheet = (sheet: Worksheet): Worksheet => ({
  ...sheet,
  cells: new Map(sheet.cells),
  names: (sheet.names ?? []).map((defined) => ({ ...defined })),
});

/** The value a cell shows: its constant, or its formula worked out on the sheet as it is now. */
export function cellValue(sheet: Worksheet, row: number, column: number, depth = 0): Scalar {
  const cell = getCell(sheet, row, column);
  if (cell.formula === undefined) return cell.value;
  // A circular reference: Excel warns and shows 0.
  if (depth > 100) return 0;
  return evaluate(cell.formula, (r, c) => cellValue(sheet, r, c, depth + 1));
}

/** The smallest box holding every used cell (of some columns), or undefined when there is none. */
export function usedBox(
  sheet: Worksheet,
  valuesOnly: boolean,
  fromColumn = 0,
  toColumn = MAX_COLUMNS,
): Box | undefined {
  let box: Box | undefined;
  for (const [k, cell] of sheet.cells) {
    if (!isUsed(cell, valuesOnly)) continue;
    const { row, column } = position(k);
    if (column < fromColumn || column >= toColumn) continue;
    box = box
      ? {
          startRow: Math.min(box.startRow, row),
          endRow: Math.max(box.endRow, row + 1),
          startColumn: Math.min(box.startColumn, column),
          endColumn: Math.max(box.endColumn, column + 1),
        }
      : { startRow: row, endRow: row + 1, startColumn: column, endColumn: column + 1 };
  }
  return box;
}

/** Graph's workbookRange resource for a box of the sheet. */
export function rangeResource(sheet: Worksheet, box: Box) {
  const grid = <T>(cell: (row: number, column: number) => T): T[][] =>
    Array.from({ length: box.endRow - box.startRow }, (_, r) =>
      Array.from({ length: box.endColumn - box.startColumn }, (_, c) =>
        cell(box.startRow + r, box.startColumn + c),
      ),
    );
  const values = grid((r, c) => cellValue(sheet, r, c));
  const address = formatAddress(sheet.name, box);
  const rowCount = box.endRow - box.startRow;
  const columnCount = box.endColumn - box.startColumn;
  return {
    address,
    addressLocal: address,
    cellCount: rowCount * columnCount,
    columnCount,
    columnIndex: box.startColumn,
    rowCount,
    rowIndex: box.startRow,
    columnHidden: false,
    rowHidden: false,
    hidden: false,
    values: values.map((row) => row.map(jsonValue)),
    text: grid((r, c) =>
      formatText(
        values[r - box.startRow]?.[c - box.startColumn] ?? '',
        getCell(sheet, r, c).numberFormat,
      ),
    ),
    formulas: grid((r, c) => getCell(sheet, r, c).formula ?? jsonValue(getCell(sheet, r, c).value)),
    numberFormat: grid((r, c) => getCell(sheet, r, c).numberFormat),
    valueTypes: values.map((row) => row.map(valueType)),
  };
}

export type RangeResource = ReturnType<typeof rangeResource>;

/** Moves every cell at or below `box` in its columns down by its height; the box becomes empty. */
export function insertDown(sheet: Worksheet, box: Box): void {
  const height = box.endRow - box.startRow;
  moveCells(sheet, box, (row) => (row >= box.startRow ? row + height : row));
  namesAfterInsert(sheet.names ?? [], box);
}

/** Drops the box's cells and moves the cells below it in its columns up by its height. */
export function deleteUp(sheet: Worksheet, box: Box): void {
  const height = box.endRow - box.startRow;
  moveCells(sheet, box, (row) =>
    row < box.startRow ? row : row < box.endRow ? undefined : row - height,
  );
  namesAfterDelete(sheet.names ?? [], box);
}

/** `Contents` keeps formats, `Formats` keeps contents, `All` keeps nothing. */
export function clearBox(
  sheet: Worksheet,
  box: Box,
  applyTo: 'All' | 'Contents' | 'Formats',
): void {
  for (const [k, cell] of [...sheet.cells]) {
    const { row, column } = position(k);
    if (!inBox(box, row, column)) continue;
    if (applyTo === 'All') sheet.cells.delete(k);
    else if (applyTo === 'Contents')
      putCell(sheet, row, column, { value: '', numberFormat: cell.numberFormat });
    else putCell(sheet, row, column, { ...cell, numberFormat: emptyCell.numberFormat });
  }
}

function moveCells(sheet: Worksheet, box: Box, move: (row: number) => number | undefined): void {
  const moved = new Map<number, Cell>();
  for (const [k, cell] of sheet.cells) {
    const { row, column } = position(k);
    const inColumns = column >= box.startColumn && column < box.endColumn;
    const to = inColumns ? move(row) : row;
    if (to !== undefined) moved.set(key(to, column), cell);
  }
  sheet.cells = moved;
}

const inBox = (box: Box, row: number, column: number): boolean =>
  row >= box.startRow && row < box.endRow && column >= box.startColumn && column < box.endColumn;

/** Row `from` taken out and put back so that it is row `to` afterwards (both 0-based). */
export function moveRow(sheet: Worksheet, from: number, target: number): void {
  const follow = (row: number): number => {
    if (row === from) return target;
    if (from < row && row <= target) return row - 1;
    if (target <= row && row < from) return row + 1;
    return row;
  };
  const moved = new Map<number, Cell>();
  for (const [k, cell] of sheet.cells) {
    const { row, column } = position(k);
    moved.set(key(follow(row), column), cell);
  }
  sheet.cells = moved;
  namesAfterMove(sheet.names ?? [], follow);
}

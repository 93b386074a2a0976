/**
 * A sheet's grid: its size (rowCount × columnCount, which the API reports and enforces) and its
 * cells, kept as sparse rows. Cells are never changed in place, so copying a tab for an atomic
 * batch only copies the row arrays.
 */
import type { Box } from './a1.ts';
import type { StoredCell } from './cells.ts';

export interface Tab {
  sheetId: number;
  title: string;
  rowCount: number;
  columnCount: number;
  rows: (StoredCell | undefined)[][];
}

/** Google's size for a new sheet. */
export const DEFAULT_ROW_COUNT = 1000;
export const DEFAULT_COLUMN_COUNT = 26;

export function cellAt(tab: Tab, row: number, column: number): StoredCell | undefined {
  return tab.rows[row]?.[column];
}

export function setCell(tab: Tab, row: number, column: number, cell: StoredCell | undefined): void {
  if (cell === undefined && tab.rows[row]?.[column] === undefined) return;
  const cells = (tab.rows[row] ??= []);
  cells[column] = cell;
}

export function copyTab(tab: Tab): Tab {
  return { ...tab, rows: tab.rows.map((cells) => (cells ? [...cells] : cells)) };
}

export const hasValue = (cell: StoredCell | undefined): boolean => cell?.entered !== undefined;
export const hasAnything = (cell: StoredCell | undefined): boolean => cell !== undefined;

/** Grows the grid so that it holds at least `rows` × `columns`, as appends do. */
export function growTo(tab: Tab, rows: number, columns: number): void {
  tab.rowCount = Math.max(tab.rowCount, rows);
  tab.columnCount = Math.max(tab.columnCount, columns);
}

export function insertRows(tab: Tab, at: number, count: number): void {
  if (at < tab.rows.length) tab.rows.splice(at, 0, ...Array.from({ length: count }, () => []));
  tab.rowCount += count;
}

export function deleteRows(tab: Tab, start: number, end: number): void {
  tab.rows.splice(start, end - start);
  tab.rowCount -= end - start;
}

/** Rows `start` to `end` (exclusive) moved before the row at `destination` (counted before). */
export function moveRows(tab: Tab, start: number, end: number, destination: number): void {
  if (destination >= start && destination <= end) return;
  while (tab.rows.length < Math.max(end, destination)) tab.rows.push([]);
  const moved = tab.rows.splice(start, end - start);
  const at = destination > start ? destination - moved.length : destination;
  tab.rows.splice(at, 0, ...moved);
}

export function insertColumns(tab: Tab, at: number, count: number): void {
  tab.rows = tab.rows.map((cells) => {
    if (!cells || at >= cells.length) return cells;
    const copy = [...cells];
    copy.splice(at, 0, ...Array.from({ length: count }, () => undefined));
    return copy;
  });
  tab.columnCount += count;
}

export function deleteColumns(tab: Tab, start: number, end: number): void {
  tab.rows = tab.rows.map((cells) => {
    if (!cells) return cells;
    const copy = [...cells];
    copy.splice(start, end - start);
    return copy;
  });
  tab.columnCount -= end - start;
}

/** The whole grid as a box. */
export const gridBox = (tab: Tab): Box => ({
  startRow: 0,
  endRow: tab.rowCount,
  startColumn: 0,
  endColumn: tab.columnCount,
});

/**
 * The cells of a box, row by row, with trailing empty rows and trailing empty cells of each row
 * left out, as the API leaves them out of its answers.
 */
export function trimmedRows(
  tab: Tab,
  box: Box,
  keep: (cell: StoredCell | undefined) => boolean,
): (StoredCell | undefined)[][] {
  const rows: (StoredCell | undefined)[][] = [];
  for (let r = box.startRow; r < Math.min(box.endRow, tab.rows.length); r++) {
    const cells: (StoredCell | undefined)[] = [];
    let last = -1;
    const limit = Math.min(box.endColumn, tab.rows[r]?.length ?? 0);
    for (let c = box.startColumn; c < limit; c++) {
      const cell = cellAt(tab, r, c);
      cells.push(cell);
      if (keep(cell)) last = cells.length - 1;
    }
    rows.push(cells.slice(0, last + 1));
  }
  while (rows.length > 0 && rows.at(-1)?.length === 0) rows.pop();
  return rows;
}

/** The row after the last one holding a value, anywhere in the sheet. */
export function endOfData(tab: Tab): number {
  for (let r = tab.rows.length - 1; r >= 0; r--) {
    if (tab.rows[r]?.some(hasValue)) return r + 1;
  }
  return 0;
}

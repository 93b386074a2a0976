import type { Cell } from '../cells/cell.ts';
import { checkRowWidth, columnsFromHeader } from '../files/header.ts';

/** A tab read as a grid of typed cells made a table; and tables compared, for the checks before a push. */

export const sameHeader = (a: string[], b: string[]) =>
  a.length === b.length && a.every((column, i) => column === b[i]);

/** Rows compared as the API shows them: a date and its text are the same cell here. */
export function sameRows(a: Cell[][], b: Cell[][]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/** The header row names the columns; rows below it are the sheet, without trailing empty rows. */
export function tableFromGrid(grid: Cell[][]): { columns: string[]; rows: Cell[][] } {
  const columns = columnsFromHeader(grid[0] ?? []);
  let end = grid.length;
  while (end > 1 && (grid[end - 1] ?? []).every((cell) => cell === null)) end--;
  const rows = grid.slice(1, end).map((row, i) => {
    checkRowWidth(row, columns.length, i + 2);
    return columns.map((_, index) => row[index] ?? null);
  });
  return { columns, rows };
}

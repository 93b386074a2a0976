import { cellAsText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';

/**
 * Which columns are text, by index: those declared (each must be a column of the file or sheet)
 * and those the file shows to hold codes.
 */
export function textColumnsOf(
  columns: string[],
  codeColumns: number[],
  declared: readonly string[],
): boolean[] {
  checkTextColumns(columns, declared);
  const text = columns.map((column) => declared.includes(column));
  for (const index of codeColumns) if (index < columns.length) text[index] = true;
  return text;
}

/** Refuses a declared text column that is not a column, naming the ones there are. */
export function checkTextColumns(columns: string[], declared: readonly string[]): void {
  const unknown = declared.find((column) => !columns.includes(column));
  if (unknown === undefined) return;
  throw new Problem(
    'unknown-column',
    `The text column "${unknown}" is not a column; the columns are ${columns.map((c) => `"${c}"`).join(', ')}.`,
    { column: unknown },
  );
}

/**
 * Puts the cells of the text columns of each row into text, in place: what `shown` says the
 * spreadsheet shows (by `row,column`), else the text the cell's value shows.
 */
export function rowsAsText(rows: Cell[][], text: boolean[], shown?: Map<string, string>): Cell[][] {
  if (!text.includes(true)) return rows;
  rows.forEach((row, r) => {
    for (let i = 0; i < row.length; i++) {
      if (text[i] !== true) continue;
      row[i] = shown?.get(`${r},${i}`) ?? cellAsText(row[i] ?? null);
    }
  });
  return rows;
}

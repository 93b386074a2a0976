/**
 * spreadsheets.values.append, with Google's table detection: the table is found at or below the
 * range's top row, and the rows go after it, from its first column.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import { formatRange, type Box } from './a1.ts';
import { cellAt, growTo, hasValue, insertRows } from './grid.ts';
import { enumOption, type JsonObject } from './json.ts';
import { resolveRange, type Book, type ResolvedRange } from './state.ts';
import { inputOption, inputRows, withUpdatedData, writeValues, type Read } from './values.ts';

const INSERT_OPTIONS = ['OVERWRITE', 'INSERT_ROWS'] as const;

/**
 * values.append: finds the table at or below the range's top row (its first row with a value in
 * the range's columns, down to the row before the next empty one, widened to the columns next to
 * it that hold values) and writes after it, from the table's first column.
 */
export function appendValues(
  book: Book,
  range: string,
  body: JsonObject,
  read: Read,
): sheets_v4.Schema$AppendValuesResponse {
  const input = inputOption(read('valueInputOption'));
  const insert = enumOption(
    read('insertDataOption'),
    INSERT_OPTIONS,
    'OVERWRITE',
    'insertDataOption',
  );
  const resolved = resolveRange(book, range);
  const { tab } = resolved;
  const table = findTable(resolved);
  const rows = inputRows(body, 'valueRange');
  const origin = table
    ? { row: table.endRow, column: table.startColumn }
    : { row: resolved.bounds.startRow ?? 0, column: resolved.bounds.startColumn ?? 0 };
  const width = Math.max(0, ...rows.map((row) => row.length));
  if (insert === 'INSERT_ROWS') insertRows(tab, Math.min(origin.row, tab.rowCount), rows.length);
  growTo(tab, origin.row + rows.length, origin.column + width);
  const written = writeValues(book, tab, origin, rows, input);
  const response: sheets_v4.Schema$AppendValuesResponse = { spreadsheetId: book.id };
  if (table) response.tableRange = formatRange(tab.title, table);
  response.updates = withUpdatedData(written, read);
  return response;
}

function findTable({ tab, bounds }: ResolvedRange): Box | undefined {
  const firstColumn = Math.min(bounds.startColumn ?? 0, tab.columnCount);
  const lastColumn = Math.min(bounds.endColumn ?? tab.columnCount, tab.columnCount);
  const rowHasValue = (r: number, from: number, to: number): boolean => {
    for (let c = from; c < to; c++) if (hasValue(cellAt(tab, r, c))) return true;
    return false;
  };
  let start = bounds.startRow ?? 0;
  while (start < tab.rows.length && !rowHasValue(start, firstColumn, lastColumn)) start++;
  if (start >= tab.rows.length) return undefined;
  let end = start + 1;
  while (end < tab.rows.length && rowHasValue(end, firstColumn, lastColumn)) end++;
  const columnHasValue = (c: number): boolean => {
    for (let r = start; r < end; r++) if (hasValue(cellAt(tab, r, c))) return true;
    return false;
  };
  let left = firstColumn;
  while (left < lastColumn && !columnHasValue(left)) left++;
  let right = lastColumn;
  while (right > left && !columnHasValue(right - 1)) right--;
  while (left > 0 && columnHasValue(left - 1)) left--;
  while (right < tab.columnCount && columnHasValue(right)) right++;
  return { startRow: start, endRow: end, startColumn: left, endColumn: right };
}

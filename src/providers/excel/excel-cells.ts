import { dateCell, DateCell, type Cell } from '../../cells/cell.ts';
import { formatShowsTime, isDateFormat } from '../../cells/number-format.ts';

/** A cell value as Graph carries it in a range's `values`. */
export type GraphValue = string | number | boolean | null;

/** Excel's number format that stores whatever is written as text, exactly. */
export const textFormat = '@';

/**
 * A cell as Excel holds it: its value, a date where its number format shows one (a serial in
 * days from 1899-12-30, read as the Google path and uploaded workbooks read theirs), and an
 * error (`#DIV/0!`) as the text Excel shows.
 */
export function cellFromExcel(value: unknown, numberFormat: unknown): Cell {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  if (typeof numberFormat !== 'string' || !isDateFormat(numberFormat)) return value;
  return dateCell(value, { showsTime: formatShowsTime(numberFormat) });
}

/** What one cell is written as: its value and its number format (null: left as it is). */
export interface ExcelWrite {
  value: GraphValue;
  numberFormat: string | null;
}

/**
 * A cell to write. Graph reads a string as Excel reads typed input (`007` a number, `=1+1` a
 * formula, `TRUE` a boolean) unless the cell's number format is text, which the same request
 * sets first: so text is written with the text format and stays exactly that text. Numbers and
 * booleans go as JSON numbers and booleans, leaving the cell's format alone (a currency or a
 * date format a person chose stays). A date goes as its serial with a date format. An empty
 * cell is cleared, its format left alone.
 */
export function cellToExcel(cell: Cell): ExcelWrite {
  if (cell === null) return { value: '', numberFormat: null };
  if (typeof cell === 'number' || typeof cell === 'boolean') {
    return { value: cell, numberFormat: null };
  }
  if (cell instanceof DateCell)
    return dateToExcel(cell) ?? { value: cell.iso, numberFormat: textFormat };
  return { value: cell, numberFormat: textFormat };
}

const dayMs = 86_400_000;
const epoch = Date.UTC(1899, 11, 30);

/** A date, time or date-time as its serial, with the format that shows it as it was. */
function dateToExcel(cell: DateCell): ExcelWrite | null {
  const iso = cell.iso;
  if (/^\d\d:\d\d:\d\d$/.test(iso)) {
    const ms = Date.parse(`1970-01-01T${iso}Z`);
    return Number.isNaN(ms) ? null : { value: ms / dayMs, numberFormat: 'hh:mm:ss' };
  }
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(iso);
  if (!dateOnly && !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/.test(iso)) return null;
  const ms = Date.parse(dateOnly ? `${iso}T00:00:00Z` : `${iso}Z`);
  if (Number.isNaN(ms)) return null;
  return {
    value: (ms - epoch) / dayMs,
    numberFormat: dateOnly ? 'yyyy-mm-dd' : 'yyyy-mm-dd hh:mm:ss',
  };
}

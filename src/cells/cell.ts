import { numberFromText, type DecimalMark } from './number-text.ts';

/**
 * A cell as the API shows it. Dates are carried as ISO 8601 text, marked so that a store or a
 * provider can keep them apart from text that merely looks like a date.
 */
export type Scalar = string | number | boolean | null;
export type Cell = Scalar | DateCell;

export class DateCell {
  constructor(readonly iso: string) {}
  toJSON(): string {
    return this.iso;
  }
}

export { decimalMarks, type DecimalMark } from './number-text.ts';

/**
 * Types a cell read from delimited text: a number when `numberFromText` says it plainly is one
 * (`1.50` is 1.5), an empty field an empty cell, and anything else text as written.
 */
export function cellFromText(text: string, decimal: DecimalMark = '.'): Scalar {
  if (text === '') return null;
  return numberFromText(text, decimal) ?? text;
}

/**
 * Whether text can be stored as it is, the same in every store: no NUL character (PostgreSQL
 * text cannot hold one, and spreadsheets drop it) and no lone UTF-16 surrogate (which no store
 * can keep as sent).
 */
export function isStorableText(text: string): boolean {
  return !text.includes('\u0000') && text.isWellFormed();
}

/** The text a person sees in the cell: what equality and wildcard filters compare against. */
export function cellText(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof DateCell) return cell.iso;
  return String(cell);
}

/**
 * A cell of a text column, which keeps every cell as text: a code such as `007` or `1001` is
 * never a number. What is not text already (a number, true/false, a date) becomes the text it
 * shows.
 */
export function cellAsText(cell: Cell): Cell {
  return cell === null || typeof cell === 'string' ? cell : cellText(cell);
}

const dayMs = 86_400_000;
const daySeconds = 86_400;

/**
 * Day 0 of a spreadsheet's date serials. Excel's default 1900 system counts from 1899-12-30, as
 * Lotus 1-2-3, LibreOffice and Google Sheets do; workbooks in the 1904 system (old Mac Excel)
 * count from 1904-01-01.
 */
export const serialEpochs = { 1900: Date.UTC(1899, 11, 30), 1904: Date.UTC(1904, 0, 1) } as const;
export type DateSystem = keyof typeof serialEpochs;

/**
 * A date, time or date-time cell as it was typed. Spreadsheets store a wall-clock reading with no
 * zone, as a count of days (the fraction is the time of day), so the text carries no zone either:
 * a serial under 1 is a time alone (`09:30:00`), a whole serial whose format shows no time is a
 * date (`2026-02-01`), and anything else is a date-time (`2026-02-01T14:05:00`). Times are
 * rounded to the second: a fraction of a day rarely lands on one exactly.
 */
export function dateCell(
  serial: number,
  { showsTime, system = 1900 }: { showsTime: boolean; system?: DateSystem },
): DateCell {
  const seconds = Math.round(serial * daySeconds);
  if (serial >= 0 && serial < 1) {
    // 23:59:59.6 rounds to the next midnight, which a time alone shows as 00:00:00.
    return new DateCell(clockTime((seconds % daySeconds) * 1000));
  }
  const wallClock = new Date(serialEpochs[system] + seconds * 1000);
  const day = wallClock.toISOString().slice(0, 10);
  if (!showsTime && seconds % daySeconds === 0) return new DateCell(day);
  return new DateCell(`${day}T${clockTime(wallClock.getTime())}`);
}

/** `HH:MM:SS` of a moment counted in milliseconds, read on a clock with no zone. */
function clockTime(ms: number): string {
  return new Date(((ms % dayMs) + dayMs) % dayMs).toISOString().slice(11, 19);
}

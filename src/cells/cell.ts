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

const plainDecimal = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * Types a cell read from CSV text. It becomes a number only when the text is a plain decimal that
 * reads back to the very same text, so `007`, `1.50`, `+5`, `1e3`, `1,000` and `-0` stay text.
 * An empty field is an empty cell.
 */
export function cellFromText(text: string): Scalar {
  if (text === '') return null;
  if (plainDecimal.test(text)) {
    const n = Number(text);
    if (String(n) === text) return n;
  }
  return text;
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

/** Formats a date read from a workbook: a date alone when it has no time of day. */
export function dateCell(date: Date): DateCell {
  const iso = date.toISOString();
  if (iso.endsWith('T00:00:00.000Z')) return new DateCell(iso.slice(0, 10));
  return new DateCell(iso.replace(/\.000Z$/, 'Z'));
}

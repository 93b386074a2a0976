import { stringify } from 'csv-stringify/sync';
import { cellText, type Cell } from '../cells/cell.ts';

/**
 * Rows as a JSON array of objects keyed by column name. Built as text from the column names
 * escaped once, which is both faster than building objects and immune to keys like `__proto__`.
 */
export function rowsToJson(
  columns: string[],
  rows: Cell[][],
  positions: number[] | null = null,
): string {
  const keys = columns.map(
    (column, i) => `${i === 0 && positions === null ? '{' : ','}${JSON.stringify(column)}:`,
  );
  const parts: string[] = new Array(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r] as Cell[];
    // With positions asked for, `_id` comes first: a reserved name no column is filtered by.
    let text = positions === null ? '' : `{"_id":${positions[r]}`;
    for (let i = 0; i < keys.length; i++) text += keys[i] + JSON.stringify(row[i] ?? null);
    parts[r] = keys.length === 0 && positions === null ? '{}' : `${text}}`;
  }
  return `[${parts.join(',')}]`;
}

/**
 * Rows as CSV with the header first; cells are written as the text a person sees. Text that a
 * spreadsheet program would run as a formula when the file is opened (starting with =, +, -, @,
 * tab or carriage return) is prefixed with an apostrophe, as OWASP advises against CSV injection.
 */
export function rowsToCsv(
  columns: string[],
  rows: Cell[][],
  positions: number[] | null = null,
): string {
  const safe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);
  const texts = rows.map((row) =>
    row.map((cell) => (typeof cell === 'string' ? safe(cell) : cellText(cell))),
  );
  if (positions === null) return stringify([columns.map(safe), ...texts]);
  return stringify([
    ['_id', ...columns.map(safe)],
    ...texts.map((row, r) => [String(positions[r]), ...row]),
  ]);
}

export type RowFormat = 'json' | 'csv';

/** Picks JSON or CSV from an Accept header, by quality value; JSON when nothing else is asked. */
export function negotiateFormat(accept: string | undefined): RowFormat {
  if (accept === undefined || !accept.includes('text/csv')) return 'json';
  let best: { format: RowFormat; q: number } = { format: 'json', q: -1 };
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const format: RowFormat | null =
      type === 'text/csv'
        ? 'csv'
        : ['application/json', 'application/*', '*/*'].includes(type)
          ? 'json'
          : null;
    // An exact JSON type wins a tie against CSV only when it is listed first.
    if (format !== null && q > best.q) best = { format, q };
  }
  return best.format;
}

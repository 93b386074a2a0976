import { stringify } from 'csv-stringify/sync';
import { cellText, type Cell } from '../cells/cell.ts';
import type { CellChunks } from './xlsx-writer.ts';

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
  return csvHeader(columns, positions !== null) + csvRows(rows, positions);
}

const safe = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

export function csvHeader(columns: string[], withIds: boolean): string {
  return stringify([[...(withIds ? ['_id'] : []), ...columns.map(safe)]]);
}

export function csvRows(rows: Cell[][], positions: number[] | null): string {
  const texts = rows.map((row, r) => {
    const cells = row.map((cell) => (typeof cell === 'string' ? safe(cell) : cellText(cell)));
    return positions === null ? cells : [String(positions[r]), ...cells];
  });
  return texts.length === 0 ? '' : stringify(texts);
}

/** Rows read in chunks as CSV text: the header first, then each chunk's rows, as they come. */
export async function* csvText(
  columns: string[],
  chunks: CellChunks,
  withIds: boolean,
): AsyncIterable<string> {
  yield csvHeader(columns, withIds);
  for await (const { rows, positions } of chunks) yield csvRows(rows, withIds ? positions : null);
}

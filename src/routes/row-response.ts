import { stringify } from 'csv-stringify/sync';
import { cellText, type Cell } from '../cells/cell.ts';
import { xlsxType, type CellChunks } from './xlsx-answer.ts';

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

const open = Buffer.from('[');
const comma = Buffer.from(',');
const close = Buffer.from(']');

/**
 * A JSON array from the pieces of rows (each rows joined by commas) the store answers, in chunks
 * of pieces; each chunk comes out as one list of buffers, to be written or joined at once.
 */
export async function* jsonArray(chunks: AsyncIterable<Buffer[]>): AsyncIterable<Buffer[]> {
  let empty = true;
  let out: Buffer[] = [open];
  for await (const pieces of chunks) {
    for (const piece of pieces) {
      if (piece.length === 0) continue;
      if (!empty) out.push(comma);
      empty = false;
      out.push(piece);
    }
    yield out;
    out = [];
  }
  yield [...out, close];
}

export type RowFormat = 'json' | 'csv' | 'xlsx';

const formats: Record<string, RowFormat> = {
  'text/csv': 'csv',
  [xlsxType]: 'xlsx',
  'application/json': 'json',
  'application/*': 'json',
  '*/*': 'json',
};

/**
 * Picks JSON, CSV or XLSX from an Accept header, by quality value; JSON when nothing else is
 * asked. Of types of equal quality, the first listed wins.
 */
export function negotiateFormat(accept: string | undefined): RowFormat {
  if (accept === undefined || !/text\/csv|spreadsheetml/i.test(accept)) return 'json';
  let best: { format: RowFormat; q: number } = { format: 'json', q: -1 };
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = Number(params.find((p) => p.startsWith('q='))?.slice(2) ?? '1');
    const format = formats[type];
    if (format !== undefined && q > best.q) best = { format, q };
  }
  return best.format;
}

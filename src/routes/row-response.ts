import { xlsxType } from '../files/xlsx-writer.ts';

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

import type { Cell } from '../cells/cell.ts';
import { csvText } from '../files/csv-writer.ts';
import type { CellChunks } from '../files/xlsx-writer.ts';

/**
 * Groups as a JSON array of objects, each key written in the order asked (group columns, then
 * aggregates): a JavaScript object would move keys that look like numbers (`"2024"`) first.
 */
export function groupsJson(keys: string[], rows: Cell[][]): Buffer {
  const names = keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  const objects = rows.map((row) =>
    keys.length === 0
      ? '{}'
      : `${names.map((name, i) => name + JSON.stringify(row[i] ?? null)).join('')}}`,
  );
  return Buffer.from(`[${objects.join(',')}]`);
}

/** Groups as the rows of a CSV or workbook answer: one chunk, as they are all at hand. */
export async function* groupChunks(rows: Cell[][]): CellChunks {
  yield { rows, positions: rows.map((_, i) => i) };
}

/** Groups as CSV: a header of the keys, then a line per group. */
export async function groupsCsv(keys: string[], rows: Cell[][]): Promise<Buffer> {
  let text = '';
  for await (const part of csvText(keys, groupChunks(rows), false)) text += part;
  return Buffer.from(text);
}

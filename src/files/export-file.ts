import { createWriteStream } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Problem, sheetNotFound } from '../errors/problem.ts';
import { parseRowQuery } from '../query/parse-row-query.ts';
import { planRead } from '../query/plan.ts';
import { csvText } from './csv-writer.ts';
import { xlsxAnswer } from './xlsx-writer.ts';
import type { SheetStore } from '../store/store.ts';

/**
 * Writes every row of a sheet to a .csv or .xlsx file, as the API answers them with
 * `Accept: text/csv` or the XLSX type: read from one snapshot of the store, in pieces, so a large
 * sheet is written with flat memory. Answers the number of rows written.
 */
export async function exportSheet(store: SheetStore, id: string, path: string): Promise<number> {
  const format = extname(path).toLowerCase();
  if (format !== '.csv' && format !== '.xlsx') {
    throw new Problem('invalid-parameter', `Export to a .csv or .xlsx file; got "${path}".`);
  }
  const sheet = await store.getSheet(id);
  if (sheet === null) throw sheetNotFound(id);
  const answer = await store.readCells(sheet, planRead(sheet, parseRowQuery({})));
  const body =
    format === '.xlsx'
      ? await xlsxAnswer(sheet.name, sheet.columns, answer.chunks, false)
      : Readable.from(csvText(sheet.columns, answer.chunks, false));
  await pipeline(body, createWriteStream(path));
  return answer.total;
}

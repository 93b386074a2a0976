import { createReadStream } from 'node:fs';
import { parse } from 'csv-parse';
import { cellFromText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import type { SheetFile } from './sheet-file.ts';

const chunkRows = 1000;

/**
 * Reads a CSV file as it streams: the header at once, the rows in chunks as the import asks for
 * them, so that a file of millions of rows never sits in memory whole.
 */
export async function readCsv(path: string): Promise<SheetFile> {
  const parser = createReadStream(path).pipe(
    parse({ bom: true, relax_column_count: true, skip_empty_lines: false }),
  );
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const first = await next(records);
  const columns = columnsFromHeader(first.done ? [] : first.value.map(cellFromText));
  async function* rows(): AsyncGenerator<Cell[][]> {
    let chunk: Cell[][] = [];
    let rowNumber = 1;
    try {
      for (let record = await next(records); !record.done; record = await next(records)) {
        rowNumber++;
        const row = record.value.map(cellFromText);
        checkRowWidth(row, columns.length, rowNumber);
        if (row.length > columns.length) row.length = columns.length;
        chunk.push(row);
        if (chunk.length === chunkRows) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    } finally {
      parser.destroy();
    }
  }
  return { columns, rows: rows() };
}

async function next(records: AsyncIterator<string[]>): Promise<IteratorResult<string[]>> {
  try {
    return await records.next();
  } catch (error) {
    throw new Problem(
      'invalid-upload',
      `The CSV file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

import { createReadStream } from 'node:fs';
import { pipeline, Transform } from 'node:stream';
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
  const parser = parse({ relax_column_count: true, skip_empty_lines: false });
  // pipeline, unlike pipe, hands a failure anywhere upstream on to the parser and so to the reader.
  pipeline(createReadStream(path), utf8Text(), parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  const first = await next(records);
  const columns = columnsFromHeader(first.done ? [] : first.value.map(cellFromText));
  async function* rows(): AsyncGenerator<Cell[][]> {
    let chunk: Cell[][] = [];
    // Empty rows are held back until a row with data follows: blank lines at the end are not rows.
    let emptyRows: Cell[][] = [];
    let rowNumber = 1;
    try {
      for (let record = await next(records); !record.done; record = await next(records)) {
        rowNumber++;
        if (record.value.some((field) => field.includes('\u0000'))) {
          throw new Problem(
            'invalid-upload',
            `Row ${rowNumber} of the CSV file holds a NUL character, which is not text; is it really CSV?`,
          );
        }
        const row = record.value.map(cellFromText);
        checkRowWidth(row, columns.length, rowNumber);
        if (row.length > columns.length) row.length = columns.length;
        if (row.every((cell) => cell === null)) {
          emptyRows.push(row);
          continue;
        }
        chunk.push(...emptyRows, row);
        emptyRows = [];
        if (chunk.length >= chunkRows) {
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

/** Decodes UTF-8, dropping a byte-order mark, and refuses bytes that are not UTF-8. */
function utf8Text(): Transform {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes: Buffer | undefined, stream: boolean): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream });
    } catch {
      throw new Problem(
        'invalid-upload',
        'The CSV file is not UTF-8 text; save it as "CSV UTF-8" and upload it again.',
      );
    }
  };
  return new Transform({
    readableObjectMode: true,
    transform(bytes: Buffer, _encoding, done) {
      try {
        done(null, decode(bytes, true));
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        done(null, decode(undefined, false));
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

async function next(records: AsyncIterator<string[]>): Promise<IteratorResult<string[]>> {
  try {
    return await records.next();
  } catch (error) {
    if (error instanceof Problem) throw error;
    throw new Problem(
      'invalid-upload',
      `The CSV file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

import { createReadStream } from 'node:fs';
import { pipeline, Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { cellFromText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { detectDelimiter } from './csv-dialect.ts';
import type { CsvOptions } from './csv-options.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import type { SheetFile } from './sheet-file.ts';
import { decodingStream, detectEncoding } from './text-encoding.ts';

const chunkRows = 1000;
/** Characters of the file's start that its delimiter is decided from. */
const sampleChars = 64 * 1024;

/**
 * Reads a CSV file as it streams: the header at once, the rows in chunks as the import asks for
 * them, so that a file of millions of rows never sits in memory whole. Its encoding and
 * delimiter are detected unless given; `preferredDelimiter` breaks a tie (`\t` for `.tsv`).
 */
export async function readCsv(
  path: string,
  options: CsvOptions,
  preferredDelimiter = ',',
): Promise<SheetFile> {
  const encoding = options.encoding ?? (await detectEncoding(path));
  const text = await decodedText(path, encoding);
  const delimiter =
    options.delimiter ?? detectDelimiter(text.sample, text.complete, preferredDelimiter);
  // The parser skips blank lines and counts them, which is linear, where handing each on as a
  // record is quadratic in csv-parse (200,000 blank lines took 10 s); rows are made of the count.
  const parser = parse({ delimiter, relax_column_count: true, skip_empty_lines: true, info: true });
  // pipeline, unlike pipe, hands a failure anywhere upstream on to the parser and so to the reader.
  pipeline(Readable.from(text.chunks), parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedLine>;
  const typed = (field: string) => cellFromText(field, options.decimal);
  let columns: string[];
  try {
    const first = await next(records);
    // A blank first line is an empty header, as it was before blank lines were skipped.
    const header = first.done || first.value.info.empty_lines > 0 ? [] : first.value.record;
    // A column is named by its text as written: a header `20.00` is not the number 20.
    columns = columnsFromHeader(header.map((name) => name || null));
  } catch (error) {
    parser.destroy();
    throw error;
  }
  async function* rows(): AsyncGenerator<Cell[][]> {
    let chunk: Cell[][] = [];
    // Empty rows are counted, and made only once a row with data follows them: blank lines at
    // the end are not rows, and a run of them costs nothing until it turns out to be rows.
    let emptyRows = 0;
    let blankLines = 0;
    let rowNumber = 1;
    try {
      for (let line = await next(records); !line.done; line = await next(records)) {
        const { record, info } = line.value;
        emptyRows += info.empty_lines - blankLines;
        rowNumber += info.empty_lines - blankLines + 1;
        blankLines = info.empty_lines;
        if (record.some((field) => field.includes('\u0000'))) {
          throw new Problem(
            'invalid-upload',
            `Row ${rowNumber} of the CSV file holds a NUL character, which is not text; is it really CSV?`,
          );
        }
        const row = record.map(typed);
        checkRowWidth(row, columns.length, rowNumber);
        if (row.length > columns.length) row.length = columns.length;
        if (row.every((cell) => cell === null)) {
          emptyRows++;
          continue;
        }
        for (; emptyRows > 0; emptyRows--) {
          chunk.push([]);
          if (chunk.length >= chunkRows) {
            yield chunk;
            chunk = [];
          }
        }
        chunk.push(row);
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
  return { columns, rows: rows(), text: { delimiter, encoding } };
}

/**
 * The file's text as it decodes: its first `sampleChars` characters at once, to decide the
 * delimiter from, and all of it, those included, as chunks still to be read.
 */
async function decodedText(path: string, encoding: string) {
  const decoder = decodingStream(encoding);
  pipeline(createReadStream(path), decoder, () => {});
  const pieces = decoder[Symbol.asyncIterator]() as AsyncIterator<string>;
  const head: string[] = [];
  let length = 0;
  let complete = false;
  try {
    while (length < sampleChars) {
      const piece = await pieces.next();
      if (piece.done) {
        complete = true;
        break;
      }
      head.push(piece.value);
      length += piece.value.length;
    }
  } catch (error) {
    decoder.destroy();
    throw error;
  }
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield* head;
      for (let piece = await pieces.next(); !piece.done; piece = await pieces.next()) {
        yield piece.value;
      }
    } finally {
      // Stopped early (a refused row): closing the decoder closes the file too.
      decoder.destroy();
    }
  }
  return { sample: head.join('').slice(0, sampleChars), complete, chunks: chunks() };
}

/** A record as the parser hands it over, with the count of blank lines skipped so far. */
interface ParsedLine {
  record: string[];
  info: { empty_lines: number };
}

async function next(records: AsyncIterator<ParsedLine>): Promise<IteratorResult<ParsedLine>> {
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

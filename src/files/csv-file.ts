import { pipeline, Readable } from 'node:stream';
import { cellFromText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { CsvOptions } from './csv-options.ts';
import { scanCsv } from './csv-scan.ts';
import { csvParser, decodedText, next, type ParsedLine } from './csv-text.ts';
import { keptAsText } from './file-evidence.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import type { SheetFile } from './sheet-file.ts';
import { textColumnsOf } from './text-columns.ts';

const chunkRows = 1000;

/**
 * Reads a CSV file as it streams: the header at once, the rows in chunks as the import asks for
 * them, so that a file of millions of rows never sits in memory whole. Before that, one pass
 * over the whole file (see `scanCsv`) decides what is not given: its encoding, its delimiter,
 * its decimal mark, and which of its columns hold codes. `preferredDelimiter` breaks a tie (`\t`
 * for `.tsv`). The cells of the text columns (those declared, and the code columns found) are kept
 * as the text they are.
 */
export async function readCsv(
  path: string,
  options: CsvOptions,
  preferredDelimiter = ',',
  declaredText: readonly string[] = [],
): Promise<SheetFile> {
  const { encoding, delimiter, reading } = await scanCsv(path, options, preferredDelimiter);
  const text = await decodedText(path, encoding);
  const parser = csvParser(delimiter);
  // pipeline, unlike pipe, hands a failure anywhere upstream on to the parser and so to the reader.
  pipeline(Readable.from(text.chunks), parser, () => {});
  const records = parser[Symbol.asyncIterator]() as AsyncIterator<ParsedLine>;
  let textColumns: boolean[] = [];
  const typed = (field: string, column: number) =>
    textColumns[column] === true || keptAsText(field, reading)
      ? field === ''
        ? null
        : field
      : cellFromText(field, reading.decimal);
  let columns: string[];
  try {
    const first = await next(records);
    // A blank first line is an empty header, as it was before blank lines were skipped.
    const header = first.done || first.value.info.empty_lines > 0 ? [] : first.value.record;
    // A column is named by its text as written: a header `20.00` is not the number 20.
    columns = columnsFromHeader(header.map((name) => name || null));
    textColumns = textColumnsOf(columns, reading.codeColumns, declaredText);
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
  return {
    columns,
    rows: rows(),
    text: { delimiter, encoding, decimal: reading.decimal },
    textColumns: columns.filter((_, i) => textColumns[i] === true),
  };
}

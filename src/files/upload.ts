import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { defaultLimits, type Limits } from '../access/limits.ts';
import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { readCsv } from './csv-file.ts';
import type { CsvOptions } from './csv-options.ts';
import type { EveryTab } from './every-tab.ts';
import type { SheetFile } from './sheet-file.ts';
import { encodingFromBom } from './text-encoding.ts';
import { rowsAsText, textColumnsOf } from './text-columns.ts';
import { defaultMaxCells } from './workbook-bounds.ts';
import { readXlsx, readXlsxTabs, type XlsxBounds } from './xlsx-file.ts';

/** `csv` is any delimited text file: comma, semicolon, tab or pipe separated. */
export type UploadFormat = 'csv' | 'xlsx';

/** Extensions of the text files read as CSV; a file without one is read by its content. */
const textExtensions = ['.csv', '.tsv', '.txt', ''];

export interface UploadOptions {
  /** The worksheet of a workbook; the first one by default. */
  tab?: string | undefined;
  /** How to read a text file; given only when the person chose something. */
  csv?: CsvOptions | undefined;
  /** Columns declared text: their cells are kept as text (see `text-columns.ts`). */
  textColumns?: readonly string[] | undefined;
  /** What a workbook may unpack to: its parts are measured, and its shared strings held. */
  maxUnzippedBytes?: number;
  /** The cells a workbook may span and hold ({@link defaultMaxCells} by default). */
  maxWorkbookCells?: number;
  limits?: Pick<Limits, 'columnsPerSheet'>;
}

const defaultMaxUnzippedBytes = 256 * 1_048_576;

function xlsxBounds(options: UploadOptions): XlsxBounds {
  return {
    maxUnzippedBytes: options.maxUnzippedBytes ?? defaultMaxUnzippedBytes,
    maxCells: options.maxWorkbookCells ?? defaultMaxCells,
    maxColumns: (options.limits ?? defaultLimits).columnsPerSheet,
  };
}

/**
 * Opens an uploaded file by what it holds rather than what it is called: a workbook is a zip
 * archive, CSV is text. A file name only breaks the tie for files too short to tell, and picks
 * the delimiter a file that no delimiter splits is read with.
 */
export async function openUpload(
  path: string,
  fileName: string,
  options: UploadOptions = {},
): Promise<{ format: UploadFormat; file: SheetFile }> {
  const format = await sniffFormat(path, fileName, options.csv?.encoding !== undefined);
  checkOptions(format, options);
  const declared = options.textColumns ?? [];
  const file =
    format === 'xlsx'
      ? withTextColumns(await readXlsx(path, options.tab, xlsxBounds(options)), declared)
      : await readCsv(path, options.csv ?? {}, preferredDelimiter(fileName), declared);
  return { format, file };
}

/** Opens every worksheet of an uploaded workbook, reading the file once. */
export async function openUploadTabs(
  path: string,
  fileName: string,
  options: UploadOptions = {},
): Promise<{ format: UploadFormat; files: EveryTab<SheetFile> }> {
  const format = await sniffFormat(path, fileName, options.csv?.encoding !== undefined);
  checkOptions(format, { ...options, tab: '*' });
  const files = await readXlsxTabs(path, xlsxBounds(options));
  const declared = options.textColumns ?? [];
  // Each tab takes the declared columns it has.
  const read = files.read.map(({ tab, table }) => ({
    tab,
    table: withTextColumns(
      table,
      declared.filter((column) => table.columns.includes(column)),
    ),
  }));
  return { format, files: { ...files, read } };
}

function checkOptions(format: UploadFormat, options: UploadOptions): void {
  if (format === 'csv' && options.tab !== undefined) {
    throw new Problem(
      'invalid-upload',
      'A CSV file has one table; "tab" applies to XLSX workbooks only.',
    );
  }
  if (format === 'xlsx' && options.csv !== undefined) {
    throw new Problem(
      'invalid-upload',
      'An XLSX workbook keeps each cell\'s type; "delimiter", "encoding" and "decimal" apply to CSV files only.',
    );
  }
}

/**
 * A workbook keeps each cell's type: the columns declared are made text as they are read (a
 * number in one becomes the text it shows), and those the rows show to hold codes once all are
 * read (see `workbookCodeColumns`) are made text by the import before the sheet is shown.
 */
function withTextColumns(file: SheetFile, declared: readonly string[]): SheetFile {
  const text = textColumnsOf(file.columns, [], declared);
  const evidence = new CodeEvidence(file.columns.length);
  const rows = file.rows;
  async function* asText(): AsyncGenerator<Cell[][]> {
    for await (const chunk of rows) {
      evidence.see(chunk);
      yield rowsAsText(chunk, text);
    }
  }
  return {
    ...file,
    rows: asText(),
    textColumns: [...declared],
    codeColumns: () =>
      evidence.codeColumns().flatMap((i) => {
        const column = file.columns[i];
        return column === undefined || declared.includes(column) ? [] : [column];
      }),
  };
}

/** A code as a person types one: digits with a leading zero, such as 007 or 0123. */
const codeText = /^0\d+$/;
/** Text that reads as a number with a decimal part: 1.5, 0,25, -.5. */
const decimalText = /^[+-]?\d*[.,]\d+$/;

/**
 * What a workbook's cells show of each column: a column holds codes when some cell is text
 * shaped like one (`007`) and none has a decimal part, the rule text files follow too.
 */
export class CodeEvidence {
  readonly #code: boolean[];
  readonly #fraction: boolean[];

  constructor(width: number) {
    this.#code = new Array<boolean>(width).fill(false);
    this.#fraction = new Array<boolean>(width).fill(false);
  }

  see(rows: Cell[][]): void {
    for (const row of rows) {
      for (let i = 0; i < row.length && i < this.#code.length; i++) {
        const cell = row[i];
        if (typeof cell === 'number') {
          if (!Number.isInteger(cell)) this.#fraction[i] = true;
        } else if (typeof cell === 'string') {
          const text = cell.trim();
          if (codeText.test(text)) this.#code[i] = true;
          else if (decimalText.test(text)) this.#fraction[i] = true;
        }
      }
    }
  }

  codeColumns(): number[] {
    return this.#code.flatMap((code, i) => (code && !this.#fraction[i] ? [i] : []));
  }
}

function preferredDelimiter(fileName: string): string {
  return extname(fileName).toLowerCase() === '.tsv' ? '\t' : ',';
}

async function sniffFormat(
  path: string,
  fileName: string,
  encodingGiven: boolean,
): Promise<UploadFormat> {
  const handle = await open(path);
  const head = Buffer.alloc(4096);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const bytes = head.subarray(0, bytesRead);
  const extension = extname(fileName).toLowerCase();
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return 'xlsx';
  if (extension === '.xlsx') {
    throw new Problem(
      'invalid-upload',
      `"${fileName}" is named .xlsx but is not an XLSX workbook (not a zip archive).`,
    );
  }
  if (bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) {
    throw new Problem(
      'unsupported-upload',
      `"${fileName}" is an old Excel 97-2003 (.xls) workbook; save it as .xlsx or .csv and upload that.`,
    );
  }
  // With an encoding given, the person knows the file is text (UTF-16 without a mark, say).
  if (!encodingGiven && !looksLikeText(bytes, bytesRead === head.length)) {
    throw new Problem(
      'unsupported-upload',
      `"${fileName}" is neither a text file (CSV, TSV) nor an XLSX workbook.`,
    );
  }
  if (!textExtensions.includes(extension)) {
    throw new Problem(
      'unsupported-upload',
      `Files of type "${extension}" are not supported; upload a .csv, .tsv, .txt or .xlsx file.`,
    );
  }
  return 'csv';
}

/**
 * Whether the first bytes of a file read as text: UTF-16 with its byte-order mark, UTF-8, or
 * else a single-byte encoding such as Windows-1252, whose text holds no control characters but
 * tab, line breaks and form feed. A NUL byte without a UTF-16 mark is a binary file.
 */
function looksLikeText(bytes: Buffer, partial: boolean): boolean {
  const bom = encodingFromBom(bytes);
  if (bom === 'utf-16le' || bom === 'utf-16be') return true;
  if (bytes.includes(0)) return false;
  if (isUtf8Prefix(bytes, partial)) return true;
  return !bytes.some((byte) => byte < 0x20 && ![0x09, 0x0a, 0x0c, 0x0d].includes(byte));
}

/** UTF-8 check that forgives a multi-byte character cut off at the end of a partial sample. */
function isUtf8Prefix(bytes: Buffer, partial: boolean): boolean {
  for (let cut = 0; cut < (partial ? 4 : 1) && cut <= bytes.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      // try again without the last byte
    }
  }
  return false;
}

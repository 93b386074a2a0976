/**
 * spreadsheets.values: get, batchGet, update, batchUpdate and clear (append is in append.ts), over ValueRanges
 * (`{range, majorDimension, values}`) with Google's rendering, input parsing and grid limits.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import { formatRange, columnName, type Box } from './a1.ts';
import {
  overwrite,
  rawInput,
  renderValue,
  userEnteredInput,
  type CellValue,
  type DateTimeRenderOption,
  type ValueRenderOption,
} from './cells.ts';
import { invalidArgument } from './errors.ts';
import { cellAt, setCell, type Tab } from './grid.ts';
import { arrayField, enumOption, stringField, type JsonObject } from './json.ts';
import { boxOf, exceedsGrid, resolveRange, type Book } from './state.ts';

const VALUE_RENDER = ['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA'] as const;
const DATE_RENDER = ['SERIAL_NUMBER', 'FORMATTED_STRING'] as const;
const DIMENSIONS = ['ROWS', 'COLUMNS'] as const;
const INPUT_OPTIONS = ['RAW', 'USER_ENTERED'] as const;

type Dimension = (typeof DIMENSIONS)[number];
type InputOption = (typeof INPUT_OPTIONS)[number];
export type Read = (name: string) => string | null | undefined;

export interface RenderOptions {
  valueRender: ValueRenderOption;
  dateRender: DateTimeRenderOption;
  majorDimension: Dimension;
}

/** Render options named `valueRenderOption` etc., or `responseValueRenderOption` etc. */
export function renderOptions(read: Read, prefix: '' | 'response' = ''): RenderOptions {
  const name = (base: string): string =>
    prefix ? `${prefix}${base.charAt(0).toUpperCase()}${base.slice(1)}` : base;
  return {
    valueRender: enumOption(
      read(name('valueRenderOption')),
      VALUE_RENDER,
      'FORMATTED_VALUE',
      name('valueRenderOption'),
    ),
    dateRender: enumOption(
      read(name('dateTimeRenderOption')),
      DATE_RENDER,
      'SERIAL_NUMBER',
      name('dateTimeRenderOption'),
    ),
    majorDimension: enumOption(read('majorDimension'), DIMENSIONS, 'ROWS', 'majorDimension'),
  };
}

export function inputOption(value: string | null | undefined): InputOption {
  if (!value) throw invalidArgument("'valueInputOption' is required but not specified");
  return enumOption(value, INPUT_OPTIONS, 'RAW', 'valueInputOption');
}

/** A ValueRange of a box: trailing empty rows and cells left out, and no `values` when empty. */
export function valueRange(
  tab: Tab,
  box: Box,
  options: RenderOptions,
): sheets_v4.Schema$ValueRange {
  const matrix: (CellValue | undefined)[][] = [];
  const across = options.majorDimension === 'ROWS';
  const [outerStart, outerEnd] = across
    ? [box.startRow, box.endRow]
    : [box.startColumn, box.endColumn];
  const [innerStart, innerEnd] = across
    ? [box.startColumn, box.endColumn]
    : [box.startRow, box.endRow];
  for (let i = outerStart; i < outerEnd; i++) {
    const line: (CellValue | undefined)[] = [];
    for (let j = innerStart; j < innerEnd; j++) {
      const cell = across ? cellAt(tab, i, j) : cellAt(tab, j, i);
      line.push(renderValue(cell, options.valueRender, options.dateRender));
    }
    while (line.length > 0 && line.at(-1) === undefined) line.pop();
    matrix.push(line);
  }
  while (matrix.length > 0 && matrix.at(-1)?.length === 0) matrix.pop();
  const result: sheets_v4.Schema$ValueRange = {
    range: formatRange(tab.title, box),
    majorDimension: options.majorDimension,
  };
  if (matrix.length > 0) result.values = matrix.map((line) => line.map((value) => value ?? ''));
  return result;
}

export function getValues(book: Book, range: string, read: Read): sheets_v4.Schema$ValueRange {
  const resolved = resolveRange(book, range);
  return valueRange(resolved.tab, boxOf(resolved), renderOptions(read));
}

/** The values of a ValueRange body as rows, `null` meaning "leave the cell as it is". */
export function inputRows(body: JsonObject, where: string): (CellValue | null)[][] {
  const dimension = enumOption(
    stringField(body, 'majorDimension', where),
    DIMENSIONS,
    'ROWS',
    'majorDimension',
  );
  const lines = arrayField(body, 'values', where).map((line, i) => {
    if (!Array.isArray(line))
      throw invalidArgument(`Invalid values[${i}]: ${JSON.stringify(line)}`);
    return line.map((value, j) => {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) {
        return value as CellValue | null;
      }
      throw invalidArgument(`Invalid values[${i}][${j}]: ${JSON.stringify(value)}`);
    });
  });
  if (dimension === 'ROWS') return lines;
  const height = Math.max(0, ...lines.map((line) => line.length));
  return Array.from({ length: height }, (_, r) => lines.map((line) => line[r] ?? null));
}

interface Written {
  tab: Tab;
  box: Box;
  response: sheets_v4.Schema$UpdateValuesResponse;
}

/** Writes rows of values from an origin, counting what Google counts in UpdateValuesResponse. */
export function writeValues(
  book: Book,
  tab: Tab,
  origin: { row: number; column: number },
  rows: (CellValue | null)[][],
  input: InputOption,
): Written {
  const width = Math.max(0, ...rows.map((row) => row.length));
  const box = {
    startRow: origin.row,
    endRow: origin.row + rows.length,
    startColumn: origin.column,
    endColumn: origin.column + width,
  };
  const touchedColumns = new Set<number>();
  let updatedRows = 0;
  let updatedCells = 0;
  rows.forEach((row, r) => {
    let touched = false;
    row.forEach((value, c) => {
      if (value === null) return;
      const [rowIndex, columnIndex] = [origin.row + r, origin.column + c];
      const parsed = input === 'RAW' ? rawInput(value) : userEnteredInput(value);
      setCell(tab, rowIndex, columnIndex, overwrite(cellAt(tab, rowIndex, columnIndex), parsed));
      touched = true;
      touchedColumns.add(columnIndex);
      updatedCells++;
    });
    if (touched) updatedRows++;
  });
  const response: sheets_v4.Schema$UpdateValuesResponse = {
    spreadsheetId: book.id,
    updatedRange: formatRange(
      tab.title,
      width > 0 ? box : { ...box, endRow: box.startRow + 1, endColumn: box.startColumn + 1 },
    ),
  };
  if (updatedCells > 0) {
    Object.assign(response, { updatedRows, updatedColumns: touchedColumns.size, updatedCells });
  }
  return { tab, box, response };
}

/** values.update, and each ValueRange of values.batchUpdate. */
export function updateValues(
  book: Book,
  range: string,
  body: JsonObject,
  input: InputOption,
  where = 'data',
): Written {
  const resolved = resolveRange(book, range);
  const { tab, bounds } = resolved;
  const rows = inputRows(body, where);
  const origin = { row: bounds.startRow ?? 0, column: bounds.startColumn ?? 0 };
  const height = rows.length;
  const width = Math.max(0, ...rows.map((row) => row.length));
  const singleCell = bounds.endRow === origin.row + 1 && bounds.endColumn === origin.column + 1;
  if (!singleCell && bounds.endRow !== undefined && origin.row + height > bounds.endRow) {
    throw outsideRange(range, `row [${origin.row + height}]`);
  }
  if (!singleCell && bounds.endColumn !== undefined && origin.column + width > bounds.endColumn) {
    throw outsideRange(range, `column [${columnName(origin.column + width - 1)}]`);
  }
  const target = {
    startRow: origin.row,
    endRow: origin.row + Math.max(height, 1),
    startColumn: origin.column,
    endColumn: origin.column + Math.max(width, 1),
  };
  if (target.endRow > tab.rowCount || target.endColumn > tab.columnCount)
    throw exceedsGrid(tab, target);
  return writeValues(book, tab, origin, rows, input);
}

const outsideRange = (range: string, where: string): Error =>
  invalidArgument(`Requested writing within range [${range}], but tried writing to ${where}`);

/** Adds `updatedData` when the request asked for the values back. */
export function withUpdatedData(
  written: Written,
  read: Read,
): sheets_v4.Schema$UpdateValuesResponse {
  if (read('includeValuesInResponse') !== 'true') return written.response;
  const data = valueRange(written.tab, written.box, renderOptions(read, 'response'));
  return { ...written.response, updatedData: data };
}

/** values.clear: removes the values of a range and keeps their formats. */
export function clearValues(book: Book, range: string): sheets_v4.Schema$ClearValuesResponse {
  const resolved = resolveRange(book, range);
  const box = boxOf(resolved);
  for (let r = box.startRow; r < Math.min(box.endRow, resolved.tab.rows.length); r++) {
    for (let c = box.startColumn; c < box.endColumn; c++) {
      const cell = cellAt(resolved.tab, r, c);
      if (cell) setCell(resolved.tab, r, c, overwrite(cell, undefined));
    }
  }
  return { spreadsheetId: book.id, clearedRange: formatRange(resolved.tab.title, box) };
}

export function batchUpdateValues(
  book: Book,
  body: JsonObject,
): sheets_v4.Schema$BatchUpdateValuesResponse {
  const input = inputOption(stringField(body, 'valueInputOption', 'body'));
  const read: Read = (name) => {
    const value = body[name];
    return typeof value === 'string' || typeof value === 'boolean' ? String(value) : undefined;
  };
  const responses = arrayField(body, 'data', 'body').map((entry, i) => {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw invalidArgument(`Invalid data[${i}]`);
    }
    const range = stringField(entry, 'range', `data[${i}]`);
    if (!range) throw invalidArgument(`Invalid data[${i}]: range is required`);
    return { written: updateValues(book, range, entry, input, `data[${i}]`) };
  });
  const updated = responses.filter(({ written }) => (written.response.updatedCells ?? 0) > 0);
  const total = (key: 'updatedRows' | 'updatedColumns' | 'updatedCells'): number =>
    updated.reduce((sum, { written }) => sum + (written.response[key] ?? 0), 0);
  const result: sheets_v4.Schema$BatchUpdateValuesResponse = { spreadsheetId: book.id };
  if (updated.length > 0) {
    Object.assign(result, {
      totalUpdatedRows: total('updatedRows'),
      totalUpdatedColumns: total('updatedColumns'),
      totalUpdatedCells: total('updatedCells'),
      totalUpdatedSheets: new Set(updated.map(({ written }) => written.tab)).size,
    });
  }
  result.responses = responses.map(({ written }) => withUpdatedData(written, read));
  return result;
}

/**
 * The Spreadsheet resource of spreadsheets.get: properties, sheets, developer metadata and, with
 * includeGridData, GridData → RowData → CellData. Zero-valued startRow/startColumn and trailing empty rows and cells
 * are left out, and an empty cell before a filled one is `{}`, as in Google's JSON.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import type { Box } from './a1.ts';
import {
  effectiveValue,
  enteredValue,
  extendedValue,
  formattedValue,
  type StoredCell,
} from './cells.ts';
import { metadataAt, type StoredMetadata } from './developer-metadata.ts';
import { gridBox, hasAnything, trimmedRows, type Tab } from './grid.ts';
import { boxOf, resolveRange, type Book } from './state.ts';

const ERROR_TYPES: Record<string, string> = {
  '#NULL!': 'NULL_VALUE',
  '#DIV/0!': 'DIVIDE_BY_ZERO',
  '#VALUE!': 'VALUE',
  '#REF!': 'REF',
  '#NAME?': 'NAME',
  '#NUM!': 'NUM',
  '#N/A': 'N_A',
  '#ERROR!': 'ERROR',
};

export interface ResourceOptions {
  ranges?: string[];
  includeGridData: boolean;
}

export function spreadsheetResource(
  book: Book,
  options: ResourceOptions,
): sheets_v4.Schema$Spreadsheet {
  const boxes = new Map<Tab, Box[]>();
  if (options.ranges && options.ranges.length > 0) {
    for (const range of options.ranges) {
      const resolved = resolveRange(book, range);
      boxes.set(resolved.tab, [...(boxes.get(resolved.tab) ?? []), boxOf(resolved)]);
    }
  } else {
    for (const tab of book.tabs) boxes.set(tab, [gridBox(tab)]);
  }
  const sheets = book.tabs
    .filter((tab) => boxes.has(tab))
    .map((tab) => {
      const sheet: sheets_v4.Schema$Sheet = { properties: sheetProperties(book, tab) };
      if (options.includeGridData) {
        sheet.data = (boxes.get(tab) ?? []).map((box) => gridData(tab, box, book.metadata));
      }
      const metadata = metadataAt(book.metadata, { sheetId: tab.sheetId });
      if (metadata.length > 0) sheet.developerMetadata = metadata;
      return sheet;
    });
  const metadata = metadataAt(book.metadata, { spreadsheet: true });
  return {
    spreadsheetId: book.id,
    properties: {
      title: book.title,
      locale: 'en_US',
      autoRecalc: 'ON_CHANGE',
      timeZone: 'Etc/GMT',
    },
    sheets,
    spreadsheetUrl: `https://docs.google.com/spreadsheets/d/${book.id}/edit`,
    ...(metadata.length > 0 ? { developerMetadata: metadata } : {}),
  };
}

function sheetProperties(book: Book, tab: Tab): sheets_v4.Schema$SheetProperties {
  return {
    sheetId: tab.sheetId,
    title: tab.title,
    index: book.tabs.indexOf(tab),
    sheetType: 'GRID',
    gridProperties: { rowCount: tab.rowCount, columnCount: tab.columnCount },
  };
}

export function gridData(
  tab: Tab,
  box: Box,
  metadata: StoredMetadata[] = [],
): sheets_v4.Schema$GridData {
  const data: sheets_v4.Schema$GridData = {};
  if (box.startRow > 0) data.startRow = box.startRow;
  if (box.startColumn > 0) data.startColumn = box.startColumn;
  const rows = trimmedRows(tab, box, hasAnything);
  if (rows.length > 0) {
    data.rowData = rows.map((cells) => (cells.length ? { values: cells.map(cellData) } : {}));
  }
  // A row's developer metadata is answered in its DimensionProperties, as Google does.
  data.rowMetadata = Array.from({ length: box.endRow - box.startRow }, (_, i) => {
    const onRow = metadataAt(metadata, { sheetId: tab.sheetId, row: box.startRow + i });
    return onRow.length > 0 ? { pixelSize: 21, developerMetadata: onRow } : { pixelSize: 21 };
  });
  data.columnMetadata = Array.from({ length: box.endColumn - box.startColumn }, () => ({
    pixelSize: 100,
  }));
  return data;
}

export function cellData(cell: StoredCell | undefined): sheets_v4.Schema$CellData {
  if (!cell) return {};
  const data: sheets_v4.Schema$CellData = {};
  if (cell.entered) data.userEnteredValue = enteredValue(cell.entered);
  const value = effectiveValue(cell);
  if (value !== null) {
    const errorType = typeof value === 'string' ? ERROR_TYPES[value] : undefined;
    const isFormula = cell.entered !== undefined && 'formula' in cell.entered;
    data.effectiveValue =
      errorType && isFormula
        ? { errorValue: { type: errorType, message: '' } }
        : extendedValue(value);
  }
  const formatted = formattedValue(cell);
  if (formatted !== undefined) data.formattedValue = formatted;
  if (cell.format) data.userEnteredFormat = { numberFormat: { ...cell.format } };
  data.effectiveFormat = effectiveFormat(cell, typeof value);
  if (cell.note !== undefined) data.note = cell.note;
  return data;
}

/** Google's default cell format, with the cell's number format and its type's alignment. */
function effectiveFormat(cell: StoredCell, valueType: string): sheets_v4.Schema$CellFormat {
  const white = { red: 1, green: 1, blue: 1 };
  const format: sheets_v4.Schema$CellFormat = {};
  if (cell.format) format.numberFormat = { ...cell.format };
  const alignment = { number: 'RIGHT', boolean: 'CENTER' }[valueType] ?? 'LEFT';
  return {
    ...format,
    backgroundColor: white,
    padding: { top: 2, right: 3, bottom: 2, left: 3 },
    horizontalAlignment: alignment,
    verticalAlignment: 'BOTTOM',
    wrapStrategy: 'OVERFLOW_CELL',
    textFormat: {
      foregroundColor: {},
      fontFamily: 'Arial',
      fontSize: 10,
      bold: false,
      italic: false,
      strikethrough: false,
      underline: false,
      foregroundColorStyle: { rgbColor: {} },
    },
    hyperlinkDisplayType: 'PLAIN_TEXT',
    backgroundColorStyle: { rgbColor: white },
  };
}

import { open } from 'node:fs/promises';
import type ExcelJS from 'exceljs';
import {
  dateCell,
  isStorableText,
  serialEpochs,
  type Cell,
  type DateSystem,
} from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { readEveryTab, type EveryTab } from './every-tab.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import type { SheetFile } from './sheet-file.ts';
import { boundsWatcher, checkExtent, type WorkbookBounds } from './workbook-bounds.ts';
import { readEntryText, readZipDirectory } from './zip-archive.ts';
import { checkUnzippedSize } from './zip-size.ts';

const dayMs = 86_400_000;
const chunkRows = 1000;

/** Bounds on what a workbook may unpack to and hold, checked before ExcelJS reads it. */
export interface XlsxBounds extends WorkbookBounds {
  maxUnzippedBytes: number;
}

/** A workbook read whole, with how to turn the dates ExcelJS hands over back into serials. */
interface Workbook {
  worksheets: ExcelJS.Worksheet[];
  /** ExcelJS's kinds of cell value. */
  valueType: typeof ExcelJS.ValueType;
  /** The date system the file declares. */
  system: DateSystem;
  /** The one ExcelJS applied when it made Dates of serials. */
  readAs: DateSystem;
  bounds: XlsxBounds;
}

/**
 * Reads one worksheet of an XLSX workbook, keeping each cell's type: numbers, text, booleans,
 * dates, and the value a formula last computed. ExcelJS reads the workbook whole, so what it
 * may unpack to and the cells it may hold are checked first, from the zip and the worksheets'
 * XML as they stream; the rows are then handed on in chunks, empty ones made only as they go.
 */
export async function readXlsx(
  path: string,
  tab: string | undefined,
  bounds: XlsxBounds,
): Promise<SheetFile> {
  const workbook = await readWorkbook(path, bounds);
  const tabs = workbook.worksheets.map((sheet) => sheet.name);
  const worksheet =
    tab === undefined
      ? workbook.worksheets[0]
      : workbook.worksheets.find((sheet) => sheet.name === tab);
  if (worksheet === undefined) {
    throw new Problem(
      'invalid-upload',
      tab === undefined
        ? 'The workbook has no worksheet.'
        : `The workbook has no worksheet named "${tab}"; its worksheets are ${tabs.map((t) => `"${t}"`).join(', ')}.`,
      { tabs },
    );
  }
  return worksheetFile(worksheet, workbook);
}

/** Reads every worksheet of a workbook, from one read of the file. */
export async function readXlsxTabs(path: string, bounds: XlsxBounds): Promise<EveryTab<SheetFile>> {
  const workbook = await readWorkbook(path, bounds);
  const byName = new Map(workbook.worksheets.map((sheet) => [sheet.name, sheet]));
  return readEveryTab([...byName.keys()], (tab) =>
    worksheetFile(byName.get(tab) as ExcelJS.Worksheet, workbook),
  );
}

async function readWorkbook(path: string, bounds: XlsxBounds): Promise<Workbook> {
  const handle = await open(path);
  let system: DateSystem;
  try {
    const entries = await readZipDirectory(handle);
    await checkUnzippedSize(path, entries, bounds.maxUnzippedBytes, boundsWatcher(bounds));
    system = declaredDateSystem(
      await readEntryText(path, entries, 'xl/workbook.xml', bounds.maxUnzippedBytes),
    );
  } finally {
    await handle.close();
  }
  // ExcelJS takes most of a second to load: it is loaded by the first workbook, not at start-up.
  const { default: Excel } = await import('exceljs');
  const workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new Problem(
      'invalid-upload',
      `The XLSX file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return {
    worksheets: workbook.worksheets,
    valueType: Excel.ValueType,
    system,
    // A damaged workbook can come through ExcelJS without its properties.
    readAs: workbook.properties?.date1904 === true ? 1904 : 1900,
    bounds,
  };
}

/**
 * The date system `<workbookPr date1904>` declares. ExcelJS reads only `"1"` as true, while
 * LibreOffice writes `"true"` (both are XML booleans): taking ExcelJS's word would put every
 * date of such a workbook four years early.
 */
function declaredDateSystem(workbookXml: string | null): DateSystem {
  const flag = /<(?:\w+:)?workbookPr\b[^>]*?\bdate1904\s*=\s*["']([^"']*)["']/.exec(
    workbookXml ?? '',
  )?.[1];
  return flag === '1' || flag === 'true' ? 1904 : 1900;
}

function worksheetFile(worksheet: ExcelJS.Worksheet, workbook: Workbook): SheetFile {
  const header = worksheet.findRow(1);
  const columns = columnsFromHeader(
    header === undefined ? [] : rowCells(header, worksheet, workbook),
  );
  // One pass over the rows the file has (`eachRow` skips the others, where `getRow` would make
  // them), to refuse a bad cell before anything is written and to find the last row with data:
  // rows that only carry formatting below the data are not rows of the sheet.
  let lastRow = 1;
  worksheet.eachRow((row, rowNumber) => {
    if (rowNumber === 1) return;
    const cells = rowCells(row, worksheet, workbook);
    checkRowWidth(cells, columns.length, rowNumber);
    if (cells.some((cell) => cell !== null)) lastRow = rowNumber;
  });
  // What the XML scan could not see (a reference it could not read) is held to the same bounds.
  checkExtent({ lastRow, lastColumn: columns.length }, workbook.bounds);
  return {
    columns,
    tab: worksheet.name,
    rows: (async function* () {
      let chunk: Cell[][] = [];
      for (let rowNumber = 2; rowNumber <= lastRow; rowNumber++) {
        const row = worksheet.findRow(rowNumber);
        const cells = row === undefined ? [] : rowCells(row, worksheet, workbook);
        chunk.push(columns.map((_, index) => cells[index] ?? null));
        if (chunk.length >= chunkRows) {
          yield chunk;
          chunk = [];
        }
      }
      if (chunk.length > 0) yield chunk;
    })(),
  };
}

/** A row's cells by position, up to its last cell; gaps are empty cells. */
function rowCells(row: ExcelJS.Row, worksheet: ExcelJS.Worksheet, workbook: Workbook): Cell[] {
  const cells: Cell[] = [];
  row.eachCell({ includeEmpty: false }, (cell, columnNumber) => {
    const value = cellValue(cell, workbook);
    if (typeof value === 'string' && !isStorableText(value)) {
      throw new Problem(
        'invalid-upload',
        `Cell ${cell.address} of tab "${worksheet.name}" holds a NUL character or a lone surrogate, which a sheet cannot hold; is the workbook damaged?`,
      );
    }
    cells[columnNumber - 1] = value;
  });
  return Array.from(cells, (cell) => cell ?? null);
}

function cellValue(cell: ExcelJS.Cell, workbook: Workbook): Cell {
  if (cell.type === workbook.valueType.Merge) return null;
  const value = cell.type === workbook.valueType.Formula ? cell.result : cell.value;
  if (value instanceof Date) {
    // ExcelJS turned the serial into a Date as if on UTC; turn it back, then read it as typed.
    const serial = (value.getTime() - serialEpochs[workbook.readAs]) / dayMs;
    return dateCell(serial, {
      showsTime: formatShowsTime(cell.numFmt ?? ''),
      system: workbook.system,
    });
  }
  return scalar(value);
}

/**
 * Whether a number format shows a time of day: `h`, `s` or an AM/PM marker outside quoted text,
 * escaped characters and bracketed colours or locales (`[h]` elapsed hours count).
 */
export function formatShowsTime(format: string): boolean {
  const tokens = format.replace(/"[^"]*"|\\.|_.|\*./g, '').replace(/\[(?![hms]+\])[^\]]*\]/gi, '');
  return /[hs]|am\/pm|a\/p/i.test(tokens);
}

function scalar(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) {
      return value.richText.map((run: { text?: string }) => run.text ?? '').join('') || null;
    }
    if ('error' in value) return String(value.error);
    if ('text' in value) return scalar(value.text);
    if ('result' in value) return scalar(value.result);
  }
  return String(value);
}

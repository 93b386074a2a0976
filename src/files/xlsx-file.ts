import { open } from 'node:fs/promises';
import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { readEveryTab, type EveryTab } from './every-tab.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import type { MergedRange } from './sheet-extent.ts';
import type { SheetFile } from './sheet-file.ts';
import { boundsWatcher, checkExtent, type WorkbookBounds } from './workbook-bounds.ts';
import { readWorkbookParts, type WorkbookParts } from './workbook-parts.ts';
import { worksheetRows } from './worksheet-rows.ts';
import { readZipDirectory } from './zip-archive.ts';
import { checkUnzippedSize } from './zip-size.ts';

export { formatShowsTime } from './workbook-parts.ts';

const chunkRows = 1000;

/** Bounds on what a workbook may unpack to and span, checked before its rows are read. */
export interface XlsxBounds extends WorkbookBounds {
  maxUnzippedBytes: number;
}

/** A workbook measured and its shared parts read, its worksheets' rows not yet. */
interface Workbook {
  path: string;
  parts: WorkbookParts;
  merged: Map<string, MergedRange[]>;
  bounds: XlsxBounds;
}

type Worksheet = WorkbookParts['sheets'][number];

/**
 * Reads one worksheet of an XLSX workbook, keeping each cell's type: numbers, text, booleans,
 * dates, and the value a formula last computed. The workbook is measured first, from its zip
 * directory and its XML as it inflates; the worksheet's rows are then read as a stream and
 * handed on in chunks, the empty rows between data rows made only as they go.
 */
export async function readXlsx(
  path: string,
  tab: string | undefined,
  bounds: XlsxBounds,
): Promise<SheetFile> {
  const workbook = await readWorkbook(path, bounds);
  const { sheets } = workbook.parts;
  const worksheet = tab === undefined ? sheets[0] : sheets.find((sheet) => sheet.name === tab);
  if (worksheet === undefined) {
    const tabs = sheets.map((sheet) => sheet.name);
    throw new Problem(
      'invalid-upload',
      tab === undefined
        ? 'The workbook has no worksheet.'
        : `The workbook has no worksheet named "${tab}"; its worksheets are ${tabs.map((t) => `"${t}"`).join(', ')}.`,
      { tabs },
    );
  }
  return worksheetFile(worksheet, await headerOf(worksheet, workbook), workbook);
}

/**
 * Reads every worksheet of a workbook, measuring the file once. A tab with a value right of its
 * header is skipped as one with an unusable header is, so each tab's rows are checked in one
 * streamed pass (holding nothing) before any sheet is made, then read again as they are stored.
 */
export async function readXlsxTabs(path: string, bounds: XlsxBounds): Promise<EveryTab<SheetFile>> {
  const workbook = await readWorkbook(path, bounds);
  const opened = new Map<string, () => SheetFile>();
  for (const worksheet of workbook.parts.sheets) {
    // A name listed twice is one tab, as it always was.
    opened.set(worksheet.name, await checkedWorksheet(worksheet, workbook));
  }
  return readEveryTab([...opened.keys()], (tab) => (opened.get(tab) as () => SheetFile)());
}

/** A worksheet's file, or the header problem it will be refused with, found by reading it all. */
async function checkedWorksheet(
  worksheet: Worksheet,
  workbook: Workbook,
): Promise<() => SheetFile> {
  try {
    const file = worksheetFile(worksheet, await headerOf(worksheet, workbook), workbook);
    for await (const rows of readRows(worksheet, workbook)) {
      for (const { number, cells } of rows) {
        if (number > 1) checkRowWidth(cells, file.columns.length, number);
      }
    }
    return () => file;
  } catch (error) {
    if (!(error instanceof Problem && error.code === 'invalid-header')) throw error;
    return () => {
      throw error;
    };
  }
}

async function readWorkbook(path: string, bounds: XlsxBounds): Promise<Workbook> {
  const handle = await open(path);
  const merged = new Map<string, MergedRange[]>();
  try {
    const entries = await readZipDirectory(handle);
    await checkUnzippedSize(path, entries, bounds.maxUnzippedBytes, boundsWatcher(bounds, merged));
    return { path, parts: await readWorkbookParts(path, entries), merged, bounds };
  } finally {
    await handle.close();
  }
}

/** The cells of row 1, read up to the end of the first row the worksheet has. */
async function headerOf(worksheet: Worksheet, workbook: Workbook): Promise<Cell[]> {
  for await (const rows of readRows(worksheet, workbook)) {
    const first = rows[0];
    if (first !== undefined) return first.number === 1 ? first.cells : [];
  }
  return [];
}

function readRows(worksheet: Worksheet, workbook: Workbook) {
  const merged = workbook.merged.get(worksheet.entry.name) ?? [];
  return worksheetRows(workbook.path, worksheet, workbook.parts, merged);
}

function worksheetFile(worksheet: Worksheet, header: Cell[], workbook: Workbook): SheetFile {
  const columns = columnsFromHeader(header);
  return { columns, tab: worksheet.name, rows: dataRows(worksheet, columns.length, workbook) };
}

/**
 * The rows below the header, in chunks. A row without content is held back as a count until a
 * row with content follows it: rows that only carry formatting below the data are no rows of
 * the sheet. Each row with content is checked (its width, and how far down it sits) before the
 * empty rows above it are made.
 */
async function* dataRows(
  worksheet: Worksheet,
  width: number,
  workbook: Workbook,
): AsyncGenerator<Cell[][]> {
  let chunk: Cell[][] = [];
  let next = 2;
  for await (const rows of readRows(worksheet, workbook)) {
    for (const { number, cells } of rows) {
      if (number === 1) continue;
      checkRowWidth(cells, width, number);
      if (!cells.some((cell) => cell !== null)) continue;
      // What the XML scan could not see (a reference it could not read) meets the same bounds.
      checkExtent({ lastRow: number, lastColumn: width }, workbook.bounds);
      for (; next < number; next++) {
        chunk.push(Array.from({ length: width }, () => null));
        if (chunk.length >= chunkRows) {
          yield chunk;
          chunk = [];
        }
      }
      chunk.push(Array.from({ length: width }, (_, index) => cells[index] ?? null));
      next = number + 1;
      if (chunk.length >= chunkRows) {
        yield chunk;
        chunk = [];
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

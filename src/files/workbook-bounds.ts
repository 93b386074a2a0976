import { StringDecoder } from 'node:string_decoder';
import { Problem } from '../errors/problem.ts';
import { extentScanner, type Extent, type MergedRange } from './sheet-extent.ts';
import type { ZipEntry } from './zip-archive.ts';

/** What a workbook may span and hold, checked before its rows are read. */
export interface WorkbookBounds {
  /** Columns of a sheet (`SHEETPORT_MAX_COLUMNS`). */
  maxColumns: number;
  /** Cells of a worksheet's extent, last row × last column, and rows and cells held in all. */
  maxCells: number;
}

/** 2,000,000 cells: a sheet of 40,000 rows of 50. */
export const defaultMaxCells = 2_000_000;
/** A worksheet nests about 8 deep (worksheet, sheetData, row, c, is, r, t); extensions a few more. */
const maxDepth = 64;

/** The parts whose extent the scan checks: the only ones read as worksheets. */
export const worksheetPart = /^xl\/worksheets\/[^/]+\.xml$/;

/**
 * Watches a workbook's XML parts as the size check inflates them, refusing one nested deeper
 * than any spreadsheet writes and a worksheet whose extent or cells pass the bounds: a 4 KB
 * sheet with one cell at row 1,048,576 under 500 named columns is half a billion cells.
 */
export function boundsWatcher(
  bounds: WorkbookBounds,
  /** Given each worksheet's merged ranges, by the name of its XML's entry. */
  merged = new Map<string, MergedRange[]>(),
) {
  let held = 0;
  return (entry: ZipEntry) => {
    if (!/\.(xml|rels|vml)$/i.test(entry.name)) return undefined;
    const scanner = extentScanner();
    const decoder = new StringDecoder('utf8');
    return {
      data: (chunk: Buffer) => {
        scanner.push(decoder.write(chunk));
        checkDepth(entry.name, scanner.extent);
      },
      end: () => {
        scanner.push(decoder.end());
        checkDepth(entry.name, scanner.extent);
        if (!worksheetPart.test(entry.name)) return;
        checkExtent(scanner.extent, bounds);
        merged.set(entry.name, scanner.merged);
        // Every row and cell element, formatting-only ones too, as a whole-workbook reader
        // would build them: the bound stays what it was when workbooks were read whole.
        held += scanner.extent.held;
        if (held > bounds.maxCells) {
          throw tooManyCells(bounds.maxCells, `${held} rows and cells in its worksheets' XML`);
        }
      },
    };
  };
}

function checkDepth(name: string, extent: Extent): void {
  if (extent.depth > maxDepth) {
    throw new Problem(
      'invalid-upload',
      `The XLSX file is refused: "${name}" nests its XML more than ${maxDepth} deep, which no spreadsheet program writes.`,
    );
  }
}

/** A worksheet's far corner, checked against the bounds; also as each row with content is read. */
export function checkExtent(
  { lastRow, lastColumn }: Pick<Extent, 'lastRow' | 'lastColumn'>,
  bounds: WorkbookBounds,
): void {
  if (lastColumn > bounds.maxColumns) {
    throw new Problem(
      'limit-exceeded',
      `A sheet may have at most ${bounds.maxColumns} columns; this worksheet has cells in column ${lastColumn}.`,
      { limit: 'columnsPerSheet', max: bounds.maxColumns },
    );
  }
  if (lastRow * lastColumn > bounds.maxCells) {
    throw tooManyCells(
      bounds.maxCells,
      `a cell in row ${lastRow} and one in column ${lastColumn}, ${lastRow * lastColumn} cells`,
    );
  }
}

function tooManyCells(max: number, what: string): Problem {
  return new Problem(
    'limit-exceeded',
    `A workbook may span at most ${max} cells, its rows times its columns; this one has ${what}. Save it as CSV, which streams, or split it.`,
    { limit: 'workbookCells', max },
  );
}

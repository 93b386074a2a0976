/**
 * spreadsheets.batchUpdate: the requests are applied in order to a copy of the spreadsheet that
 * the server commits only if every one of them is valid, so one bad request changes nothing.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import { formatRange, type Box } from './a1.ts';
import { cellMask, rowsOf, writeRows } from './cell-data.ts';
import { onSheet } from './developer-metadata.ts';
import { afterDelete, afterInsert, afterMove, remapRows } from './row-metadata.ts';
import { invalidArgument, invalidRequest } from './errors.ts';
import {
  deleteColumns,
  deleteRows,
  endOfData,
  growTo,
  insertColumns,
  insertRows,
  moveRows,
  type Tab,
} from './grid.ts';
import {
  arrayField,
  booleanField,
  integerField,
  isObject,
  objectField,
  stringField,
  type JsonObject,
} from './json.ts';
import { metadataRequests } from './metadata-requests.ts';
import { spreadsheetResource } from './spreadsheet-resource.ts';
import type { Book } from './state.ts';

/** Applies one request to the draft; what it returns is its reply, `{}` when nothing. */
type Apply = (book: Book, request: JsonObject, fail: (message: string) => Error) => object | void;

const requestKinds: Record<string, Apply> = {
  ...metadataRequests,
  deleteSheet(book, request, fail) {
    const tab = tabById(book, integerField(request, 'sheetId', 'deleteSheet'), fail);
    if (book.tabs.length === 1) throw fail("You can't remove all the sheets in a document.");
    book.tabs = book.tabs.filter((candidate) => candidate !== tab);
    // A sheet's metadata goes with it, on the sheet and on its rows.
    book.metadata = book.metadata.filter((entry) => !onSheet(entry.location, tab.sheetId));
  },
  appendCells(book, request, fail) {
    const tab = tabById(book, integerField(request, 'sheetId', 'appendCells'), fail);
    const mask = cellMask(request, fail);
    const rows = rowsOf(request, fail);
    const start = endOfData(tab);
    growTo(tab, start + rows.length, Math.max(0, ...rows.map((row) => row.length)));
    writeRows(
      tab,
      { startRow: start, startColumn: 0, endRow: tab.rowCount, endColumn: tab.columnCount },
      rows,
      mask,
      false,
    );
  },
  updateCells(book, request, fail) {
    const mask = cellMask(request, fail);
    const rows = rowsOf(request, fail);
    const range = objectField(request, 'range', 'updateCells');
    const start = objectField(request, 'start', 'updateCells');
    if (!range === !start) throw fail('Exactly one of range or start must be set.');
    if (start) {
      const tab = tabById(book, integerField(start, 'sheetId', 'start'), fail);
      const row = integerField(start, 'rowIndex', 'start') ?? 0;
      const column = integerField(start, 'columnIndex', 'start') ?? 0;
      const width = Math.max(1, ...rows.map((cells) => cells.length));
      const box = {
        startRow: row,
        endRow: row + Math.max(rows.length, 1),
        startColumn: column,
        endColumn: column + width,
      };
      checkInside(tab, box, box, fail);
      writeRows(tab, box, rows, mask, false);
      return;
    }
    const grid = range ?? {};
    const tab = tabById(book, integerField(grid, 'sheetId', 'range'), fail);
    const bounds = {
      startRow: integerField(grid, 'startRowIndex', 'range'),
      endRow: integerField(grid, 'endRowIndex', 'range'),
      startColumn: integerField(grid, 'startColumnIndex', 'range'),
      endColumn: integerField(grid, 'endColumnIndex', 'range'),
    };
    const box = {
      startRow: bounds.startRow ?? 0,
      endRow: Math.min(bounds.endRow ?? tab.rowCount, tab.rowCount),
      startColumn: bounds.startColumn ?? 0,
      endColumn: Math.min(bounds.endColumn ?? tab.columnCount, tab.columnCount),
    };
    checkInside(tab, box, bounds, fail);
    writeRows(tab, box, rows, mask, true);
  },
  deleteDimension(book, request, fail) {
    const { tab, dimension, start, end } = dimensionRange(book, request, fail);
    const count = dimension === 'ROWS' ? tab.rowCount : tab.columnCount;
    const noun = dimension === 'ROWS' ? 'row' : 'column';
    if (end > count) {
      throw fail(
        `Cannot delete a ${noun} that doesn't exist. Tried to delete ${noun} index ${end - 1} but there are only ${count} ${noun}s.`,
      );
    }
    if (start === 0 && end === count) {
      throw fail(`Sorry, it is not possible to delete all non-frozen ${noun}s.`);
    }
    if (dimension === 'ROWS') {
      deleteRows(tab, start, end);
      book.metadata = remapRows(book.metadata, tab.sheetId, afterDelete(start, end));
    } else deleteColumns(tab, start, end);
  },
  insertDimension(book, request, fail) {
    const { tab, dimension, start, end, bounded } = dimensionRange(book, request, fail);
    if (!bounded) throw fail('range must have both startIndex and endIndex set.');
    const count = dimension === 'ROWS' ? tab.rowCount : tab.columnCount;
    if (start > count) {
      throw fail(
        `range.startIndex (${start}) must be at most the ${dimension === 'ROWS' ? 'row' : 'column'} count (${count}).`,
      );
    }
    if (booleanField(request, 'inheritFromBefore') && start === 0) {
      throw fail('Cannot inherit from before when inserting at index 0.');
    }
    if (dimension === 'ROWS') {
      insertRows(tab, start, end - start);
      book.metadata = remapRows(book.metadata, tab.sheetId, afterInsert(start, end - start));
    } else insertColumns(tab, start, end - start);
  },
  moveDimension(book, request, fail) {
    const source = { range: objectField(request, 'source', 'moveDimension') ?? {} };
    const { tab, dimension, start, end } = dimensionRange(book, source, fail);
    const destination = integerField(request, 'destinationIndex', 'moveDimension') ?? 0;
    if (dimension !== 'ROWS') throw fail('Moving columns is not supported by the emulator.');
    if (end > tab.rowCount || destination > tab.rowCount || destination < 0) {
      throw fail(`Invalid moveDimension: rows ${start} to ${end} to ${destination}.`);
    }
    moveRows(tab, start, end, destination);
    book.metadata = remapRows(book.metadata, tab.sheetId, afterMove(start, end, destination));
  },
  appendDimension(book, request, fail) {
    const tab = tabById(book, integerField(request, 'sheetId', 'appendDimension'), fail);
    const dimension = dimensionOf(stringField(request, 'dimension', 'appendDimension'), fail);
    const length = integerField(request, 'length', 'appendDimension') ?? 0;
    if (length <= 0) throw fail('length must be greater than 0.');
    if (dimension === 'ROWS') tab.rowCount += length;
    else tab.columnCount += length;
  },
};

export function applyBatchUpdate(
  book: Book,
  body: JsonObject,
): { response: sheets_v4.Schema$BatchUpdateSpreadsheetResponse; requestCount: number } {
  const requests = arrayField(body, 'requests', 'body');
  const replies = requests.map((request, index): sheets_v4.Schema$Response => {
    const kinds = isObject(request) ? Object.keys(request) : [];
    const kind = kinds[0];
    if (kind === undefined || kinds.length > 1) {
      throw invalidArgument(`Invalid requests[${index}]: exactly one kind of request must be set.`);
    }
    const apply = requestKinds[kind];
    const params = isObject(request) ? request[kind] : undefined;
    if (!apply) {
      throw invalidArgument(
        `Invalid JSON payload received. Unknown name "${kind}" at 'requests[${index}]': not supported by the emulator.`,
      );
    }
    const fail = (message: string) => invalidRequest(index, kind, message);
    const reply = apply(book, isObject(params) ? params : {}, fail);
    return reply ? { [kind]: reply } : {};
  });
  const metadataChars = book.metadata.reduce(
    (sum, entry) => sum + entry.metadataKey.length + entry.metadataValue.length,
    0,
  );
  if (book.metadataCharsCap !== undefined && metadataChars > book.metadataCharsCap) {
    // Google publishes no such limit; a cap lets tests hold Sheetport to a budget of its own.
    throw invalidArgument(
      `The spreadsheet's developer metadata would hold ${metadataChars} characters, over its cap of ${book.metadataCharsCap}.`,
    );
  }
  const response: sheets_v4.Schema$BatchUpdateSpreadsheetResponse = {
    spreadsheetId: book.id,
    replies,
  };
  if (booleanField(body, 'includeSpreadsheetInResponse')) {
    const ranges = arrayField(body, 'responseRanges', 'body').filter(
      (r): r is string => typeof r === 'string',
    );
    response.updatedSpreadsheet = spreadsheetResource(book, {
      ranges,
      includeGridData: booleanField(body, 'responseIncludeGridData'),
    });
  }
  return { response, requestCount: requests.length };
}

/** A request's sheetId; an unset one is 0, the proto default, as in Sheets. */
function tabById(book: Book, sheetId: number | undefined, fail: (m: string) => Error): Tab {
  const tab = book.tabs.find((candidate) => candidate.sheetId === (sheetId ?? 0));
  if (!tab) throw fail(`No grid with id: ${sheetId ?? 0}`);
  return tab;
}

function dimensionOf(value: string | undefined, fail: (m: string) => Error): 'ROWS' | 'COLUMNS' {
  if (value === 'ROWS' || value === 'COLUMNS') return value;
  throw fail(`range.dimension must be ROWS or COLUMNS, not ${value ?? 'DIMENSION_UNSPECIFIED'}.`);
}

function dimensionRange(book: Book, request: JsonObject, fail: (m: string) => Error) {
  const range = objectField(request, 'range', 'request') ?? {};
  const tab = tabById(book, integerField(range, 'sheetId', 'range'), fail);
  const dimension = dimensionOf(stringField(range, 'dimension', 'range'), fail);
  const startIndex = integerField(range, 'startIndex', 'range');
  const endIndex = integerField(range, 'endIndex', 'range');
  const start = startIndex ?? 0;
  const end = endIndex ?? (dimension === 'ROWS' ? tab.rowCount : tab.columnCount);
  if (start < 0 || end < start)
    throw fail(`Invalid dimension range: startIndex ${start}, endIndex ${end}.`);
  return {
    tab,
    dimension,
    start,
    end,
    bounded: startIndex !== undefined && endIndex !== undefined,
  };
}

function checkInside(tab: Tab, box: Box, named: Partial<Box>, fail: (m: string) => Error): void {
  if (
    box.startRow >= tab.rowCount ||
    box.startColumn >= tab.columnCount ||
    box.endRow > tab.rowCount ||
    box.endColumn > tab.columnCount
  ) {
    throw fail(
      `Range (${formatRange(tab.title, named)}) exceeds grid limits. Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
    );
  }
}

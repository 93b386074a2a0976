/**
 * The workbook operations on worksheets and ranges, run on one workbook (the file's, or a
 * non-persistent session's copy). Each checks everything it was given before it changes a cell,
 * so a refused request changes nothing.
 */
import { formatAddress, MAX_ROWS, parseAddress, type Box } from './a1.ts';
import type { Workbook } from './drive.ts';
import {
  invalidArgument,
  methodNotAllowed,
  nonBlankCellOffSheet,
  rangeExceedsLimit,
  workbookItemNotFound,
} from './errors.ts';
import { findName } from './names-api.ts';
import { patchRange } from './range-write.ts';
import type { GraphRoute, SheetRef } from './routes.ts';
import {
  clearBox,
  deleteUp,
  insertDown,
  rangeResource,
  usedBox,
  type Worksheet,
} from './worksheet.ts';

/** The emulator's own ceiling on cells in one answer (Graph's own limit is not published). */
export const MAX_CELLS_READ = 200_000;

export interface Answer {
  status: number;
  body?: unknown;
}

type SheetRoute = Extract<GraphRoute, { sheet: SheetRef }>;

export function findSheet(workbook: Workbook, ref: SheetRef): Worksheet | undefined {
  const name = ref.text.toLowerCase();
  return workbook.worksheets.find(
    (sheet) => (!ref.quoted && sheet.id === ref.text) || sheet.name.toLowerCase() === name,
  );
}

export function worksheetResource(workbook: Workbook, sheet: Worksheet) {
  const position = workbook.worksheets.indexOf(sheet);
  return { id: sheet.id, name: sheet.name, position, visibility: sheet.visibility };
}

export function listWorksheets(workbook: Workbook): Answer {
  const value = workbook.worksheets.map((sheet) => worksheetResource(workbook, sheet));
  return { status: 200, body: { value } };
}

export function runOnSheet(
  workbook: Workbook,
  route: SheetRoute,
  method: string,
  body: Record<string, unknown>,
): Answer {
  const sheet = findSheet(workbook, route.sheet);
  if (!sheet) throw workbookItemNotFound(`worksheet '${route.sheet.text}'`);
  if (route.op === 'worksheet') return { status: 200, body: worksheetResource(workbook, sheet) };
  if (route.op === 'usedRange') {
    const box = usedBox(sheet, route.valuesOnly) ?? {
      startRow: 0,
      endRow: 1,
      startColumn: 0,
      endColumn: 1,
    };
    return { status: 200, body: read(sheet, box) };
  }
  const box = boxOf(workbook, sheet, route.address);
  if (route.op === 'range') {
    if (method === 'GET') return { status: 200, body: read(sheet, box) };
    if (method !== 'PATCH') throw methodNotAllowed();
    patchRange(sheet, box, body);
    return { status: 200, body: read(sheet, box) };
  }
  return rangeAction(sheet, box, route.action, body);
}

export function rangeAction(
  sheet: Worksheet,
  box: Box,
  action: 'insert' | 'delete' | 'clear',
  body: Record<string, unknown>,
): Answer {
  if (action === 'clear') {
    const applyTo = body['applyTo'] ?? 'All';
    if (applyTo !== 'All' && applyTo !== 'Contents' && applyTo !== 'Formats') {
      throw invalidArgument(
        "The argument 'applyTo' is invalid or missing or has an incorrect format.",
      );
    }
    clearBox(sheet, box, applyTo);
    return { status: 204 };
  }
  const shift = body['shift'];
  const vertical = action === 'insert' ? 'Down' : 'Up';
  const sideways = action === 'insert' ? 'Right' : 'Left';
  if (shift === sideways)
    throw invalidArgument(`shift '${sideways}' is not supported by the emulator.`);
  if (shift !== vertical) {
    throw invalidArgument("The argument 'shift' is invalid or missing or has an incorrect format.");
  }
  if (action === 'delete') {
    deleteUp(sheet, box);
    return { status: 204 };
  }
  if (box.endRow === MAX_ROWS)
    throw invalidArgument('Cannot insert whole columns by shifting down.');
  const height = box.endRow - box.startRow;
  const lastKept = usedBox(sheet, false, box.startColumn, box.endColumn)?.endRow ?? 0;
  if (lastKept + height > MAX_ROWS) throw nonBlankCellOffSheet();
  // The answer is the blank range inserted: one the emulator will not answer is refused before
  // anything moves.
  checkReadable(sheet, box);
  insertDown(sheet, box);
  return { status: 200, body: read(sheet, box) };
}

/** The box an address names: an A1 address, or a workbook name that refers to this worksheet. */
function boxOf(workbook: Workbook, sheet: Worksheet, address: string): Box {
  const parsed = parseAddress(address);
  if (!parsed) {
    const named = findName(workbook, address);
    if (named?.sheet === sheet && named.defined.box !== null) return named.defined.box;
    throw invalidArgument('The argument is invalid or missing or has an incorrect format.');
  }
  if (parsed.sheet !== undefined && parsed.sheet.toLowerCase() !== sheet.name.toLowerCase()) {
    throw invalidArgument(`The address ${address} is not on worksheet ${sheet.name}.`);
  }
  return parsed.box;
}

export const readBox = (sheet: Worksheet, box: Box) => read(sheet, box);

function read(sheet: Worksheet, box: Box) {
  checkReadable(sheet, box);
  return rangeResource(sheet, box);
}

function checkReadable(sheet: Worksheet, box: Box): void {
  const cells = (box.endRow - box.startRow) * (box.endColumn - box.startColumn);
  if (cells > MAX_CELLS_READ) {
    throw rangeExceedsLimit(
      `The range ${formatAddress(sheet.name, box)} has ${cells} cells, more than the emulator answers (${MAX_CELLS_READ}).`,
    );
  }
}

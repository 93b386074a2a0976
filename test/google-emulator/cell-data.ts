/**
 * Writing RowData/CellData into a grid under a CellData field mask, as updateCells and appendCells
 * do: a masked field the data leaves out is cleared, an unmasked one is kept.
 */
import type { Box } from './a1.ts';
import type { Entered, StoredCell } from './cells.ts';
import { invalidArgument } from './errors.ts';
import { cellAt, setCell, type Tab } from './grid.ts';
import {
  arrayField,
  isObject,
  objectField,
  stringField,
  type Json,
  type JsonObject,
} from './json.ts';

export interface CellMask {
  value: boolean;
  numberFormat: boolean;
  note: boolean;
}

const CELL_FIELDS = [
  'userEnteredValue',
  'userEnteredFormat',
  'note',
  'dataValidation',
  'textFormatRuns',
  'pivotTable',
];

/** The `fields` mask, rooted at CellData: `*`, `userEnteredValue`, `userEnteredFormat.numberFormat`… */
export function cellMask(request: JsonObject, fail: (m: string) => Error): CellMask {
  const paths = (stringField(request, 'fields', 'request') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (paths.length === 0) throw fail('At least one field must be specified.');
  for (const path of paths) {
    if (path !== '*' && !CELL_FIELDS.includes(path.split('.')[0] ?? '')) {
      throw invalidArgument(`Invalid field mask: '${path}' is not a field of CellData.`);
    }
  }
  const has = (...names: string[]): boolean => paths.some((p) => p === '*' || names.includes(p));
  return {
    value: has('userEnteredValue'),
    numberFormat: has('userEnteredFormat', 'userEnteredFormat.numberFormat'),
    note: has('note'),
  };
}

export function rowsOf(
  request: JsonObject,
  fail: (m: string) => Error,
): (JsonObject | undefined)[][] {
  return arrayField(request, 'rows', 'request').map((row) => {
    if (!isObject(row)) throw fail('rows must be RowData objects.');
    return arrayField(row, 'values', 'rows').map((cell: Json) =>
      isObject(cell) ? cell : undefined,
    );
  });
}

/**
 * Writes RowData into a box under a mask. With `clearRest` (updateCells with a range) the cells of
 * the box that the rows do not reach are cleared of the masked fields too.
 */
export function writeRows(
  tab: Tab,
  box: Box,
  rows: (JsonObject | undefined)[][],
  mask: CellMask,
  clearRest: boolean,
): void {
  const endRow = clearRest ? box.endRow : Math.min(box.endRow, box.startRow + rows.length);
  for (let r = box.startRow; r < endRow; r++) {
    const cells = rows[r - box.startRow] ?? [];
    const endColumn = clearRest
      ? box.endColumn
      : Math.min(box.endColumn, box.startColumn + cells.length);
    for (let c = box.startColumn; c < endColumn; c++) {
      const data = cells[c - box.startColumn];
      setCell(tab, r, c, masked(cellAt(tab, r, c), data, mask));
    }
  }
}

function masked(
  existing: StoredCell | undefined,
  data: JsonObject | undefined,
  mask: CellMask,
): StoredCell | undefined {
  const cell: StoredCell = { ...existing };
  if (mask.value) {
    const value = data ? objectField(data, 'userEnteredValue', 'values') : undefined;
    if (value) cell.entered = enteredOf(value);
    else delete cell.entered;
  }
  if (mask.numberFormat) {
    const format = data ? objectField(data, 'userEnteredFormat', 'values') : undefined;
    const numberFormat = format
      ? objectField(format, 'numberFormat', 'userEnteredFormat')
      : undefined;
    const type = numberFormat ? stringField(numberFormat, 'type', 'numberFormat') : undefined;
    const pattern = numberFormat ? stringField(numberFormat, 'pattern', 'numberFormat') : undefined;
    if (numberFormat && !type) throw invalidArgument('numberFormat.type must be set when writing.');
    if (type) cell.format = pattern ? { type, pattern } : { type };
    else delete cell.format;
  }
  if (mask.note) {
    const note = data ? stringField(data, 'note', 'values') : undefined;
    if (note) cell.note = note;
    else delete cell.note;
  }
  return cell.entered || cell.format || cell.note !== undefined ? cell : undefined;
}

/** An ExtendedValue to write: stringValue `=1+1` is text, formulaValue is a formula. */
function enteredOf(value: JsonObject): Entered | undefined {
  if (typeof value.numberValue === 'number') return { number: value.numberValue };
  if (typeof value.stringValue === 'string') return { string: value.stringValue };
  if (typeof value.boolValue === 'boolean') return { bool: value.boolValue };
  if (typeof value.formulaValue === 'string') return { formula: value.formulaValue, result: null };
  if ('errorValue' in value) throw invalidArgument('errorValue is read-only.');
  return undefined;
}

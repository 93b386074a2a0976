/**
 * A range PATCH as Excel applies it: `numberFormat` first, then `values` (read as typed input
 * against each cell's format), then `formulas`. Every array is checked before any cell changes.
 */
import type { Box } from './a1.ts';
import { type Cell } from './cell.ts';
import { invalidArgument, wrongDimensions } from './errors.ts';
import { formatAfter, typedInput } from './typed-input.ts';
import { getCell, putCell, type Worksheet } from './worksheet.ts';

type Entry = string | number | boolean | null;

/** One field of the body as a grid of the box's size; a single value applies to every cell. */
function gridOf(body: Record<string, unknown>, field: string, box: Box): Entry[][] | undefined {
  const given = body[field];
  if (given === undefined) return undefined;
  const height = box.endRow - box.startRow;
  const width = box.endColumn - box.startColumn;
  if (!Array.isArray(given)) {
    if (!isEntry(given)) throw invalidArgument(`The argument '${field}' is invalid.`);
    return Array.from({ length: height }, () => Array.from({ length: width }, () => given));
  }
  if (given.length !== height) throw wrongDimensions();
  return given.map((row: unknown) => {
    if (!Array.isArray(row) || row.length !== width) throw wrongDimensions();
    if (!row.every(isEntry)) throw invalidArgument(`The argument '${field}' is invalid.`);
    return row;
  });
}

const isEntry = (value: unknown): value is Entry =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/** The cell after `input` lands in it, as a person typing or a `values` write would put it. */
export function written(cell: Cell, input: string | number | boolean): Cell {
  if (typeof input !== 'string') return { value: input, numberFormat: cell.numberFormat };
  const content = typedInput(input, cell.numberFormat);
  const numberFormat = formatAfter(content, cell.numberFormat);
  return content.formula === undefined
    ? { value: content.value, numberFormat }
    : { value: '', formula: content.formula, numberFormat };
}

export function patchRange(sheet: Worksheet, box: Box, body: Record<string, unknown>): void {
  const formats = gridOf(body, 'numberFormat', box);
  const values = gridOf(body, 'values', box);
  const formulas = gridOf(body, 'formulas', box);
  if (formats?.some((row) => row.some((f) => f !== null && typeof f !== 'string'))) {
    throw invalidArgument("The argument 'numberFormat' is invalid.");
  }
  const each = (
    grid: Entry[][] | undefined,
    put: (cell: Cell, entry: string | number | boolean) => Cell,
  ) =>
    grid?.forEach((row, r) =>
      row.forEach((entry, c) => {
        if (entry === null) return;
        const [rr, cc] = [box.startRow + r, box.startColumn + c];
        putCell(sheet, rr, cc, put(getCell(sheet, rr, cc), entry));
      }),
    );
  each(formats, (cell, format) => ({ ...cell, numberFormat: String(format) }));
  each(values, written);
  each(formulas, written);
}

/**
 * One cell as Excel keeps it: its constant value or its formula, and its number format. Cells are
 * never changed in place (a write puts a new one), so a copied sheet can share them.
 */
export class CellError {
  constructor(readonly code: string) {}
}

export type Scalar = number | string | boolean | CellError;

export interface Cell {
  /** The constant; ignored when there is a formula. '' is no value. */
  value: Scalar;
  /** `=A1+1`; its value is worked out when the cell is read. */
  formula?: string;
  numberFormat: string;
}

export const GENERAL = 'General';
export const TEXT_FORMAT = '@';
export const ERROR_CODES = ['#NULL!', '#DIV/0!', '#VALUE!', '#REF!', '#NAME?', '#NUM!', '#N/A'];

export const emptyCell: Cell = { value: '', numberFormat: GENERAL };

export const hasContent = (cell: Cell | undefined): boolean =>
  cell !== undefined && (cell.formula !== undefined || cell.value !== '');

/** Excel's usedRange counts formatted cells too; `valuesOnly` counts only those with content. */
export const isUsed = (cell: Cell | undefined, valuesOnly: boolean): boolean =>
  hasContent(cell) || (!valuesOnly && cell !== undefined && cell.numberFormat !== GENERAL);

export type ValueType = 'Empty' | 'String' | 'Double' | 'Boolean' | 'Error';

export function valueType(value: Scalar): ValueType {
  if (value instanceof CellError) return 'Error';
  if (typeof value === 'number') return 'Double';
  if (typeof value === 'boolean') return 'Boolean';
  return value === '' ? 'Empty' : 'String';
}

/** What Graph's `values` shows: errors as their `#DIV/0!` text. */
export const jsonValue = (value: Scalar): number | string | boolean =>
  value instanceof CellError ? value.code : value;

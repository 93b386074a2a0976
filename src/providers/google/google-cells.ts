import type { sheets_v4 } from '@googleapis/sheets';
import { dateCell, type Cell } from '../../cells/cell.ts';

/** A cell as Google holds it: its unformatted value, a date when its number format says so. */
export function cellFromGoogle(cell: sheets_v4.Schema$CellData | undefined): Cell {
  const value = cell?.effectiveValue;
  if (value === undefined || value === null) return null;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (typeof value.stringValue === 'string')
    return value.stringValue === '' ? null : value.stringValue;
  if (typeof value.numberValue === 'number') {
    return numberCell(value.numberValue, cell?.effectiveFormat?.numberFormat?.type ?? undefined);
  }
  if (value.errorValue) return cell?.formattedValue ?? `#${value.errorValue.type ?? 'ERROR'}`;
  return null;
}

/** Google counts dates in days from 1899-12-30, as Excel's 1900 system does. */
function numberCell(serial: number, format: string | undefined): Cell {
  if (format !== 'DATE' && format !== 'DATE_TIME' && format !== 'TIME') return serial;
  return dateCell(serial, { showsTime: format !== 'DATE' });
}

/**
 * A cell to write. Text goes in as a string value, which Google stores as text even when it
 * starts with `=`, `+`, `-` or `@`: never as a formula. An empty cell has no value, which the
 * `userEnteredValue` field mask turns into clearing the cell.
 */
export function cellToGoogle(cell: Cell): sheets_v4.Schema$CellData {
  if (cell === null) return {};
  if (typeof cell === 'number') return { userEnteredValue: { numberValue: cell } };
  if (typeof cell === 'boolean') return { userEnteredValue: { boolValue: cell } };
  return { userEnteredValue: { stringValue: typeof cell === 'string' ? cell : cell.iso } };
}

/**
 * What a cell holds, and the ways the API reads and writes it: the test-facing EmulatorCell, the
 * ExtendedValue of grid data, rendered values of the values API, and USER_ENTERED parsing.
 */
import type { sheets_v4 } from '@googleapis/sheets';
import {
  dateFromSerial,
  formatNumber,
  isDateFormat,
  serialFromDate,
  type NumberFormat,
} from './number-format.ts';

export type CellValue = number | string | boolean;

/**
 * A cell as tests write and read it. `date` is ISO (`2024-01-05`, `2024-01-05T13:45:00Z`) and is
 * stored as a serial number with a DATE or DATE_TIME format; `formula` keeps the value it is given,
 * since the emulator does not evaluate formulas.
 */
export type EmulatorCell =
  CellValue | null | { date: string } | { formula: string; value: CellValue | null };

/** userEnteredValue: exactly one kind, as in an ExtendedValue. */
export type Entered =
  | { number: number }
  | { string: string }
  | { bool: boolean }
  | { formula: string; result: CellValue | null };

export interface StoredCell {
  /** Absent for a cell that holds only a format or a note. */
  entered?: Entered;
  format?: NumberFormat;
  note?: string;
}

export type ValueRenderOption = 'FORMATTED_VALUE' | 'UNFORMATTED_VALUE' | 'FORMULA';
export type DateTimeRenderOption = 'SERIAL_NUMBER' | 'FORMATTED_STRING';

export const DATE_FORMAT: NumberFormat = { type: 'DATE', pattern: 'yyyy-mm-dd' };
export const DATE_TIME_FORMAT: NumberFormat = { type: 'DATE_TIME', pattern: 'yyyy-mm-dd h:mm:ss' };

const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const US_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/** Reads an ISO date or date-time; a time without a zone is taken as UTC, the sheet's zone. */
export function parseIsoDate(text: string): { serial: number; format: NumberFormat } | null {
  const match = ISO_DATE.exec(text);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, zone] = match;
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0));
  if (Number.isNaN(local) || new Date(local).getUTCDate() !== Number(d)) return null;
  let ms = local + Number(s ?? 0) * 1000;
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.replace(':', '').slice(1);
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const format = h === undefined ? DATE_FORMAT : DATE_TIME_FORMAT;
  return { serial: serialFromDate(new Date(ms)), format };
}

export function fromEmulatorCell(cell: EmulatorCell): StoredCell | undefined {
  if (cell === null) return undefined;
  if (typeof cell === 'number') return { entered: { number: cell } };
  if (typeof cell === 'string') return cell === '' ? undefined : { entered: { string: cell } };
  if (typeof cell === 'boolean') return { entered: { bool: cell } };
  if ('date' in cell) {
    const parsed = parseIsoDate(cell.date);
    if (!parsed) throw new Error(`Not an ISO date: ${cell.date}`);
    return { entered: { number: parsed.serial }, format: parsed.format };
  }
  const formula = cell.formula.startsWith('=') ? cell.formula : `=${cell.formula}`;
  return { entered: { formula, result: cell.value } };
}

export function toEmulatorCell(cell: StoredCell | undefined): EmulatorCell {
  const entered = cell?.entered;
  if (!entered) return null;
  if ('formula' in entered) return { formula: entered.formula, value: entered.result };
  if ('number' in entered && isDateFormat(cell.format)) {
    const iso = dateFromSerial(entered.number).toISOString();
    return { date: cell.format?.type === 'DATE' ? iso.slice(0, 10) : `${iso.slice(0, 19)}Z` };
  }
  return literal(entered);
}

function literal(entered: Exclude<Entered, { formula: string }>): CellValue {
  if ('number' in entered) return entered.number;
  if ('string' in entered) return entered.string;
  return entered.bool;
}

/** The value a cell shows: a formula's result, or the literal entered. */
export function effectiveValue(cell: StoredCell | undefined): CellValue | null {
  const entered = cell?.entered;
  if (!entered) return null;
  return 'formula' in entered ? entered.result : literal(entered);
}

export function extendedValue(value: CellValue): sheets_v4.Schema$ExtendedValue {
  if (typeof value === 'number') return { numberValue: value };
  if (typeof value === 'string') return { stringValue: value };
  return { boolValue: value };
}

export function enteredValue(entered: Entered): sheets_v4.Schema$ExtendedValue {
  return 'formula' in entered ? { formulaValue: entered.formula } : extendedValue(literal(entered));
}

export function formattedValue(cell: StoredCell | undefined): string | undefined {
  const value = effectiveValue(cell);
  if (value === null) return undefined;
  if (typeof value === 'number') return formatNumber(value, cell?.format);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return value;
}

/** A cell as the values API renders it; undefined for an empty cell. */
export function renderValue(
  cell: StoredCell | undefined,
  valueRender: ValueRenderOption,
  dateRender: DateTimeRenderOption,
): CellValue | undefined {
  const entered = cell?.entered;
  if (!entered) return undefined;
  if (valueRender === 'FORMATTED_VALUE') return formattedValue(cell);
  if (valueRender === 'FORMULA' && 'formula' in entered) return entered.formula;
  const value = effectiveValue(cell);
  if (value === null) return undefined;
  if (typeof value === 'number' && isDateFormat(cell.format) && dateRender === 'FORMATTED_STRING') {
    return formatNumber(value, cell.format);
  }
  return value;
}

/** A value written with valueInputOption=RAW: stored as given, `"=1+1"` stays text. */
export function rawInput(value: CellValue): StoredCell | undefined {
  if (value === '') return undefined;
  if (typeof value === 'string') return { entered: { string: value } };
  return { entered: typeof value === 'number' ? { number: value } : { bool: value } };
}

const NUMBER = /^[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** A value written with valueInputOption=USER_ENTERED: parsed as if typed into the sheet. */
export function userEnteredInput(value: CellValue): StoredCell | undefined {
  if (typeof value !== 'string') return rawInput(value);
  const text = value.trim();
  if (value === '') return undefined;
  if (value.startsWith("'")) return { entered: { string: value.slice(1) } };
  if (value.startsWith('=') && value.length > 1)
    return { entered: { formula: value, result: null } };
  if (/^(true|false)$/i.test(text)) return { entered: { bool: text.toLowerCase() === 'true' } };
  if (/\d/.test(text) && NUMBER.test(text)) {
    const number = Number(text.replaceAll(',', ''));
    if (!text.includes(',')) return { entered: { number } };
    const decimals = text.split('.')[1]?.length ?? 0;
    const pattern = decimals ? `#,##0.${'0'.repeat(decimals)}` : '#,##0';
    return { entered: { number }, format: { type: 'NUMBER', pattern } };
  }
  const percent = /^([+-]?\d+(?:\.(\d+))?)%$/.exec(text);
  if (percent) {
    const decimals = percent[2]?.length ?? 0;
    const pattern = decimals ? `0.${'0'.repeat(decimals)}%` : '0%';
    return { entered: { number: Number(percent[1]) / 100 }, format: { type: 'PERCENT', pattern } };
  }
  const currency = /^(-?)\$(\d+(?:\.\d+)?)$/.exec(text);
  if (currency) {
    const number = Number(`${currency[1]}${currency[2]}`);
    return { entered: { number }, format: { type: 'CURRENCY', pattern: '"$"#,##0.00' } };
  }
  const iso = parseIsoDate(text);
  if (iso) return { entered: { number: iso.serial }, format: iso.format };
  const us = US_DATE.exec(text);
  if (us) {
    const date = parseIsoDate(`${us[3]}-${us[1]?.padStart(2, '0')}-${us[2]?.padStart(2, '0')}`);
    if (date)
      return { entered: { number: date.serial }, format: { type: 'DATE', pattern: 'M/d/yyyy' } };
  }
  return { entered: { string: value } };
}

/**
 * Writes a value over a cell: the value and any format it brings replace the old ones, while a
 * format the value does not bring (a date format on the column, say) and the note stay.
 */
export function overwrite(
  existing: StoredCell | undefined,
  incoming: StoredCell | undefined,
): StoredCell | undefined {
  const format = incoming?.format ?? existing?.format;
  const note = existing?.note;
  if (!incoming?.entered && !format && note === undefined) return undefined;
  const cell: StoredCell = {};
  if (incoming?.entered) cell.entered = incoming.entered;
  if (format) cell.format = format;
  if (note !== undefined) cell.note = note;
  return cell;
}

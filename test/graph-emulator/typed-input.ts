/**
 * A string written to `values` (or typed by a person) read as Excel reads typed input: numbers,
 * percentages, TRUE/FALSE, dates and times, `=` formulas and error codes become what they look
 * like; a leading `'` or a text (`@`) number format keeps the string as it is.
 */
import { CellError, ERROR_CODES, GENERAL, TEXT_FORMAT, type Scalar } from './cell.ts';
import { serialOf } from './number-format.ts';

export interface TypedContent {
  value: Scalar;
  formula?: string;
  /** The number format Excel gives a General cell for this input (a date, a percentage). */
  impliedFormat?: string;
}

const NUMBER = /^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?([eE][+-]?\d+)?$/;

export function typedInput(input: string, numberFormat: string): TypedContent {
  if (numberFormat === TEXT_FORMAT) return { value: input };
  if (input.startsWith("'")) return { value: input.slice(1) };
  if (input.length > 1 && input.startsWith('=')) return { value: '', formula: input };
  const text = input.trim();
  if (text === '') return { value: input === '' ? '' : input };
  const upper = text.toUpperCase();
  if (upper === 'TRUE' || upper === 'FALSE') return { value: upper === 'TRUE' };
  if (ERROR_CODES.includes(upper)) return { value: new CellError(upper) };
  return number(text) ?? dateTime(text) ?? { value: input };
}

function number(text: string): TypedContent | undefined {
  const percent = text.endsWith('%');
  const body = percent ? text.slice(0, -1) : text;
  if (!NUMBER.test(body) || !/\d/.test(body)) return undefined;
  const value = Number(body.replaceAll(',', ''));
  if (!Number.isFinite(value)) return undefined;
  if (percent) return { value: value / 100, impliedFormat: body.includes('.') ? '0.00%' : '0%' };
  if (body.includes(','))
    return { value, impliedFormat: body.includes('.') ? '#,##0.00' : '#,##0' };
  return { value };
}

const DATE_US = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})$/;
const DATE_ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\s*(AM|PM))?$/i;

function dateTime(text: string): TypedContent | undefined {
  const [datePart = '', timePart] = text.split(/\s+(?=\d{1,2}:)/);
  const time = TIME.exec(timePart ?? datePart);
  if (timePart === undefined && time) {
    const fraction = timeFraction(time);
    return fraction === undefined ? undefined : { value: fraction, impliedFormat: 'h:mm' };
  }
  const day = dateSerial(datePart);
  if (day === undefined) return undefined;
  if (timePart === undefined) return { value: day, impliedFormat: 'm/d/yyyy' };
  const fraction = time ? timeFraction(time) : undefined;
  if (fraction === undefined) return undefined;
  return { value: day + fraction, impliedFormat: 'm/d/yyyy h:mm' };
}

/** Month first, as Excel reads dates in the en-US locale Graph works in by default. */
function dateSerial(text: string): number | undefined {
  const us = DATE_US.exec(text);
  const iso = DATE_ISO.exec(text);
  const parts = us
    ? [Number(us[3]), Number(us[1]), Number(us[2])]
    : iso
      ? [Number(iso[1]), Number(iso[2]), Number(iso[3])]
      : undefined;
  if (!parts) return undefined;
  const [rawYear = 0, month = 0, day = 0] = parts;
  const year = rawYear < 100 ? (rawYear < 30 ? 2000 + rawYear : 1900 + rawYear) : rawYear;
  const ms = Date.UTC(year, month - 1, day);
  const check = new Date(ms);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return undefined;
  return serialOf(ms);
}

function timeFraction(time: RegExpExecArray): number | undefined {
  let hours = Number(time[1]);
  const minutes = Number(time[2]);
  const seconds = Number(time[3] ?? 0);
  const half = time[4]?.toUpperCase();
  if (half && (hours < 1 || hours > 12)) return undefined;
  if (half === 'PM' && hours < 12) hours += 12;
  if (half === 'AM' && hours === 12) hours = 0;
  if (hours > 23 || minutes > 59 || seconds > 59) return undefined;
  return (hours * 3600 + minutes * 60 + seconds) / 86_400;
}

/** What a General cell's format becomes after this input. */
export const formatAfter = (content: TypedContent, numberFormat: string): string =>
  numberFormat === GENERAL && content.impliedFormat ? content.impliedFormat : numberFormat;

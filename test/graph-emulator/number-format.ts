/**
 * Excel's date serials (days since 1899-12-30) and the small set of number formats the emulator
 * renders into a cell's `text`; any other format renders as General does.
 */
import { CellError, TEXT_FORMAT, type Scalar } from './cell.ts';

const DAY_MS = 86_400_000;
const EPOCH = Date.UTC(1899, 11, 30);

export const serialOf = (utcMs: number): number => (utcMs - EPOCH) / DAY_MS;
export const dateOfSerial = (serial: number): Date => new Date(EPOCH + Math.round(serial * DAY_MS));

/** Whether a format shows a number as a date or time (the provider reads such numbers as dates). */
export const isDateFormat = (format: string): boolean =>
  /[dmyhs]/i.test(format.replace(/"[^"]*"|\[[^\]]*\]|General/gi, ''));

export function formatText(value: Scalar, format: string): string {
  if (value instanceof CellError) return value.code;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'string') return value;
  if (format === TEXT_FORMAT) return general(value);
  if (isDateFormat(format)) return formatDate(value, format);
  const percent = format.endsWith('%');
  const decimals = /\.(0+)/.exec(format)?.[1]?.length;
  if (/^#,##0(\.0+)?%?$|^0(\.0+)?%?$/.test(format)) {
    const shown = (percent ? value * 100 : value).toFixed(decimals ?? 0);
    const grouped = format.startsWith('#,##') ? group(shown) : shown;
    return percent ? `${grouped}%` : grouped;
  }
  return general(value);
}

function group(fixed: string): string {
  const [whole = '', fraction] = fixed.split('.');
  const digits = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? digits : `${digits}.${fraction}`;
}

/** General shows at most 11 characters' worth of significant digits. */
function general(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e11) return String(value);
  return String(Number(value.toPrecision(10)));
}

const two = (n: number): string => String(n).padStart(2, '0');

function formatDate(serial: number, format: string): string {
  const date = dateOfSerial(serial);
  const hours = date.getUTCHours();
  const twelveHour = /AM\/PM/i.test(format);
  const parts: Record<string, string> = {
    yyyy: String(date.getUTCFullYear()),
    yy: two(date.getUTCFullYear() % 100),
    dd: two(date.getUTCDate()),
    d: String(date.getUTCDate()),
    hh: two(twelveHour ? hours % 12 || 12 : hours),
    h: String(twelveHour ? hours % 12 || 12 : hours),
    ss: two(date.getUTCSeconds()),
  };
  let afterHour = false;
  return format.replace(/yyyy|yy|mm|m|dd|d|hh|h|ss|AM\/PM/gi, (token) => {
    const lower = token.toLowerCase();
    if (lower === 'am/pm') return hours < 12 ? 'AM' : 'PM';
    if (lower === 'h' || lower === 'hh') afterHour = true;
    if (lower === 'mm' || lower === 'm') {
      // `m` after an hour is minutes, elsewhere the month, as in Excel.
      const minutes = afterHour;
      afterHour = false;
      const n = minutes ? date.getUTCMinutes() : date.getUTCMonth() + 1;
      return lower === 'mm' ? two(n) : String(n);
    }
    return parts[lower] ?? token;
  });
}

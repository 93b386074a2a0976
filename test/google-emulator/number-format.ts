/**
 * How a number is shown (`formattedValue`) under a cell's NumberFormat, for the en_US locale the
 * emulated spreadsheets have. Covers General, the date/time patterns and the simple numeric
 * patterns (`0.00`, `#,##0`, `0%`, `"$"#,##0.00`); anything fancier is shown as General.
 */

export interface NumberFormat {
  type: string;
  pattern?: string;
}

const DATE_TYPES = new Set(['DATE', 'TIME', 'DATE_TIME']);
/** Serial number of 1970-01-01: serials count days from 1899-12-30. */
const UNIX_EPOCH_SERIAL = 25569;
const DAY_MS = 86_400_000;

/** The patterns Sheets uses for en_US when a format gives a type but no pattern. */
const DEFAULT_PATTERNS: Record<string, string> = {
  DATE: 'M/d/yyyy',
  TIME: 'h:mm:ss am/pm',
  DATE_TIME: 'M/d/yyyy H:mm:ss',
  PERCENT: '0.00%',
  CURRENCY: '"$"#,##0.00',
  SCIENTIFIC: '0.00E+00',
};

export const isDateFormat = (format: NumberFormat | undefined): boolean =>
  format !== undefined && DATE_TYPES.has(format.type);

export function serialFromDate(date: Date): number {
  return date.getTime() / DAY_MS + UNIX_EPOCH_SERIAL;
}

export function dateFromSerial(serial: number): Date {
  return new Date(Math.round((serial - UNIX_EPOCH_SERIAL) * DAY_MS));
}

/** General format: integers as they are, other numbers to 10 significant digits. */
export function formatGeneral(value: number): string {
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  const text = String(Number(value.toPrecision(10)));
  return text.replace('e+', 'E+').replace('e-', 'E-');
}

export function formatNumber(value: number, format: NumberFormat | undefined): string {
  if (!format) return formatGeneral(value);
  const pattern = format.pattern || DEFAULT_PATTERNS[format.type];
  if (!pattern) return formatGeneral(value);
  if (DATE_TYPES.has(format.type)) return formatDate(dateFromSerial(value), pattern);
  return formatNumeric(value, pattern) ?? formatGeneral(value);
}

function formatNumeric(value: number, pattern: string): string | null {
  const section = pattern.split(';')[0] ?? '';
  const match = /^((?:"[^"]*"|[^#0.,%])*)([#0,]*)(?:\.(0*)#*)?(%?)((?:"[^"]*"|[^#0.,%])*)$/.exec(
    section,
  );
  if (!match) return null;
  const [, prefix = '', integer = '', decimals = '', percent, suffix = ''] = match;
  const scaled = percent ? value * 100 : value;
  const fixed = Math.abs(scaled).toFixed(decimals.length);
  const [whole = '0', fraction] = fixed.split('.');
  const grouped = integer.includes(',') ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',') : whole;
  const digits = fraction === undefined ? grouped : `${grouped}.${fraction}`;
  const literal = (text: string): string => text.replaceAll('"', '');
  return `${scaled < 0 ? '-' : ''}${literal(prefix)}${digits}${percent ?? ''}${literal(suffix)}`;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const DATE_TOKENS =
  /"[^"]*"|\\.|am\/pm|a\/p|yyyy|yy|dddd|ddd|dd|d|mmmm|mmm|mm|m|hh|h|ss|s|\.0+|[^"\\]/gi;

/** Formats a serial's date under a Sheets date-time pattern (UTC, the emulator's time zone). */
export function formatDate(date: Date, pattern: string): string {
  const tokens = pattern.match(DATE_TOKENS) ?? [];
  const twelveHour = tokens.some((token) => /^(am\/pm|a\/p)$/i.test(token));
  const pad = (n: number): string => String(n).padStart(2, '0');
  const hours = date.getUTCHours();
  const hour12 = hours % 12 === 0 ? 12 : hours % 12;
  const isMinutes = (index: number): boolean => {
    const before = tokens.slice(0, index).filter((t) => /^[a-z]+$/i.test(t));
    const after = tokens.slice(index + 1).filter((t) => /^[a-z]+$/i.test(t));
    return /^h+$/i.test(before.at(-1) ?? '') || /^s+$/i.test(after[0] ?? '');
  };
  return tokens
    .map((token, index) => {
      const lower = token.toLowerCase();
      if (token.startsWith('"')) return token.slice(1, -1);
      if (token.startsWith('\\')) return token.slice(1);
      if (lower === 'am/pm') return hours < 12 ? 'AM' : 'PM';
      if (lower === 'a/p') return hours < 12 ? 'a' : 'p';
      if (lower === 'yyyy') return String(date.getUTCFullYear());
      if (lower === 'yy') return pad(date.getUTCFullYear() % 100);
      if (lower === 'dddd') return WEEKDAYS[date.getUTCDay()] ?? '';
      if (lower === 'ddd') return (WEEKDAYS[date.getUTCDay()] ?? '').slice(0, 3);
      if (lower === 'dd') return pad(date.getUTCDate());
      if (lower === 'd') return String(date.getUTCDate());
      if (lower === 'mmmm') return MONTHS[date.getUTCMonth()] ?? '';
      if (lower === 'mmm') return (MONTHS[date.getUTCMonth()] ?? '').slice(0, 3);
      if (lower === 'mm' || lower === 'm') {
        const n = isMinutes(index) ? date.getUTCMinutes() : date.getUTCMonth() + 1;
        return lower === 'mm' ? pad(n) : String(n);
      }
      if (lower === 'hh') return pad(twelveHour ? hour12 : hours);
      if (lower === 'h') return String(twelveHour ? hour12 : hours);
      if (lower === 'ss') return pad(date.getUTCSeconds());
      if (lower === 's') return String(date.getUTCSeconds());
      return token;
    })
    .join('');
}

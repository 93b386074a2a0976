/**
 * A1 notation, as the Sheets API reads and writes it: `Sheet1`, `'My Tab'!A1:C10`, `A2:C`
 * (open end), `A:C`, `2:5`, `A1` and a bare `A1:B2` meaning the first sheet. Pure functions.
 */

/** Zero-based, end-exclusive bounds, `undefined` meaning unbounded, as in a GridRange. */
export interface Bounds {
  startRow?: number;
  endRow?: number;
  startColumn?: number;
  endColumn?: number;
}

/** Bounds with every side known. */
export interface Box {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

export interface ParsedRange {
  /** The sheet named before `!`, unquoted. */
  sheet?: string;
  /** Text without `!`: a sheet title or a cell range, which only the sheet list can tell. */
  bare?: string;
  cells?: Bounds;
}

const MAX_COLUMN_LETTERS = 3;

export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  }
  return name;
}

export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

interface Endpoint {
  column?: number;
  row?: number;
}

function parseEndpoint(text: string): Endpoint | null {
  const match = /^\$?([A-Za-z]*)\$?(\d*)$/.exec(text);
  if (!match) return null;
  const [, letters = '', digits = ''] = match;
  if (letters === '' && digits === '') return null;
  if (letters.length > MAX_COLUMN_LETTERS) return null;
  const row = digits === '' ? undefined : Number(digits);
  if (row === 0) return null;
  return { column: letters === '' ? undefined : columnIndex(letters), row };
}

/** Parses the part after `!`; null when it is not a cell range. */
export function parseCells(text: string): Bounds | null {
  const parts = text.split(':');
  if (parts.length > 2) return null;
  const start = parseEndpoint(parts[0] ?? '');
  if (!start) return null;
  if (parts.length === 1) {
    if (start.column === undefined || start.row === undefined) return null;
    return cellBounds(start.row - 1, start.column);
  }
  const end = parseEndpoint(parts[1] ?? '');
  if (!end) return null;
  if ((start.column === undefined) !== (end.column === undefined) && start.row === undefined) {
    return null;
  }
  const bounds: Bounds = {
    startRow: start.row === undefined ? undefined : start.row - 1,
    endRow: end.row,
    startColumn: start.column,
    endColumn: end.column === undefined ? undefined : end.column + 1,
  };
  return normalise(bounds);
}

/** Swaps reversed corners (`B2:A1` means `A1:B2`), as Sheets does. */
function normalise(bounds: Bounds): Bounds {
  const { startRow, endRow, startColumn, endColumn } = bounds;
  const out = { ...bounds };
  if (startRow !== undefined && endRow !== undefined && startRow >= endRow) {
    out.startRow = endRow - 1;
    out.endRow = startRow + 1;
  }
  if (startColumn !== undefined && endColumn !== undefined && startColumn >= endColumn) {
    out.startColumn = endColumn - 1;
    out.endColumn = startColumn + 1;
  }
  return out;
}

export function cellBounds(row: number, column: number): Box {
  return { startRow: row, endRow: row + 1, startColumn: column, endColumn: column + 1 };
}

/** Splits `'It''s'!A1:B2` into sheet and cells; null when the text cannot be A1 notation. */
export function parseA1(text: string): ParsedRange | null {
  if (text.startsWith("'")) {
    let title = '';
    let i = 1;
    for (; i < text.length; i++) {
      const char = text[i];
      if (char !== "'") title += char;
      else if (text[i + 1] === "'") title += text[++i];
      else break;
    }
    if (i >= text.length) return null;
    const rest = text.slice(i + 1);
    if (rest === '') return { sheet: title };
    if (!rest.startsWith('!')) return null;
    const cells = parseCells(rest.slice(1));
    return cells ? { sheet: title, cells } : null;
  }
  const bang = text.indexOf('!');
  if (bang === -1) {
    if (text === '') return null;
    return { bare: text, cells: parseCells(text) ?? undefined };
  }
  const cells = parseCells(text.slice(bang + 1));
  return cells ? { sheet: text.slice(0, bang), cells } : null;
}

/** Quotes a sheet title when A1 notation needs it, as the API does in the ranges it returns. */
export function quoteSheet(title: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(title);
  const looksLikeCell = /^[A-Za-z]{1,3}\d+$/.test(title) || /^R\d*C\d*$/i.test(title);
  return plain && !looksLikeCell ? title : `'${title.replaceAll("'", "''")}'`;
}

/** `Sheet1!A1:C10`, `'My Tab'!A5`, or open forms such as `T!A1001:B` and `T!AA1:2`. */
export function formatRange(title: string, bounds: Bounds): string {
  const startRow = bounds.startRow ?? 0;
  const startColumn = bounds.startColumn ?? 0;
  const start = columnName(startColumn) + String(startRow + 1);
  const single = bounds.endRow === startRow + 1 && bounds.endColumn === startColumn + 1;
  const endColumn = bounds.endColumn === undefined ? '' : columnName(bounds.endColumn - 1);
  const endRow = bounds.endRow === undefined ? '' : String(bounds.endRow);
  return `${quoteSheet(title)}!${single ? start : `${start}:${endColumn}${endRow}`}`;
}

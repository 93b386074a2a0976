/**
 * Excel A1 addresses: `B2`, `A1:C4`, whole rows `5:7`, whole columns `B:D`, each optionally after
 * `Sheet1!` or `'My sheet'!`. Boxes are 0-based with exclusive ends, as the grid stores them.
 */
export const MAX_ROWS = 1_048_576;
export const MAX_COLUMNS = 16_384;

export interface Box {
  startRow: number;
  endRow: number;
  startColumn: number;
  endColumn: number;
}

export interface Address {
  sheet?: string;
  box: Box;
}

const CELL = /^\$?([A-Za-z]{1,3})\$?(\d{1,7})$/;
const ROW = /^\$?(\d{1,7})$/;
const COLUMN = /^\$?([A-Za-z]{1,3})$/;

export function columnIndex(letters: string): number {
  let index = 0;
  for (const letter of letters.toUpperCase()) index = index * 26 + letter.charCodeAt(0) - 64;
  return index - 1;
}

export function columnLetters(index: number): string {
  let letters = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) {
    letters = String.fromCharCode(65 + ((n - 1) % 26)) + letters;
  }
  return letters;
}

/** The sheet and box an address names, or undefined when it is not an A1 address. */
export function parseAddress(text: string): Address | undefined {
  const bang = text.lastIndexOf('!');
  const sheetPart = bang < 0 ? undefined : text.slice(0, bang);
  const sheet = sheetPart === undefined ? undefined : unquoteSheet(sheetPart);
  if (sheet === '') return undefined;
  const [first, second, ...rest] = text.slice(bang + 1).split(':');
  if (first === undefined || rest.length > 0) return undefined;
  const box = parseBox(first, second);
  if (!box) return undefined;
  return sheet === undefined ? { box } : { sheet, box };
}

function parseBox(from: string, second: string | undefined): Box | undefined {
  const to = second ?? from;
  const cells = [CELL.exec(from), CELL.exec(to)];
  if (cells[0] && cells[1]) {
    const rows = [Number(cells[0][2]) - 1, Number(cells[1][2]) - 1];
    const columns = [columnIndex(cells[0][1] ?? ''), columnIndex(cells[1][1] ?? '')];
    return ordered(rows as [number, number], columns as [number, number]);
  }
  // Whole rows and columns need both ends: `5` alone is not an address.
  if (second === undefined) return undefined;
  const rows = [ROW.exec(from), ROW.exec(to)];
  if (rows[0] && rows[1]) {
    const numbers = [Number(rows[0][1]) - 1, Number(rows[1][1]) - 1] as [number, number];
    return ordered(numbers, [0, MAX_COLUMNS - 1]);
  }
  const columns = [COLUMN.exec(from), COLUMN.exec(to)];
  if (columns[0] && columns[1]) {
    const indexes = [columnIndex(columns[0][1] ?? ''), columnIndex(columns[1][1] ?? '')];
    return ordered([0, MAX_ROWS - 1], indexes as [number, number]);
  }
  return undefined;
}

function ordered(rows: [number, number], columns: [number, number]): Box | undefined {
  const [r1, r2] = rows[0] <= rows[1] ? rows : [rows[1], rows[0]];
  const [c1, c2] = columns[0] <= columns[1] ? columns : [columns[1], columns[0]];
  if (r1 < 0 || c1 < 0 || r2 >= MAX_ROWS || c2 >= MAX_COLUMNS) return undefined;
  return { startRow: r1, endRow: r2 + 1, startColumn: c1, endColumn: c2 + 1 };
}

function unquoteSheet(text: string): string | undefined {
  if (!text.startsWith("'")) return text;
  if (text.length < 2 || !text.endsWith("'")) return undefined;
  return text.slice(1, -1).replaceAll("''", "'");
}

/** `Sheet1`, or `'My sheet'` when Excel would quote the name in an address. */
export function quoteSheet(name: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) && !CELL.test(name);
  return plain ? name : `'${name.replaceAll("'", "''")}'`;
}

/** The box as Excel writes it: `B2`, `A1:C4`, `5:7` for whole rows, `B:D` for whole columns. */
export function formatBox(box: Box): string {
  const wholeRows = box.startColumn === 0 && box.endColumn === MAX_COLUMNS;
  const wholeColumns = box.startRow === 0 && box.endRow === MAX_ROWS;
  if (wholeRows && !wholeColumns) return `${box.startRow + 1}:${box.endRow}`;
  if (wholeColumns && !wholeRows) {
    return `${columnLetters(box.startColumn)}:${columnLetters(box.endColumn - 1)}`;
  }
  const start = `${columnLetters(box.startColumn)}${box.startRow + 1}`;
  const end = `${columnLetters(box.endColumn - 1)}${box.endRow}`;
  return start === end ? start : `${start}:${end}`;
}

export function formatAddress(sheet: string, box: Box): string {
  return `${quoteSheet(sheet)}!${formatBox(box)}`;
}

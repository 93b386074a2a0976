import { DateCell, type Cell } from '../../cells/cell.ts';
import type { PlannedFilter } from '../../query/plan.ts';

/**
 * How a row lives in SQLite: each column `i` is a value column `c<i>` with no type affinity, so
 * numbers stay numbers and text stays text, and a marker column `k<i>` that is 'b' for a boolean
 * (stored as the text true/false) or 'd' for a date (stored as ISO 8601 text); for a number
 * that is not a safe integer it holds the number's JavaScript text (`1e+21`, `0.1`), which is
 * what a person sees and what wildcards match, where SQLite would print `1.0e+21`.
 * Rows keep sheet order by `seq`.
 */
export type SqlValue = string | number | bigint | null;

export const valueColumn = (index: number): string => `c${index}`;
export const markerColumn = (index: number): string => `k${index}`;

export function encodeCell(cell: Cell): [SqlValue, SqlValue] {
  if (cell === null || typeof cell === 'string') return [cell, null];
  // better-sqlite3 binds every JS number as REAL; integers go in as INTEGER so they read as "31".
  if (typeof cell === 'number') {
    return Number.isSafeInteger(cell) ? [BigInt(cell), null] : [cell, String(cell)];
  }
  if (typeof cell === 'boolean') return [cell ? 'true' : 'false', 'b'];
  return [cell.iso, 'd'];
}

export function decodeCell(value: unknown, marker: unknown): Cell {
  if (marker === 'b') return value === 'true';
  if (marker === 'd') return new DateCell(String(value));
  return value as Cell;
}

/** Turns the raw `c0, k0, c1, k1, ...` of a row back into its cells. */
export function decodeRow(raw: unknown[]): Cell[] {
  const cells = new Array<Cell>(raw.length / 2);
  for (let i = 0; i < cells.length; i++) cells[i] = decodeCell(raw[2 * i], raw[2 * i + 1]);
  return cells;
}

export function cellColumnList(columnCount: number): string {
  const names: string[] = [];
  for (let i = 0; i < columnCount; i++) names.push(valueColumn(i), markerColumn(i));
  return names.join(', ');
}

export interface SqlFragment {
  sql: string;
  params: SqlValue[];
}

const numericCell = (column: string) => `typeof(${column}) IN ('integer', 'real')`;

function numberParam(n: number): SqlValue {
  return Number.isSafeInteger(n) ? BigInt(n) : n;
}

/** Filters become parameterized SQL: no text from the request ever lands in the SQL itself. */
export function compileFilter(filter: PlannedFilter): SqlFragment {
  const column = valueColumn(filter.index);
  if (filter.op === 'like') {
    const shown = `coalesce(CASE WHEN typeof(${column}) = 'real' THEN ${markerColumn(filter.index)} END, ${column})`;
    return { sql: `${shown} GLOB ?`, params: [globPattern(filter.pattern)] };
  }
  if (!('value' in filter) || filter.op === 'ieq') {
    throw new Error(`The SQLite store has no SQL for the filter operator "${filter.op}".`);
  }
  const { text, number } = filter.value;
  switch (filter.op) {
    case 'eq':
      return equality(column, text, number);
    case 'ne': {
      if (text === '') return { sql: `${column} IS NOT NULL`, params: [] };
      const eq = equality(column, text, number);
      return { sql: `(${column} IS NULL OR NOT (${eq.sql}))`, params: eq.params };
    }
    default: {
      const sign = { gt: '>', ge: '>=', lt: '<', le: '<=' }[filter.op];
      if (number !== null) {
        return {
          sql: `(${numericCell(column)} AND ${column} ${sign} ?)`,
          params: [numberParam(number)],
        };
      }
      // Text comparison covers text and dates; booleans are not text, though stored as such.
      const marker = markerColumn(filter.index);
      return {
        sql: `(typeof(${column}) = 'text' AND ${marker} IS NOT 'b' AND ${column} ${sign} ?)`,
        params: [text],
      };
    }
  }
}

/** A cell equals a value when its text does, or, for a numeric value, when it is that number. */
function equality(column: string, text: string, number: number | null): SqlFragment {
  if (text === '') return { sql: `${column} IS NULL`, params: [] };
  if (number === null) return { sql: `${column} = ?`, params: [text] };
  return { sql: `${column} IN (?, ?)`, params: [numberParam(number), text] };
}

/** `*` is the only wildcard users write; GLOB's own `?` and `[` are matched literally. */
export function globPattern(pattern: string): string {
  return pattern.replace(/[?[]/g, (c) => `[${c}]`);
}

export function compileFilters(filters: PlannedFilter[]): SqlFragment {
  if (filters.length === 0) return { sql: '1', params: [] };
  const parts = filters.map(compileFilter);
  return { sql: parts.map((p) => p.sql).join(' AND '), params: parts.flatMap((p) => p.params) };
}

import { DateCell, type Cell } from '../../cells/cell.ts';
import type { PlannedFilter } from '../../query/plan.ts';

/**
 * How a row lives in PostgreSQL, whose columns have one type each: column `i` is a number
 * column `n<i>` (float8 holds every JS number exactly), a text column `t<i>` in byte order
 * (COLLATE "C", as SQLite compares), and a marker `k<i>`: 'b' for a boolean (text true/false),
 * 'd' for a date (ISO 8601 text), or for a number that is not a safe integer its JavaScript text
 * (`1e-7`, where PostgreSQL prints `1e-07`). An empty cell has all three NULL. Rows keep order
 * by `seq`.
 */
export type SqlValue = string | number | null;

export const numberColumn = (index: number): string => `n${index}`;
export const textColumn = (index: number): string => `t${index}`;
export const markerColumn = (index: number): string => `k${index}`;

export function encodeCell(cell: Cell): [SqlValue, SqlValue, SqlValue] {
  if (cell === null) return [null, null, null];
  if (typeof cell === 'number')
    return [cell, null, Number.isSafeInteger(cell) ? null : String(cell)];
  if (typeof cell === 'string') return [null, cell, null];
  if (typeof cell === 'boolean') return [null, cell ? 'true' : 'false', 'b'];
  return [null, cell.iso, 'd'];
}

/** Turns the raw `n0, t0, k0, n1, ...` of a row back into its cells. */
export function decodeRow(raw: unknown[]): Cell[] {
  const cells = new Array<Cell>(raw.length / 3);
  for (let i = 0; i < cells.length; i++) {
    const number = raw[3 * i];
    const text = raw[3 * i + 1] as string | null;
    const marker = raw[3 * i + 2];
    cells[i] =
      number !== null
        ? (number as number)
        : marker === 'b'
          ? text === 'true'
          : marker === 'd'
            ? new DateCell(text ?? '')
            : text;
  }
  return cells;
}

export function cellColumnList(columnCount: number): string {
  const names: string[] = [];
  for (let i = 0; i < columnCount; i++) names.push(numberColumn(i), textColumn(i), markerColumn(i));
  return names.join(', ');
}

export function cellColumnDefinitions(columnCount: number): string {
  const definitions: string[] = [];
  for (let i = 0; i < columnCount; i++) {
    definitions.push(
      `${numberColumn(i)} float8`,
      `${textColumn(i)} text COLLATE "C"`,
      `${markerColumn(i)} text`,
    );
  }
  return definitions.join(', ');
}

/** A fragment of SQL with `$n` placeholders numbered from where the query has got to. */
export class SqlBuilder {
  readonly params: SqlValue[] = [];

  param(value: SqlValue): string {
    this.params.push(value);
    return `$${this.params.length}`;
  }
}

/** Filters become parameterized SQL: no text from the request ever lands in the SQL itself. */
export function compileFilter(filter: PlannedFilter, sql: SqlBuilder): string {
  const n = numberColumn(filter.index);
  const t = textColumn(filter.index);
  if (filter.op === 'like') {
    // The text a person sees: a number's JavaScript text where it is kept, else its digits.
    return `coalesce(${t}, ${markerColumn(filter.index)}, ${n}::text) LIKE ${sql.param(likePattern(filter.pattern))}`;
  }
  if (!('value' in filter) || filter.op === 'ieq') {
    throw new Error(`The PostgreSQL store has no SQL for the filter operator "${filter.op}".`);
  }
  const { text, number } = filter.value;
  switch (filter.op) {
    case 'eq':
      return equality(filter.index, text, number, sql);
    case 'ne':
      if (text === '') return `(${n} IS NOT NULL OR ${t} IS NOT NULL)`;
      return `NOT coalesce(${equality(filter.index, text, number, sql)}, false)`;
    default: {
      const sign = { gt: '>', ge: '>=', lt: '<', le: '<=' }[filter.op];
      if (number !== null) return `${n} ${sign} ${sql.param(number)}`;
      // Text comparison covers text and dates; booleans are not text, though stored as such.
      return `(${t} ${sign} ${sql.param(text)} AND ${markerColumn(filter.index)} IS DISTINCT FROM 'b')`;
    }
  }
}

/** A cell equals a value when its text does, or, for a numeric value, when it is that number. */
function equality(index: number, text: string, number: number | null, sql: SqlBuilder): string {
  const n = numberColumn(index);
  const t = textColumn(index);
  if (text === '') return `(${n} IS NULL AND ${t} IS NULL)`;
  if (number === null) return `${t} = ${sql.param(text)}`;
  return `(${n} = ${sql.param(number)} OR ${t} = ${sql.param(text)})`;
}

/** `*` is the only wildcard users write; LIKE's own `%`, `_` and `\` are matched literally. */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
}

export function compileFilters(filters: PlannedFilter[], sql: SqlBuilder): string {
  return filters.length === 0 ? 'true' : filters.map((f) => compileFilter(f, sql)).join(' AND ');
}

/** Empty cells last; ascending puts numbers before text, descending text before numbers. */
export function orderTerm(index: number, descending: boolean): string {
  const n = numberColumn(index);
  const t = textColumn(index);
  const empty = `(${n} IS NULL AND ${t} IS NULL)`;
  return descending
    ? `${empty}, (${t} IS NULL), ${t} DESC, ${n} DESC`
    : `${empty}, (${n} IS NULL), ${n}, ${t}`;
}

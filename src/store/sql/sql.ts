import type { EntryConditions } from '../row-sets.ts';
import type { CellReading, EntryReading } from './cell-reading.ts';
import type { DbWork } from '../db-work.ts';

/**
 * How one database spells what the shared statements need beyond standard SQL. Statements are
 * written once with PostgreSQL's numbered placeholders (`$1`); a driver that wants others
 * rewrites them as it prepares a text.
 */
export interface Flavor {
  /** A condition that `expr` is one of the list bound at `$n` (bound through `list`). */
  oneOf(expr: string, n: number, type: 'int' | 'text'): string;
  /** The list bound at `$n` as a table of one column, `value`, named `alias`. */
  listTable(n: number, type: 'int' | 'text', alias: string): string;
  /** A list as bound to a parameter that `oneOf` or `listTable` reads. */
  list(values: readonly (number | string)[]): unknown;
  /** A boolean as bound to a parameter. */
  bool(value: boolean): unknown;
  /** A time as the driver answers it (text, or a Date), as ISO text. */
  time(value: unknown): string;
  /** A JSON column as the driver answers it, parsed. */
  json<T>(value: unknown): T;
  /** Appended to a SELECT to lock the rows it reads until the unit ends ('' if a unit excludes all others). */
  forUpdate: string;
  /** Appended to a locking SELECT to pass over rows another unit holds. */
  skipLocked: string;
  /** A text expression answered as bytes, where the driver can hand them over without decoding. */
  bytes(expr: string): string;
  /** Conditions on the cell index's entries (see row-sets.ts). */
  entries: EntryConditions;
  /** Written after `FROM rows` where a filter's row ids must be read through their index. */
  rowsByRid: string;
  /** Reading cells out of a row's stored JSON, for aggregates. */
  cellReading: CellReading;
  /** Reading cells out of the cell index by row, for aggregates; null where it cannot. */
  entryReading: EntryReading | null;
}

/** A driver's way of running one statement as a driver call of a unit of work. */
export interface Sql {
  readonly flavor: Flavor;
  /** The rows a statement answers. */
  rows<R>(text: string, values: readonly unknown[]): DbWork<R[]>;
  /** How many rows a statement that answers none inserted, changed or removed. */
  changes(text: string, values: readonly unknown[]): DbWork<number>;
}

/** Whether an id could name anything: ids are made without NUL, which PostgreSQL cannot compare. */
export function nameable(id: string): boolean {
  return !id.includes('\u0000');
}

/** A time the driver answered, or null, as ISO text. */
export function timeOrNull(flavor: Flavor, value: unknown): string | null {
  return value === null || value === undefined ? null : flavor.time(value);
}

import type { Cell } from '../../cells/cell.ts';
import type { AggregateFunction } from '../../query/parse-aggregate.ts';

/**
 * How a database reads cells out of a stored row's JSON (the object a read answers, kept by
 * every write), so that aggregates run over the rows themselves: no index to keep, nothing
 * added to a write. Written per dialect; the statement around it is shared.
 */
export interface CellReading {
  /** A row's stored JSON, `json`, parsed once for the functions below to read. */
  document: string;
  /** Written after the SELECT that parses `document`, so that it is parsed once per row. */
  fence: string;
  /** How a column is named to `cell` and `number`, as bound to a parameter. */
  key(column: string): string;
  /** A cell as JSON text (`"31"` and `31` differ), or NULL when it is empty. */
  cell(doc: string, key: string): string;
  /** A number cell's value; NULL for any other cell, text of digits included. */
  number(doc: string, key: string): string;
  /**
   * The text any other non-empty cell shows (text, a date's ISO text, `true`, `false`), in an
   * order by code point; NULL for a number or an empty cell.
   */
  text(doc: string, key: string): string;
  /** `sum`, `avg`, `min` or `max` of `number` values, as a double; NULL past a double's range. */
  numeric(fn: NumericFunction, values: string): string;
}

/**
 * How a database reads a row's cells out of the cell index, by row id, where it keeps an index
 * of its entries by row (see docs/aggregates-and-search.md, "How it runs"): a typed value per
 * cell is far less to read than the row's JSON. Each function takes the alias of the entry's
 * table; an empty cell, which has no entry, reads as NULL.
 */
export interface EntryReading {
  /** Written after `cells AS <alias>` so that entries are found by row id. */
  byRow: string;
  /** The entry's value, as it groups: two cells are one group when their values are equal. */
  cell(entry: string): string;
  /** A number entry's value as a double; NULL for any other entry. */
  number(entry: string): string;
  /** The text of a text, date or boolean entry, in an order by code point; NULL otherwise. */
  text(entry: string): string;
  /** A value `cell` answered, as a cell. */
  decode(value: unknown): Cell;
}

export type NumericFunction = Exclude<AggregateFunction, 'count' | 'count_distinct'>;

import type Database from 'better-sqlite3';
import type { Flavor, Sql } from '../sql/sql.ts';
import { driverCall, type DbWork } from '../db-work.ts';
import { sqliteEntries } from './sqlite-cells.ts';

type Db = Database.Database;
type Statement = Database.Statement;

/** How SQLite spells what the shared statements need. */
export const sqliteFlavor: Flavor = {
  oneOf: (expr, n) => `${expr} IN (SELECT value FROM json_each($${n}))`,
  listTable: (n, _type, alias) => `json_each($${n}) AS ${alias}`,
  list: (values) => JSON.stringify(values),
  bool: (value) => (value ? 1 : 0),
  // Times are stored as ISO text in UTC, which sorts as time does.
  time: (value) => value as string,
  json: <T>(value: unknown) => JSON.parse(value as string) as T,
  // One writer at a time, and a unit runs whole: nothing can take a row it has read.
  forUpdate: '',
  skipLocked: '',
  bytes: (expr) => `CAST(${expr} AS BLOB)`,
  entries: sqliteEntries,
  // By row id through its index: without statistics SQLite would walk the whole sheet.
  rowsByRid: ' INDEXED BY rows_by_rid',
  // SQLite keeps the last texts it parsed within a statement, so reading several cells of a row
  // parses it once; a path quotes its key, escaped as JSON, so any column name is one label.
  cellReading: {
    document: 'json',
    fence: '',
    key: (column) => `$.${JSON.stringify(column)}`,
    cell: (doc, key) => `nullif(${doc} -> ${key}, 'null')`,
    number: (doc, key) =>
      `CASE WHEN json_type(${doc}, ${key}) IN ('integer', 'real') THEN CAST(${doc} ->> ${key} AS REAL) END`,
    text: (doc, key) =>
      `CASE json_type(${doc}, ${key}) WHEN 'text' THEN ${doc} ->> ${key} WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' END`,
    // Doubles, summed with compensation; a sum past their range is infinite, answered as none.
    numeric: (fn, values) => `${fn}(${values})`,
  },
  // Entries as sqlite-cells.ts stores them: numbers as INTEGER or REAL, text and dates as TEXT,
  // booleans as BLOBs of their text, so that the value alone keeps `31`, `"31"` and `true`
  // apart, as their JSON does.
  entryReading: {
    byRow: ' INDEXED BY cells_by_rid',
    cell: (entry) => `${entry}.value`,
    number: (entry) =>
      `CASE WHEN typeof(${entry}.value) IN ('integer', 'real') THEN CAST(${entry}.value AS REAL) END`,
    text: (entry) =>
      `CASE typeof(${entry}.value) WHEN 'text' THEN ${entry}.value WHEN 'blob' THEN CAST(${entry}.value AS TEXT) END`,
    decode: (value) =>
      Buffer.isBuffer(value) ? value.toString() === 'true' : (value as string | number | null),
  },
};

/** A statement as prepared, and which of the values each of its `?` takes (null: in order). */
interface Prepared {
  statement: Statement;
  order: number[] | null;
}

/**
 * Statements prepared once per connection and text (SQL text never holds request data), their
 * `$n` placeholders rewritten as `?` bound in order, which better-sqlite3 binds fastest.
 */
export class SqliteSql implements Sql {
  readonly flavor = sqliteFlavor;
  readonly #db: Db;
  readonly #prepared = new Map<string, Prepared>();

  constructor(db: Db) {
    this.#db = db;
  }

  /** A statement of `?` placeholders, to be bound in order, prepared on `db`. */
  statement(db: Db, text: string): Statement {
    return this.#prepare(db, text).statement;
  }

  rows<R>(text: string, values: readonly unknown[]): DbWork<R[]> {
    return driverCall((db: Db) => {
      const { statement, order } = this.#prepare(db, text);
      return statement.all(...bound(values, order)) as R[];
    });
  }

  changes(text: string, values: readonly unknown[]): DbWork<number> {
    return driverCall((db: Db) => {
      const { statement, order } = this.#prepare(db, text);
      return statement.run(...bound(values, order)).changes;
    });
  }

  /**
   * Runs one prepared statement once for each item, with the values `bind` gives it: SQLite's
   * way with many rows, where PostgreSQL sends arrays whole.
   */
  each<T>(text: string, items: Iterable<T>, bind: (item: T) => unknown[]): DbWork<void> {
    return driverCall((db: Db) => {
      const statement = this.#prepare(db, text).statement;
      for (const item of items) statement.run(...bind(item));
    });
  }

  #prepare(db: Db, text: string): Prepared {
    const cached = db === this.#db ? this.#prepared.get(text) : undefined;
    if (cached !== undefined) return cached;
    const order: number[] = [];
    const positional = text.replace(/\$(\d+)/g, (_, n: string) => {
      order.push(Number(n) - 1);
      return '?';
    });
    const prepared = {
      statement: db.prepare(positional),
      order: order.every((n, i) => n === i) ? null : order,
    };
    if (db !== this.#db) return prepared;
    if (this.#prepared.size > 2000) this.#prepared.clear();
    this.#prepared.set(text, prepared);
    return prepared;
  }
}

function bound(values: readonly unknown[], order: number[] | null): unknown[] {
  return order === null ? (values as unknown[]) : order.map((n) => values[n]);
}

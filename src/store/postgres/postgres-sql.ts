import type { PoolClient } from 'pg';
import type { Flavor, Sql } from '../sql/sql.ts';
import { driverCall, type DbWork } from '../db-work.ts';
import { postgresEntries } from './postgres-cells.ts';

type Db = PoolClient;

/** How PostgreSQL spells what the shared statements need. */
export const postgresFlavor: Flavor = {
  oneOf: (expr, n, type) => `${expr} = ANY($${n}::${type}[])`,
  listTable: (n, type, alias) => `unnest($${n}::${type}[]) AS ${alias} (value)`,
  list: (values) => values,
  bool: (value) => value,
  // A Date from a query, an ISO string with an offset from row_to_json.
  time: (value) => new Date(value as Date | string).toISOString(),
  json: <T>(value: unknown) => value as T,
  forUpdate: ' FOR UPDATE',
  skipLocked: ' SKIP LOCKED',
  // Read from the stored value's header; length would fetch the value to count its characters.
  bytes: (expr) => expr,
  entries: postgresEntries,
  rowsByRid: '',
  // OFFSET 0 keeps the subquery that parses a row from being merged into the one reading its
  // cells, which would parse the row again for each cell read.
  cellReading: {
    document: 'json::jsonb',
    fence: ' OFFSET 0',
    key: (column) => column,
    cell: (doc, key) => `nullif((${doc} -> ${key}::text)::text, 'null')`,
    // Numbers are read exactly, from their text, and summed as numeric: a float8 sum past the
    // range of a double is an error in PostgreSQL, not infinity. Results past it have no value,
    // and those too small for a double (an average) are 0.
    number: (doc, key) =>
      `CASE WHEN jsonb_typeof(${doc} -> ${key}::text) = 'number' THEN (${doc} ->> ${key}::text)::numeric END`,
    // Ordered by code point, as SQLite orders text.
    text: (doc, key) =>
      `(CASE WHEN jsonb_typeof(${doc} -> ${key}::text) IN ('string', 'boolean') THEN ${doc} ->> ${key}::text END) COLLATE "C"`,
    numeric: (fn, values) => {
      const result = `${fn}(${values})`;
      return `CASE WHEN abs(${result}) > 1.7976931348623157e308 THEN NULL WHEN abs(${result}) < 2.5e-324 THEN 0 ELSE ${result}::float8 END`;
    },
  },
  // No index of the cell index by row: aggregates read the rows' JSON, and writes keep one
  // index fewer.
  entryReading: null,
};

/**
 * Statements that each connection prepares once and then runs by name, skipping their parsing
 * and, once PostgreSQL settles on a generic plan, their planning. Statements are told apart by
 * their text, which holds no values; only the first `preparedStatements` texts are prepared, so
 * that filters of ever new shapes cannot fill a connection with plans. (Run once, a statement
 * costs the same prepared or not.)
 */
const preparedStatements = 250;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < preparedStatements) {
    name = `s${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/** Each statement a step that the unit's connection runs, as a prepared statement where it can. */
export const postgresSql: Sql = {
  flavor: postgresFlavor,
  rows<R>(text: string, values: readonly unknown[]): DbWork<R[]> {
    return driverCall(async (db: Db) => {
      const { rows } = await db.query({
        text,
        values: values as unknown[],
        name: statementName(text),
      });
      return rows as R[];
    });
  },
  changes(text: string, values: readonly unknown[]): DbWork<number> {
    return driverCall(async (db: Db) => {
      const result = await db.query({
        text,
        values: values as unknown[],
        name: statementName(text),
      });
      return result.rowCount ?? 0;
    });
  },
};

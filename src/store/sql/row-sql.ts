import type { Filtering } from '../../query/plan.ts';
import type { RowEntries } from '../cell-index.ts';
import type { StoredRow } from '../row-json.ts';
import { selectionCondition, SqlParams } from '../row-sets.ts';
import type { DbWork } from '../db-work.ts';
import type { Sql } from './sql.ts';
import {
  aggregateStatement,
  type GroupPage,
  type GroupSpec,
  type RowChoice,
} from './aggregate-sql.ts';

/** A filter selection: the rows of an indexed sheet that filters choose. */
export type { Filtering };

/** A stored row's JSON, with its position first when `_with_id=true` asks for it. */
export function rowJson(withIds: boolean): string {
  return withIds
    ? `CASE json WHEN '{}' THEN '{"_id":' || pos || '}' ELSE '{"_id":' || pos || ',' || substr(json, 2) END`
    : 'json';
}

/** A sheet's rows, their cell index and the answers joined from them, as the engine asks. */
export interface RowStatements {
  rowsBetween(key: number, from: number, to: number): DbWork<StoredRow[]>;
  rowsAt(key: number, positions: number[]): DbWork<StoredRow[]>;
  insertRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** Replaces rows' text in place; positions and row ids stay. */
  updateRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** The rows with these ids (keys) that exist, in sheet order. */
  rowsByRid(key: number, rids: number[]): DbWork<StoredRow[]>;
  /** Gives rows, found by id, new positions (rows that changed places among themselves). */
  placeRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** Removes rows by position; the rows below them move up to close the gaps. */
  deleteRows(key: number, positions: number[]): DbWork<void>;
  /** Moves the rows at `at` and below down by `count`, making room to insert. */
  openRows(key: number, at: number, count: number): DbWork<void>;
  deleteAllRows(key: number): DbWork<void>;

  // The cell index
  insertEntries(key: number, rows: RowEntries[]): DbWork<void>;
  deleteEntries(key: number, rows: RowEntries[]): DbWork<void>;
  deleteAllEntries(key: number): DbWork<void>;
  /** The positions of an indexed sheet's rows that a filter selection chooses, ascending. */
  matchingPositions(key: number, selection: Filtering): DbWork<number[]>;

  /**
   * Whether aggregates can read the cells of an indexed sheet's rows from the cell index, by row
   * (`GroupSpec.fromIndex`), which costs writes one more index of its entries.
   */
  readonly readsCellsByRow: boolean;
  /** Groups the chosen rows, computes aggregates over their cells, and answers a page of groups. */
  aggregateRows(key: number, choice: RowChoice, spec: GroupSpec): DbWork<GroupPage>;

  // Answers: rows' JSON joined by commas, ready to send between brackets
  /**
   * The rows from position `from` up to `to`, which may lie past the sheet's end. `expected` is
   * about how many that is, as the sheet was looked up: a dialect may read many another way.
   */
  jsonBetween(
    key: number,
    from: number,
    to: number,
    withIds: boolean,
    expected: number,
  ): DbWork<Buffer>;
  jsonAt(key: number, positions: number[], withIds: boolean): DbWork<Buffer>;
  /** All the rows a filter selection chooses on an indexed sheet, found and joined at once. */
  jsonMatching(
    key: number,
    selection: Filtering,
    withIds: boolean,
  ): DbWork<{ count: number; json: Buffer }>;
}

/** What each dialect writes its own way: rows and entries sent in bulk, answers joined. */
export type OwnRowStatements =
  | 'insertRows'
  | 'updateRows'
  | 'placeRows'
  | 'insertEntries'
  | 'deleteEntries'
  | 'jsonBetween'
  | 'jsonAt';

/** Rows' statements over a dialect's driver, written once for both databases. */
export function rowSql(sql: Sql): Omit<RowStatements, OwnRowStatements> {
  const { flavor } = sql;
  const stored = (text: string, values: unknown[]) => sql.rows<StoredRow>(text, values);
  return {
    rowsBetween(key: number, from: number, to: number): DbWork<StoredRow[]> {
      return stored(
        'SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND pos >= $2 AND pos < $3 ORDER BY pos',
        [key, from, to],
      );
    },

    rowsAt(key: number, positions: number[]): DbWork<StoredRow[]> {
      return stored(
        `SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND ${flavor.oneOf('pos', 2, 'int')} ORDER BY pos`,
        [key, flavor.list(positions)],
      );
    },

    rowsByRid(key: number, rids: number[]): DbWork<StoredRow[]> {
      return stored(
        `SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND ${flavor.oneOf('rid', 2, 'int')} ORDER BY pos`,
        [key, flavor.list(rids)],
      );
    },

    *deleteRows(key: number, positions: number[]): DbWork<void> {
      yield* sql.changes(`DELETE FROM rows WHERE sheet = $1 AND ${flavor.oneOf('pos', 2, 'int')}`, [
        key,
        flavor.list(positions),
      ]);
      // The rows below the first gap are numbered again, in order, from it.
      yield* sql.changes(
        `UPDATE rows SET pos = renumbered.pos FROM (
           SELECT rid, $2 + row_number() OVER (ORDER BY pos) - 1 AS pos FROM rows WHERE sheet = $1 AND pos > $2
         ) AS renumbered WHERE rows.sheet = $1 AND rows.rid = renumbered.rid`,
        [key, Math.min(...positions)],
      );
    },

    *openRows(key: number, at: number, count: number): DbWork<void> {
      yield* sql.changes('UPDATE rows SET pos = pos + $2 WHERE sheet = $1 AND pos >= $3', [
        key,
        count,
        at,
      ]);
    },

    *deleteAllRows(key: number): DbWork<void> {
      yield* sql.changes('DELETE FROM rows WHERE sheet = $1', [key]);
    },

    *deleteAllEntries(key: number): DbWork<void> {
      yield* sql.changes('DELETE FROM cells WHERE sheet = $1', [key]);
    },

    *matchingPositions(key: number, selection: Filtering): DbWork<number[]> {
      const p = new SqlParams((n) => `$${n}`);
      const where = selectionCondition(selection, key, flavor.entries, p);
      const rows = yield* sql.rows<{ pos: number }>(
        `SELECT pos FROM rows${flavor.rowsByRid} WHERE sheet = ${p.add(key)}${where} ORDER BY pos`,
        p.values,
      );
      return rows.map((row) => row.pos);
    },

    *jsonMatching(
      key: number,
      selection: Filtering,
      withIds: boolean,
    ): DbWork<{ count: number; json: Buffer }> {
      const p = new SqlParams((n) => `$${n}`);
      const where = selectionCondition(selection, key, flavor.entries, p);
      // The few rows a filter finds are sorted into sheet order as they are joined.
      const joined = flavor.bytes(`string_agg(${rowJson(withIds)}, ',' ORDER BY pos)`);
      const [found] = yield* sql.rows<{ count: number | string; json: Buffer | string | null }>(
        `SELECT count(*) AS count, ${joined} AS json
         FROM rows${flavor.rowsByRid} WHERE sheet = ${p.add(key)}${where}`,
        p.values,
      );
      const json = found?.json ?? '';
      return {
        count: Number(found?.count ?? 0),
        json: Buffer.isBuffer(json) ? json : Buffer.from(json),
      };
    },

    readsCellsByRow: flavor.entryReading !== null,

    *aggregateRows(key: number, choice: RowChoice, spec: GroupSpec): DbWork<GroupPage> {
      const { text, values, read } = aggregateStatement(flavor, key, choice, spec);
      const groups = (yield* sql.rows<Record<string, unknown>>(text, values)).map(read);
      const first = groups[0];
      if (first !== undefined) return { groups, total: first.total };
      // An empty page says nothing of how many groups there are, unless it is the first.
      if (spec.offset === 0 && spec.limit !== 0) return { groups: [], total: 0 };
      // Without _group, all the rows chosen make one group, however few.
      if (spec.group.length === 0) return { groups: [], total: 1 };
      const count = aggregateStatement(flavor, key, choice, spec, true);
      const [counted] = yield* sql.rows<{ total: number | string }>(count.text, count.values);
      return { groups: [], total: Number(counted?.total ?? 0) };
    },
  };
}

import type { PushFence, SheetRecord } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { nameable, type Flavor, type Sql } from './sql.ts';

/** A row of `sheets` as a driver answers it: its JSON, times, numbers and flag in its own types. */
export interface SheetRow {
  key: number;
  id: string;
  name: string;
  columns: unknown;
  source: unknown;
  settings: unknown;
  row_count: number;
  version: number | string;
  next_rid: number | string;
  indexed: number | boolean;
  indexed_columns: unknown;
  in_id_order: number | boolean;
  pushing: string | null;
  created_at: unknown;
  updated_at: unknown;
}

/** The columns of `sheets` that a save writes, in the order of `sheetFields`. */
const sheetColumns =
  'name, columns, source, settings, row_count, version, next_rid, indexed, indexed_columns, in_id_order, pushing, updated_at';

/** A sheet's values for `sheetColumns`: the inverse of `toSheet`. */
function sheetFields(
  flavor: Flavor,
  sheet: Omit<SheetRecord, 'key' | 'id' | 'createdAt'>,
): unknown[] {
  return [
    sheet.name,
    JSON.stringify(sheet.columns),
    JSON.stringify(sheet.source),
    JSON.stringify(sheet.settings),
    sheet.rowCount,
    sheet.version,
    sheet.nextRid,
    flavor.bool(sheet.indexed),
    JSON.stringify(sheet.indexedColumns),
    flavor.bool(sheet.rowsInIdOrder),
    sheet.pushing,
    sheet.updatedAt,
  ];
}

export function toSheet(flavor: Flavor, row: SheetRow): SheetRecord {
  return {
    key: row.key,
    id: row.id,
    name: row.name,
    columns: flavor.json(row.columns),
    rowCount: row.row_count,
    source: flavor.json(row.source),
    settings: flavor.json(row.settings),
    createdAt: flavor.time(row.created_at),
    updatedAt: flavor.time(row.updated_at),
    version: Number(row.version),
    nextRid: Number(row.next_rid),
    indexed: Boolean(row.indexed),
    indexedColumns: flavor.json(row.indexed_columns),
    rowsInIdOrder: Boolean(row.in_id_order),
    pushing: row.pushing,
  };
}

/**
 * Taking a sheet's lock makes its epoch one greater, in one statement (no row: a lock of something
 * else than a sheet, epoch 0). Outside `saveSheet`: only taking the lock moves it.
 */
export const bumpLockEpoch =
  'UPDATE sheets SET lock_epoch = lock_epoch + 1 WHERE id = $1 RETURNING lock_epoch';

/** Sheets and their push fences, as the engine asks for them. */
export interface SheetStatements {
  sheetById(id: string, lock?: boolean): DbWork<SheetRecord | null>;
  /** The sheets of those ids that exist, in any order, in one statement. */
  sheetsById(ids: string[]): DbWork<SheetRecord[]>;
  listSheets(): DbWork<SheetRecord[]>;
  /**
   * A key no sheet has, for the sheet about to be inserted in the same transaction: each
   * dialect's own (the next of a sequence, or the next number where writers take turns).
   */
  newSheetKey(): DbWork<number>;
  insertSheet(sheet: SheetRecord, state: 'importing' | 'ready'): DbWork<void>;
  /**
   * Saves a sheet's fields; `publish` also makes an imported sheet visible, once all its rows
   * are in (in the same statement: on PostgreSQL each update leaves a row version behind).
   */
  saveSheet(sheet: SheetRecord, publish?: boolean): DbWork<void>;
  /** The sheet's lock epoch, and when its push's requests can no longer be in flight. */
  pushFence(id: string): DbWork<PushFence | null>;
  setPushSettleAfter(key: number, at: number | null): DbWork<void>;
  /** Removes a sheet with its rows, cells, blocks and events. */
  deleteSheet(key: number): DbWork<void>;
  /** Removes what imports cut off by a crash left behind. */
  dropAbandonedImports(): DbWork<void>;
}

/**
 * Sheets' statements over a dialect's driver, written once for both databases. `abandonedImport`
 * is what makes an import still running count as cut off by a crash, as a condition on `sheets`
 * ('' where the process is the store's only writer).
 */
export function sheetSql(sql: Sql, abandonedImport: string): Omit<SheetStatements, 'newSheetKey'> {
  const { flavor } = sql;
  const sheet = (row: SheetRow) => toSheet(flavor, row);

  function* deleteSheet(key: number): DbWork<void> {
    yield* sql.changes('DELETE FROM rows WHERE sheet = $1', [key]);
    yield* sql.changes('DELETE FROM cells WHERE sheet = $1', [key]);
    yield* sql.changes('DELETE FROM blocks WHERE sheet = $1', [key]);
    yield* sql.changes(
      'DELETE FROM events WHERE sheet_id = (SELECT id FROM sheets WHERE key = $1)',
      [key],
    );
    yield* sql.changes('DELETE FROM sheets WHERE key = $1', [key]);
  }

  return {
    *sheetById(id: string, lock = false): DbWork<SheetRecord | null> {
      if (!nameable(id)) return null;
      const [row] = yield* sql.rows<SheetRow>(
        `SELECT * FROM sheets WHERE id = $1 AND state = 'ready'${lock ? flavor.forUpdate : ''}`,
        [id],
      );
      return row === undefined ? null : sheet(row);
    },

    *sheetsById(ids: string[]): DbWork<SheetRecord[]> {
      const rows = yield* sql.rows<SheetRow>(
        `SELECT * FROM sheets WHERE ${flavor.oneOf('id', 1, 'text')} AND state = 'ready'`,
        [flavor.list(ids.filter(nameable))],
      );
      return rows.map(sheet);
    },

    *listSheets(): DbWork<SheetRecord[]> {
      const rows = yield* sql.rows<SheetRow>(
        `SELECT * FROM sheets WHERE state = 'ready' ORDER BY key`,
        [],
      );
      return rows.map(sheet);
    },

    *insertSheet(record: SheetRecord, state: 'importing' | 'ready'): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO sheets (${sheetColumns}, key, id, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
        [...sheetFields(flavor, record), record.key, record.id, state, record.createdAt],
      );
    },

    *saveSheet(record: SheetRecord, publish = false): DbWork<void> {
      yield* sql.changes(
        `UPDATE sheets SET (${sheetColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12),
           state = CASE WHEN $13 THEN 'ready' ELSE state END WHERE key = $14`,
        [...sheetFields(flavor, record), flavor.bool(publish), record.key],
      );
    },

    *pushFence(id: string): DbWork<PushFence | null> {
      if (!nameable(id)) return null;
      const [row] = yield* sql.rows<{
        lock_epoch: number | string;
        push_settle_after: number | string | null;
      }>('SELECT lock_epoch, push_settle_after FROM sheets WHERE id = $1', [id]);
      if (row === undefined) return null;
      return {
        epoch: Number(row.lock_epoch),
        settleAfter: row.push_settle_after === null ? null : Number(row.push_settle_after),
      };
    },

    *setPushSettleAfter(key: number, at: number | null): DbWork<void> {
      yield* sql.changes('UPDATE sheets SET push_settle_after = $1 WHERE key = $2', [at, key]);
    },

    deleteSheet,

    *dropAbandonedImports(): DbWork<void> {
      const abandoned = yield* sql.rows<{ key: number }>(
        `SELECT key FROM sheets WHERE state = 'importing'${abandonedImport}`,
        [],
      );
      for (const { key } of abandoned) yield* deleteSheet(key);
    },
  };
}

import type { PushFence, SheetRecord } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { nameable, SqlStatements, type Flavor } from './sql.ts';

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
export const sheetColumns =
  'name, columns, source, settings, row_count, version, next_rid, indexed, indexed_columns, in_id_order, pushing, updated_at';

/** A sheet's values for `sheetColumns`: the inverse of `toSheet`. */
export function sheetFields(
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

/** Sheets: the statements both dialects share. */
export abstract class SheetSql extends SqlStatements {
  /** What makes an import still running count as cut off by a crash, as a condition on `sheets`. */
  protected abstract readonly abandonedImport: string;

  *sheetById(id: string, lock = false): DbWork<SheetRecord | null> {
    if (!nameable(id)) return null;
    return yield* this.one(
      `SELECT * FROM sheets WHERE id = $1 AND state = 'ready'${lock ? this.flavor.forUpdate : ''}`,
      [id],
      (row: SheetRow) => toSheet(this.flavor, row),
    );
  }

  sheetsById(ids: string[]): DbWork<SheetRecord[]> {
    return this.all(
      `SELECT * FROM sheets WHERE ${this.flavor.oneOf('id', 1, 'text')} AND state = 'ready'`,
      [this.flavor.list(ids.filter(nameable))],
      (row: SheetRow) => toSheet(this.flavor, row),
    );
  }

  listSheets(): DbWork<SheetRecord[]> {
    return this.all(
      `SELECT * FROM sheets WHERE state = 'ready' ORDER BY key`,
      [],
      (row: SheetRow) => toSheet(this.flavor, row),
    );
  }

  insertSheet(sheet: SheetRecord, state: 'importing' | 'ready'): DbWork<void> {
    return this.run(
      `INSERT INTO sheets (${sheetColumns}, key, id, state, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [...sheetFields(this.flavor, sheet), sheet.key, sheet.id, state, sheet.createdAt],
    );
  }

  saveSheet(sheet: SheetRecord, publish = false): DbWork<void> {
    return this.run(
      `UPDATE sheets SET (${sheetColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12),
         state = CASE WHEN $13 THEN 'ready' ELSE state END WHERE key = $14`,
      [...sheetFields(this.flavor, sheet), this.flavor.bool(publish), sheet.key],
    );
  }

  *pushFence(id: string): DbWork<PushFence | null> {
    if (!nameable(id)) return null;
    return yield* this.one(
      'SELECT lock_epoch, push_settle_after FROM sheets WHERE id = $1',
      [id],
      (row: { lock_epoch: number | string; push_settle_after: number | string | null }) => ({
        epoch: Number(row.lock_epoch),
        settleAfter: row.push_settle_after === null ? null : Number(row.push_settle_after),
      }),
    );
  }

  setPushSettleAfter(key: number, at: number | null): DbWork<void> {
    return this.run('UPDATE sheets SET push_settle_after = $1 WHERE key = $2', [at, key]);
  }

  *deleteSheet(key: number): DbWork<void> {
    yield* this.run('DELETE FROM rows WHERE sheet = $1', [key]);
    yield* this.run('DELETE FROM cells WHERE sheet = $1', [key]);
    yield* this.run('DELETE FROM blocks WHERE sheet = $1', [key]);
    yield* this.run('DELETE FROM events WHERE sheet_id = (SELECT id FROM sheets WHERE key = $1)', [
      key,
    ]);
    yield* this.run('DELETE FROM sheets WHERE key = $1', [key]);
  }

  *dropAbandonedImports(): DbWork<void> {
    const abandoned = yield* this.all<{ key: number }>(
      `SELECT key FROM sheets WHERE state = 'importing'${this.abandonedImport}`,
      [],
    );
    for (const { key } of abandoned) yield* this.deleteSheet(key);
  }
}

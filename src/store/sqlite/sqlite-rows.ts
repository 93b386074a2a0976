import type Database from 'better-sqlite3';
import type { RowEntries } from '../cell-index.ts';
import type { StoredRow } from '../row-json.ts';
import { blockSql, type BlockStatements } from '../sql/block-sql.ts';
import { rowJson, rowSql, type RowStatements } from '../sql/row-sql.ts';
import { sheetSql, type SheetStatements } from '../sql/sheet-sql.ts';
import { driverCall, type DbWork } from '../db-work.ts';
import { BlockPool } from './block-pool.ts';
import { entryValues } from './sqlite-cells.ts';
import { retireNewest } from './sqlite-outbox.ts';
import type { SqliteSql } from './sqlite-sql.ts';

type Db = Database.Database;

/**
 * The bytes of blocks the pool keeps, besides the read cache's: a sheet of 100,000 rows of four
 * short columns takes about 7.5 MB.
 */
const pooledBlockBytes = 64 * 1024 * 1024;

/**
 * Sheets' shared statements, but any import still marked as running was cut off (this process
 * is the file's only writer), and a new sheet takes the key SQLite would choose: writers are
 * serialised, so no one else takes it.
 */
export function sqliteSheets(sql: SqliteSql): SheetStatements {
  const shared = sheetSql(sql, '');
  return {
    ...shared,
    *deleteSheet(key: number): DbWork<void> {
      // Its newest event, if the newest of all, keeps its position (see sqlite-outbox.ts).
      yield* retireNewest(sql, 'sheet_id = (SELECT id FROM sheets WHERE key = $1)', [key]);
      yield* shared.deleteSheet(key);
    },
    *newSheetKey(): DbWork<number> {
      const [row] = yield* sql.rows<{ key: number }>(
        'SELECT coalesce(max(key), 0) + 1 AS key FROM sheets',
        [],
      );
      return (row as { key: number }).key;
    },
  };
}

/**
 * Rows' shared statements, but rows and entries written by one prepared statement run for each,
 * and answers joined by SQLite itself and handed over as bytes, with no per-row work here.
 */
export function sqliteRows(sql: SqliteSql): RowStatements {
  const json = (where: string, params: unknown[], withIds: boolean): DbWork<Buffer> =>
    driverCall((db: Db) => joinedRows(sql, db, where, params, withIds));
  return {
    ...rowSql(sql),

    insertRows: (key: number, rows: StoredRow[]) =>
      sql.each(
        'INSERT INTO rows (sheet, pos, rid, json, dates) VALUES (?, ?, ?, ?, ?)',
        rows,
        (row) => [key, row.pos, row.rid, row.json, row.dates],
      ),

    updateRows: (key: number, rows: StoredRow[]) =>
      sql.each(
        'UPDATE rows SET json = ?, dates = ? WHERE sheet = ? AND pos = ? AND rid = ?',
        rows,
        (row) => [row.json, row.dates, key, row.pos, row.rid],
      ),

    placeRows: (key: number, rows: StoredRow[]) =>
      sql.each('UPDATE rows SET pos = ? WHERE sheet = ? AND rid = ?', rows, (row) => [
        row.pos,
        key,
        row.rid,
      ]),

    insertEntries: (key: number, rows: RowEntries[]) =>
      sql.each(
        'INSERT INTO cells (sheet, col, value, rid, folded, shown) VALUES (?, ?, ?, ?, ?, ?)',
        entriesOf(rows),
        ({ rid, entry }) => {
          const [value, folded, shown] = entryValues(entry);
          return [key, entry.col, value, rid, folded, shown];
        },
      ),

    deleteEntries: (key: number, rows: RowEntries[]) =>
      sql.each(
        'DELETE FROM cells WHERE sheet = ? AND col = ? AND value = ? AND rid = ?',
        entriesOf(rows),
        ({ rid, entry }) => [key, entry.col, entryValues(entry)[0], rid],
      ),

    jsonBetween: (key: number, from: number, to: number, withIds: boolean) =>
      json(`pos >= ? AND pos < ?`, [key, from, to], withIds),

    jsonAt: (key: number, positions: number[], withIds: boolean) =>
      json(`pos IN (SELECT value FROM json_each(?))`, [key, JSON.stringify(positions)], withIds),
  };
}

/**
 * Blocks' shared statements, but inserted one prepared statement a block, and read as bytes,
 * which a sheet's next whole reads at the same version take from the pool.
 */
export function sqliteBlocks(sql: SqliteSql): BlockStatements {
  const pool = new BlockPool(pooledBlockBytes);
  return {
    ...blockSql(sql),

    insertBlocks: (key: number, blocks: { block: number; count: number; json: string }[]) =>
      sql.each(
        'INSERT INTO blocks (sheet, block, count, json) VALUES (?, ?, ?, ?)',
        blocks,
        (b) => [key, b.block, b.count, b.json],
      ),

    /** The blocks come as bytes, joined only as they are sent: cheaper than joining them in SQL. */
    jsonOfBlocks: (key: number, maxRows: number): DbWork<Buffer[] | null> =>
      driverCall((db: Db) => {
        const sheet = sql
          .statement(db, 'SELECT id, version, row_count AS rows FROM sheets WHERE key = ?')
          .get(key) as { id: string; version: number; rows: number } | undefined;
        if (sheet === undefined || sheet.rows > maxRows) return null;
        // Inside a write, the blocks may have changed ahead of the sheet's version.
        const committed = !db.inTransaction || db.readonly;
        const kept = committed ? pool.get(key, sheet.id, sheet.version) : null;
        if (kept !== null) return kept;
        const blocks: Buffer[] = [];
        let held = 0;
        for (const [count, json] of sql
          .statement(db, 'SELECT count, CAST(json AS BLOB) FROM blocks WHERE sheet = ?')
          .raw()
          .iterate(key) as Iterable<[number, Buffer]>) {
          blocks.push(json);
          held += count;
        }
        if (held < sheet.rows) {
          const waiting = joinedRows(sql, db, 'pos >= ?', [key, held], false);
          if (waiting.length > 0) blocks.push(waiting);
        }
        if (committed) pool.set(key, sheet.id, sheet.version, blocks);
        return blocks;
      }),
  };
}

/**
 * The JSON of a sheet's rows where `where` holds (its parameters after the sheet's key), joined
 * by commas, as bytes: empty when there are none. The primary key range scan yields rows in
 * position order, which is the order joined; an ORDER BY inside group_concat would sort them
 * again, at five times the cost.
 */
function joinedRows(
  sql: SqliteSql,
  db: Db,
  where: string,
  params: unknown[],
  withIds: boolean,
): Buffer {
  const joined = sql
    .statement(
      db,
      `SELECT CAST(group_concat(${rowJson(withIds)}, ',') AS BLOB) FROM rows WHERE sheet = ? AND ${where}`,
    )
    .pluck()
    .get(...params) as Buffer | null;
  return joined ?? Buffer.alloc(0);
}

function* entriesOf(rows: RowEntries[]) {
  for (const { rid, entries } of rows) for (const entry of entries) yield { rid, entry };
}

import type { PoolClient } from 'pg';
import type { RowEntries } from '../cell-index.ts';
import type { StoredRow } from '../row-json.ts';
import { blockSql, type BlockStatements } from '../sql/block-sql.ts';
import { rowJson, rowSql, type RowStatements } from '../sql/row-sql.ts';
import { driverCall, type DbWork } from '../db-work.ts';
import { copyFirstColumn } from './binary-copy.ts';
import { entryColumns } from './postgres-cells.ts';
import { postgresSql } from './postgres-sql.ts';

type Query = (db: PoolClient) => Promise<unknown>;

/** Rows from which `jsonBetween` reads by COPY. */
const copiedRows = 250;

/**
 * Rows' shared statements, but rows and entries sent as arrays whole (`unnest`), and answers
 * joined by PostgreSQL itself, many rows read by binary COPY (see binary-copy.ts).
 */
export function postgresRows(): RowStatements {
  const sql = postgresSql;
  /** Joined by PostgreSQL itself: one text for the whole answer, no per-row work here. */
  function* json(where: string, values: unknown[], withIds: boolean): DbWork<Buffer> {
    const [row] = yield* sql.rows<{ joined: string }>(
      // From a subquery in position order: an ORDER BY inside string_agg would sort again.
      `SELECT coalesce(string_agg(${rowJson(withIds)}, ','), '') AS joined FROM (SELECT pos, json FROM rows WHERE sheet = $1 AND ${where} ORDER BY pos) AS ordered`,
      values,
    );
    return Buffer.from((row as { joined: string }).joined);
  }
  return {
    ...rowSql(sql),

    *insertRows(key: number, rows: StoredRow[]): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO rows (sheet, pos, rid, json, dates)
         SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[])`,
        [key, ...columnsOf(rows)],
      );
    },

    *updateRows(key: number, rows: StoredRow[]): DbWork<void> {
      yield* sql.changes(
        `UPDATE rows SET json = changed.json, dates = changed.dates
         FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS changed (pos, rid, json, dates)
         WHERE rows.sheet = $1 AND rows.pos = changed.pos AND rows.rid = changed.rid`,
        [key, ...columnsOf(rows)],
      );
    },

    *placeRows(key: number, rows: StoredRow[]): DbWork<void> {
      if (rows.length === 0) return;
      yield* sql.changes(
        `UPDATE rows SET pos = placed.pos
         FROM unnest($2::int[], $3::int[]) AS placed (rid, pos)
         WHERE rows.sheet = $1 AND rows.rid = placed.rid`,
        [key, rows.map((row) => row.rid), rows.map((row) => row.pos)],
      );
    },

    *insertEntries(key: number, rows: RowEntries[]): DbWork<void> {
      const flat = flatEntries(rows);
      if (flat.length === 0) return;
      yield* sql.changes(
        `INSERT INTO cells (sheet, col, rid, num, txt, bool, folded, shown)
         SELECT $1, * FROM unnest($2::int[], $3::int[], $4::float8[], $5::text[], $6::bool[], $7::text[], $8::text[])`,
        [
          key,
          flat.map((e) => e.col),
          flat.map((e) => e.rid),
          flat.map((e) => e.num),
          flat.map((e) => e.txt),
          flat.map((e) => e.bool),
          flat.map((e) => e.folded),
          flat.map((e) => e.shown),
        ],
      );
    },

    *deleteEntries(key: number, rows: RowEntries[]): DbWork<void> {
      const flat = flatEntries(rows);
      const numbers = flat.filter((e) => e.num !== null);
      const texts = flat.filter((e) => e.txt !== null);
      // By value as well as row, so that each goes through the value's index.
      if (numbers.length > 0) {
        yield* sql.changes(
          `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::float8[]) AS gone (col, rid, num)
           WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.num = gone.num AND cells.rid = gone.rid`,
          [key, numbers.map((e) => e.col), numbers.map((e) => e.rid), numbers.map((e) => e.num)],
        );
      }
      if (texts.length > 0) {
        yield* sql.changes(
          `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::text[]) AS gone (col, rid, txt)
           WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.txt = gone.txt AND cells.rid = gone.rid`,
          [key, texts.map((e) => e.col), texts.map((e) => e.rid), texts.map((e) => e.txt)],
        );
      }
    },

    /**
     * A few rows come by a prepared statement; more come by COPY, as bytes (see binary-copy.ts),
     * which costs a plan each time but saves decoding and encoding their text: from about 200
     * rows on, and a streamed answer's every piece, it is the faster, and it leaves less garbage.
     */
    jsonBetween(key, from, to, withIds, expected) {
      if (expected < copiedRows) return json('pos >= $2 AND pos < $3', [key, from, to], withIds);
      return driverCall<Query, Buffer>(async (db) => {
        const [joined] = await copyFirstColumn(
          db,
          `SELECT string_agg(${rowJson(withIds)}, ',') FROM (
             SELECT pos, json FROM rows
             WHERE sheet = ${integer(key)} AND pos >= ${integer(from)} AND pos < ${integer(to)}
             ORDER BY pos
           ) AS ordered`,
        );
        return joined ?? Buffer.alloc(0);
      });
    },

    jsonAt(key: number, positions: number[], withIds: boolean): DbWork<Buffer> {
      return json('pos = ANY($2::int[])', [key, positions], withIds);
    },
  };
}

/** Blocks' shared statements, but inserted as arrays sent whole, and read by binary COPY. */
export function postgresBlocks(): BlockStatements {
  return {
    ...blockSql(postgresSql),

    *insertBlocks(
      key: number,
      blocks: { block: number; count: number; json: string }[],
    ): DbWork<void> {
      yield* postgresSql.changes(
        'INSERT INTO blocks (sheet, block, count, json) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[])',
        [key, blocks.map((b) => b.block), blocks.map((b) => b.count), blocks.map((b) => b.json)],
      );
    },

    /**
     * Blocks arrive as rows of a few kilobytes each, which PostgreSQL sends far faster than one,
     * and as the bytes stored (see binary-copy.ts).
     */
    jsonOfBlocks(key: number, maxRows: number): DbWork<Buffer[] | null> {
      return driverCall<Query, Buffer[] | null>(async (db) => {
        // A sheet of more rows than asked for answers nothing, without sending its blocks. One
        // that answers sends a null first, then its blocks, then the rows waiting after them.
        const pieces = await copyFirstColumn(
          db,
          `WITH sheet AS (
             SELECT key FROM sheets WHERE key = ${integer(key)} AND row_count <= ${integer(maxRows)}
           )
           SELECT piece FROM (
             SELECT 0 AS part, 0 AS n, NULL::text AS piece FROM sheet
             UNION ALL SELECT 1, block, json FROM blocks JOIN sheet ON blocks.sheet = sheet.key
             UNION ALL SELECT 2, pos, json FROM rows JOIN sheet ON rows.sheet = sheet.key
               WHERE pos >= (SELECT coalesce(sum(count), 0) FROM blocks WHERE blocks.sheet = sheet.key)
           ) AS pieces ORDER BY part, n`,
        );
        if (pieces.length === 0) return null;
        return pieces.filter((piece): piece is Buffer => piece !== null);
      });
    },
  };
}

function columnsOf(rows: StoredRow[]): [number[], number[], string[], (string | null)[]] {
  return [
    rows.map((r) => r.pos),
    rows.map((r) => r.rid),
    rows.map((r) => r.json),
    rows.map((r) => r.dates),
  ];
}

function flatEntries(rows: RowEntries[]) {
  return rows.flatMap(({ rid, entries }) =>
    entries.map((entry) => ({ col: entry.col, rid, ...entryColumns(entry) })),
  );
}

/** A number to write into a statement's text, checked to be the integer it claims to be. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
}

import type { BlockHead } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import type { Sql } from './sql.ts';

/** A large sheet's rows joined, a run of consecutive rows each (see ../row-blocks.ts). */
export interface BlockStatements {
  blockHeads(key: number): DbWork<BlockHead[]>;
  /** The rows all of a sheet's blocks hold (those after them wait to join them). */
  heldRows(key: number): DbWork<number>;
  /** The last `limit` blocks' heads, in order: all an append needs, without walking every block. */
  lastBlockHeads(key: number, limit: number): DbWork<BlockHead[]>;
  insertBlocks(key: number, blocks: { block: number; count: number; json: string }[]): DbWork<void>;
  /** Adds rows' joined JSON at the end of a block. */
  appendToBlock(key: number, block: number, count: number, json: string): DbWork<void>;
  /** Joins a block again from the `count` rows from `start`; answers its new length. */
  rejoinBlock(key: number, block: number, start: number, count: number): DbWork<number>;
  deleteBlocks(key: number, blocks: number[]): DbWork<void>;
  deleteAllBlocks(key: number): DbWork<void>;
  /**
   * Every row, from the blocks and then the rows waiting to join them, one piece each (to be
   * joined by commas): null when the sheet has more rows than `maxRows` by now, so the read must
   * take its rows from the rows themselves.
   */
  jsonOfBlocks(key: number, maxRows: number): DbWork<Buffer[] | null>;
}

/** Blocks' statements over a dialect's driver, written once for both databases. */
export function blockSql(sql: Sql): Omit<BlockStatements, 'insertBlocks' | 'jsonOfBlocks'> {
  const { flavor } = sql;
  return {
    // Sizes in bytes: SQLite's length() of a text reads the whole text to count its characters.
    blockHeads(key: number): DbWork<BlockHead[]> {
      return sql.rows(
        `SELECT block, count, octet_length(json) AS bytes FROM blocks WHERE sheet = $1 ORDER BY block`,
        [key],
      );
    },

    *heldRows(key: number): DbWork<number> {
      const [row] = yield* sql.rows<{ rows: number | string }>(
        'SELECT coalesce(sum(count), 0) AS rows FROM blocks WHERE sheet = $1',
        [key],
      );
      return Number((row as { rows: number | string }).rows);
    },

    lastBlockHeads(key: number, limit: number): DbWork<BlockHead[]> {
      return sql.rows(
        `SELECT * FROM (
           SELECT block, count, octet_length(json) AS bytes FROM blocks
           WHERE sheet = $1 ORDER BY block DESC LIMIT $2
         ) AS last ORDER BY block`,
        [key, limit],
      );
    },

    *appendToBlock(key: number, block: number, count: number, json: string): DbWork<void> {
      yield* sql.changes(
        `UPDATE blocks SET count = count + $3, json = json || ',' || $4 WHERE sheet = $1 AND block = $2`,
        [key, block, count, json],
      );
    },

    *rejoinBlock(key: number, block: number, start: number, count: number): DbWork<number> {
      // From a subquery in position order: an ORDER BY inside string_agg would sort again.
      const [row] = yield* sql.rows<{ bytes: number }>(
        `UPDATE blocks SET count = $3, json = (
           SELECT string_agg(json, ',') FROM (
             SELECT json FROM rows WHERE sheet = $1 AND pos >= $4 AND pos < $4 + $3 ORDER BY pos
           ) AS ordered
         ) WHERE sheet = $1 AND block = $2 RETURNING octet_length(json) AS bytes`,
        [key, block, count, start],
      );
      return (row as { bytes: number }).bytes;
    },

    *deleteBlocks(key: number, blocks: number[]): DbWork<void> {
      yield* sql.changes(
        `DELETE FROM blocks WHERE sheet = $1 AND ${flavor.oneOf('block', 2, 'int')}`,
        [key, flavor.list(blocks)],
      );
    },

    *deleteAllBlocks(key: number): DbWork<void> {
      yield* sql.changes('DELETE FROM blocks WHERE sheet = $1', [key]);
    },
  };
}

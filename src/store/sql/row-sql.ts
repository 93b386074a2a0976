import type { Filtering } from '../../query/plan.ts';
import type { BlockHead } from '../store-records.ts';
import type { StoredRow } from '../row-json.ts';
import { selectionCondition, SqlParams } from '../row-sets.ts';
import type { DbWork } from '../db-work.ts';
import { SheetSql } from './sheet-sql.ts';
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

/** Rows, the cell index and blocks: the statements both dialects share. */
export abstract class RowSql extends SheetSql {
  rowsBetween(key: number, from: number, to: number): DbWork<StoredRow[]> {
    return this.all(
      'SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND pos >= $2 AND pos < $3 ORDER BY pos',
      [key, from, to],
    );
  }

  rowsAt(key: number, positions: number[]): DbWork<StoredRow[]> {
    return this.all(
      `SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND ${this.flavor.oneOf('pos', 2, 'int')} ORDER BY pos`,
      [key, this.flavor.list(positions)],
    );
  }

  rowsByRid(key: number, rids: number[]): DbWork<StoredRow[]> {
    return this.all(
      `SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND ${this.flavor.oneOf('rid', 2, 'int')} ORDER BY pos`,
      [key, this.flavor.list(rids)],
    );
  }

  *deleteRows(key: number, positions: number[]): DbWork<void> {
    yield* this.run(`DELETE FROM rows WHERE sheet = $1 AND ${this.flavor.oneOf('pos', 2, 'int')}`, [
      key,
      this.flavor.list(positions),
    ]);
    // The rows below the first gap are numbered again, in order, from it.
    yield* this.run(
      `UPDATE rows SET pos = renumbered.pos FROM (
         SELECT rid, $2 + row_number() OVER (ORDER BY pos) - 1 AS pos FROM rows WHERE sheet = $1 AND pos > $2
       ) AS renumbered WHERE rows.sheet = $1 AND rows.rid = renumbered.rid`,
      [key, Math.min(...positions)],
    );
  }

  openRows(key: number, at: number, count: number): DbWork<void> {
    return this.run('UPDATE rows SET pos = pos + $2 WHERE sheet = $1 AND pos >= $3', [
      key,
      count,
      at,
    ]);
  }

  deleteAllRows(key: number): DbWork<void> {
    return this.run('DELETE FROM rows WHERE sheet = $1', [key]);
  }

  deleteAllEntries(key: number): DbWork<void> {
    return this.run('DELETE FROM cells WHERE sheet = $1', [key]);
  }

  *matchingPositions(key: number, selection: Filtering): DbWork<number[]> {
    const p = new SqlParams((n) => `$${n}`);
    const where = selectionCondition(selection, key, this.flavor.entries, p);
    const rows = yield* this.all<{ pos: number }>(
      `SELECT pos FROM rows${this.flavor.rowsByRid} WHERE sheet = ${p.add(key)}${where} ORDER BY pos`,
      p.values,
    );
    return rows.map((row) => row.pos);
  }

  *jsonMatching(
    key: number,
    selection: Filtering,
    withIds: boolean,
  ): DbWork<{ count: number; json: Buffer }> {
    const p = new SqlParams((n) => `$${n}`);
    const where = selectionCondition(selection, key, this.flavor.entries, p);
    // The few rows a filter finds are sorted into sheet order as they are joined.
    const joined = this.flavor.bytes(`string_agg(${rowJson(withIds)}, ',' ORDER BY pos)`);
    const found = yield* this.one<{ count: number | string; json: Buffer | string | null }>(
      `SELECT count(*) AS count, ${joined} AS json
       FROM rows${this.flavor.rowsByRid} WHERE sheet = ${p.add(key)}${where}`,
      p.values,
    );
    const json = found?.json ?? '';
    return {
      count: Number(found?.count ?? 0),
      json: Buffer.isBuffer(json) ? json : Buffer.from(json),
    };
  }

  get readsCellsByRow(): boolean {
    return this.flavor.entryReading !== null;
  }

  *aggregateRows(key: number, choice: RowChoice, spec: GroupSpec): DbWork<GroupPage> {
    const { text, values, read } = aggregateStatement(this.flavor, key, choice, spec);
    const groups = (yield* this.all<Record<string, unknown>>(text, values)).map(read);
    const first = groups[0];
    if (first !== undefined) return { groups, total: first.total };
    // An empty page says nothing of how many groups there are, unless it is the first.
    if (spec.offset === 0 && spec.limit !== 0) return { groups: [], total: 0 };
    // Without _group, all the rows chosen make one group, however few.
    if (spec.group.length === 0) return { groups: [], total: 1 };
    const count = aggregateStatement(this.flavor, key, choice, spec, true);
    const [counted] = yield* this.all<{ total: number | string }>(count.text, count.values);
    return { groups: [], total: Number(counted?.total ?? 0) };
  }

  // Blocks

  // Sizes in bytes: SQLite's length() of a text reads the whole text to count its characters.
  blockHeads(key: number): DbWork<BlockHead[]> {
    return this.all(
      `SELECT block, count, octet_length(json) AS bytes FROM blocks WHERE sheet = $1 ORDER BY block`,
      [key],
    );
  }

  lastBlockHeads(key: number, limit: number): DbWork<BlockHead[]> {
    return this.all(
      `SELECT * FROM (
         SELECT block, count, octet_length(json) AS bytes FROM blocks
         WHERE sheet = $1 ORDER BY block DESC LIMIT $2
       ) AS last ORDER BY block`,
      [key, limit],
    );
  }

  appendToBlock(key: number, block: number, count: number, json: string): DbWork<void> {
    return this.run(
      `UPDATE blocks SET count = count + $3, json = json || ',' || $4 WHERE sheet = $1 AND block = $2`,
      [key, block, count, json],
    );
  }

  *rejoinBlock(key: number, block: number, start: number, count: number): DbWork<number> {
    // From a subquery in position order: an ORDER BY inside string_agg would sort again.
    const row = yield* this.one<{ bytes: number }>(
      `UPDATE blocks SET count = $3, json = (
         SELECT string_agg(json, ',') FROM (
           SELECT json FROM rows WHERE sheet = $1 AND pos >= $4 AND pos < $4 + $3 ORDER BY pos
         ) AS ordered
       ) WHERE sheet = $1 AND block = $2 RETURNING octet_length(json) AS bytes`,
      [key, block, count, start],
    );
    return (row as { bytes: number }).bytes;
  }

  deleteBlocks(key: number, blocks: number[]): DbWork<void> {
    return this.run(
      `DELETE FROM blocks WHERE sheet = $1 AND ${this.flavor.oneOf('block', 2, 'int')}`,
      [key, this.flavor.list(blocks)],
    );
  }

  deleteAllBlocks(key: number): DbWork<void> {
    return this.run('DELETE FROM blocks WHERE sheet = $1', [key]);
  }
}

import type { Cell } from '../cells/cell.ts';
import { rowEntries } from './cell-index.ts';
import type { Dialect } from './dialect.ts';
import { RowBlocks } from './row-blocks.ts';
import { RowCodec } from './row-json.ts';
import type { DbWork } from './db-work.ts';

/**
 * Moves one sheet of a store made before the shared tables (release 0.1.0, one table per sheet)
 * into them, in sheet order: its rows as JSON, and its cells into the index if it is large.
 * Each dialect reads its own old layout; this is what both do with the rows once read.
 */
export function* moveLegacyRows(
  db: Dialect,
  key: number,
  columns: string[],
  rows: Cell[][],
  indexThreshold: number,
): DbWork<{ rowCount: number; nextRid: number; indexed: boolean }> {
  const codec = new RowCodec(columns);
  const indexed = rows.length > indexThreshold;
  const blocks = new RowBlocks(db.blocks, db.rows, key);
  for (let start = 0; start < rows.length; start += 5000) {
    const part = rows.slice(start, start + 5000);
    const stored = part.map((cells, i) => ({
      pos: start + i,
      rid: start + i,
      ...codec.encode(cells),
    }));
    yield* db.rows.insertRows(key, stored);
    if (indexed) {
      yield* db.rows.insertEntries(
        key,
        part.map((cells, i) => ({ rid: start + i, entries: rowEntries(cells) })),
      );
      yield* blocks.appended(stored);
    }
  }
  return { rowCount: rows.length, nextRid: rows.length, indexed };
}

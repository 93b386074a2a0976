import type { Cell } from '../cells/cell.ts';
import { matchesSelection } from '../query/match-filter.ts';
import type { Selection } from '../query/plan.ts';
import type { MoveEffect, RowEffect } from '../model/write-effect.ts';
import { filterColumns, rowEntries } from './cell-index.ts';
import type { Dialect } from './dialect.ts';
import type { SheetRecord } from './store-records.ts';
import { checkPositions, type RowSource } from './plan-write.ts';
import { RowBlocks, type BlockEnd } from './row-blocks.ts';
import { RowCodec, withPositionAndKey, type StoredRow } from './row-json.ts';
import type { DbWork } from './db-work.ts';
import { keysNotFound, ridOfKey, rowEtag } from '../query/row-key.ts';

/** Rows read at a time to put a column into the cell index. */
const indexChunkRows = 10_000;

/** What one effect did to the stored rows, as the row events tell it. */
export interface RowChange {
  type: 'rows.created' | 'rows.updated' | 'rows.deleted';
  /** Each row's JSON with its `_id` and `_key`: after the change, or before it for deleted rows. */
  rows: string[];
  /** For updated rows, the same rows as they were. */
  previous?: string[];
}

/**
 * A sheet's stored rows inside a write transaction, as writes are planned and applied against
 * them. Small sheets are filtered in memory; a large one (past `indexThreshold` rows) is filtered
 * through the cell index, on the columns filters have asked for, and read whole from its blocks,
 * both of which this keeps in step with the rows.
 */
export class StoredRows implements RowSource {
  /** Scratch and uploaded sheets live only here, where an empty row stays where it is. */
  readonly keepsEmptyRows = true;
  /** Whether columns joined the cell index here: the sheet must be saved even if no row changed. */
  indexGrew = false;
  readonly codec: RowCodec;
  readonly changes: RowChange[] = [];
  /** The JSON of the rows appended here, in order, as long as nothing else changed; else null. */
  appendedOnly: string[] | null = [];
  /** The sheet's rows joined in blocks, kept with the rows once it is large. */
  readonly #blocks: RowBlocks;
  /** Rows read since the last change, so planning and applying a write read them once. */
  #fetched = new Map<number, { stored: StoredRow; cells: Cell[] }>();
  /**
   * Rows appended but not yet stored: the appends of one commit (many POSTs of single rows,
   * usually) reach the database as one insert, and the blocks are told of them once.
   */
  #appended: { stored: StoredRow[]; cells: Cell[][] } = { stored: [], cells: [] };

  constructor(
    private readonly dialect: Dialect,
    readonly record: SheetRecord,
    private readonly indexThreshold: number,
    /** Imports keep no record of their rows: a new sheet has no row events. */
    private readonly recordChanges = true,
    /** Where the blocks end, when known from the write before (see BlockTails). */
    blockEnd: BlockEnd | null = null,
  ) {
    this.codec = new RowCodec(record.columns);
    this.#blocks = new RowBlocks(dialect.blocks, dialect.rows, record.key, blockEnd);
  }

  /** Where the blocks end as this transaction leaves them, if it came to know it. */
  get blockEnd(): BlockEnd | null {
    return this.#blocks.end;
  }

  get name(): string {
    return this.record.name;
  }

  get rowCount(): number {
    return this.record.rowCount;
  }

  *select(selection: Selection): DbWork<number[]> {
    if ('ids' in selection) return checkPositions(this.name, this.rowCount, selection.ids);
    yield* this.#storeAppended();
    if ('keys' in selection) {
      const rows = yield* this.#byKeys(selection.keys);
      this.#remember(rows);
      return rows.map((row) => row.pos);
    }
    if (this.record.indexed) {
      yield* this.indexColumns(filterColumns(selection));
      return yield* this.dialect.rows.matchingPositions(this.record.key, selection);
    }
    const rows = this.#remember(
      yield* this.dialect.rows.rowsBetween(this.record.key, 0, this.rowCount),
    );
    return rows
      .filter((row) => matchesSelection(selection, row.cells))
      .map((row) => row.stored.pos);
  }

  *rowsAt(positions: number[]): DbWork<Cell[][]> {
    const rows = yield* this.#stored(positions);
    return rows.map((row) => [...row.cells]);
  }

  *ridsAt(positions: number[]): DbWork<number[]> {
    const rows = yield* this.#stored(positions);
    return rows.map((row) => row.stored.rid);
  }

  nextRids(count: number): number[] {
    return Array.from({ length: count }, (_, i) => this.record.nextRid + i);
  }

  *rowEtags(rids: number[]): DbWork<Map<number, string>> {
    yield* this.#storeAppended();
    const rows = rids.length === 0 ? [] : yield* this.dialect.rows.rowsByRid(this.record.key, rids);
    // From the cells, as a read of the row makes it (`row-by-key.ts`), whatever wrote the text.
    return new Map(
      rows.map((row) => {
        const { json, dates } = this.codec.encode(this.codec.decode(row));
        return [row.rid, rowEtag(row.rid, json, dates)];
      }),
    );
  }

  /** The stored rows with these keys, in sheet order: every key must name one, else a 404. */
  *#byKeys(keys: string[]): DbWork<StoredRow[]> {
    const rids = keys.map(ridOfKey);
    const known = rids.filter((rid): rid is number => rid !== null);
    const rows =
      known.length === 0 ? [] : yield* this.dialect.rows.rowsByRid(this.record.key, known);
    const found = new Set(rows.map((row) => row.rid));
    const missing = keys.filter((_, i) => !found.has(rids[i] ?? -1));
    if (missing.length > 0) throw keysNotFound(this.name, missing);
    return rows;
  }

  *apply(effect: RowEffect): DbWork<void> {
    const { key } = this.record;
    if (effect.kind !== 'append') {
      this.appendedOnly = null;
      yield* this.#storeAppended();
      // Blocks are changed by the positions of rows from here: every row must be in one.
      if (this.record.indexed) yield* this.#blocks.holdAll(this.rowCount);
    }
    switch (effect.kind) {
      case 'append':
      case 'insert': {
        const at = effect.kind === 'append' ? this.rowCount : effect.at;
        const rids = effect.rids ?? effect.rows.map((_, i) => this.record.nextRid + i);
        if (rids.length !== effect.rows.length) throw new Error('one row id per row is needed');
        // Rows put above others, with ids from before (every row's id is below nextRid) or with
        // ids out of order among themselves leave the rows out of the order of their ids.
        const { nextRid } = this.record;
        if (
          at < this.rowCount ||
          rids.some((rid, i) => rid < Math.max(nextRid, rids[i - 1] ?? 0))
        ) {
          this.record.rowsInIdOrder = false;
        }
        const stored = effect.rows.map((cells, i) => ({
          pos: at + i,
          rid: rids[i] as number,
          ...this.codec.encode(cells),
        }));
        if (effect.kind === 'append') {
          this.#appended.stored.push(...stored);
          this.#appended.cells.push(...effect.rows);
          this.appendedOnly?.push(...stored.map((row) => row.json));
        } else {
          yield* this.dialect.rows.openRows(key, at, effect.rows.length);
          yield* this.#insert(stored, effect.rows, at);
        }
        // Ids chosen before (a push's reserved keys) are never given out again.
        for (const rid of rids) if (rid >= this.record.nextRid) this.record.nextRid = rid + 1;
        this.record.rowCount += stored.length;
        this.#note(() => ({
          type: 'rows.created',
          rows: stored.map((row) => withPositionAndKey(row.json, row.pos, row.rid)),
        }));
        break;
      }
      case 'update': {
        const old = yield* this.#stored(effect.positions);
        const stored = yield* this.#rewrite(old, effect.after);
        if (this.record.indexed) yield* this.#blocks.changed(effect.positions);
        this.#note(() => ({
          type: 'rows.updated',
          rows: stored.map((row) => withPositionAndKey(row.json, row.pos, row.rid)),
          previous: old.map((row) =>
            withPositionAndKey(row.stored.json, row.stored.pos, row.stored.rid),
          ),
        }));
        break;
      }
      case 'move': {
        yield* this.#move(effect);
        break;
      }
      case 'delete': {
        const old = yield* this.#stored(effect.positions);
        yield* this.dialect.rows.deleteRows(key, effect.positions);
        if (this.record.indexed) {
          yield* this.dialect.rows.deleteEntries(
            key,
            old.map((row) => ({
              rid: row.stored.rid,
              entries: rowEntries(row.cells, this.record.indexedColumns),
            })),
          );
          yield* this.#blocks.removed(effect.positions);
        }
        this.record.rowCount -= old.length;
        this.#note(() => ({
          type: 'rows.deleted',
          rows: old.map((row) =>
            withPositionAndKey(row.stored.json, row.stored.pos, row.stored.rid),
          ),
        }));
        break;
      }
    }
    this.#fetched = new Map();
  }

  /**
   * Rows that changed places, keeping their ids: the rows between where they left and where
   * they land are numbered again in their new order, by id, which the cell index (kept by row
   * id) never sees; rows also edited are rewritten. Only the blocks rows left or joined are
   * joined again.
   */
  *#move(effect: MoveEffect): DbWork<void> {
    const { key } = this.record;
    let low = Infinity;
    let high = -1;
    for (const pos of [...effect.from, ...effect.to]) {
      low = Math.min(low, pos);
      high = Math.max(high, pos + 1);
    }
    if (high < 0) return;
    const span = yield* this.dialect.rows.rowsBetween(key, low, high);
    const placed: (StoredRow | undefined)[] = new Array(high - low);
    const leaving = new Set(effect.from);
    effect.from.forEach((pos, k) => {
      placed[(effect.to[k] as number) - low] = span[pos - low];
    });
    let next = 0;
    for (const row of span) {
      if (leaving.has(row.pos)) continue;
      while (placed[next] !== undefined) next++;
      placed[next++] = row;
    }
    const renumbered: StoredRow[] = [];
    placed.forEach((row, k) => {
      if (row !== undefined && row.pos !== low + k) renumbered.push({ ...row, pos: low + k });
    });
    if (renumbered.length > 0) this.record.rowsInIdOrder = false;
    yield* this.dialect.rows.placeRows(key, renumbered);
    // Rows also edited get their new cells where they landed.
    const movedRows = effect.from.map((pos, k) => ({
      stored: { ...(span[pos - low] as StoredRow), pos: effect.to[k] as number },
      after: effect.after?.[k] ?? null,
    }));
    const edited = movedRows.filter((row) => row.after !== null);
    const rewritten = yield* this.#rewrite(
      edited.map((row) => ({ stored: row.stored, cells: this.codec.decode(row.stored) })),
      edited.map((row) => row.after ?? []),
    );
    const now = new Map(rewritten.map((row) => [row.rid, row.json]));
    if (this.record.indexed) {
      const order = effect.to
        .map((_, k) => k)
        .sort((a, b) => (effect.to[a] as number) - (effect.to[b] as number));
      yield* this.#blocks.moved(
        effect.from,
        order.map((k) => effect.to[k] as number),
      );
    }
    this.#note(() => ({
      type: 'rows.updated',
      rows: movedRows.map(({ stored }, k) =>
        withPositionAndKey(
          now.get(stored.rid) ?? stored.json,
          effect.shown.to[k] as number,
          stored.rid,
        ),
      ),
      previous: movedRows.map(({ stored }, k) =>
        withPositionAndKey(stored.json, effect.shown.from[k] as number, stored.rid),
      ),
    }));
  }

  /** Rows' new cells, in place, with their entries in the cell index. */
  *#rewrite(old: { stored: StoredRow; cells: Cell[] }[], after: Cell[][]): DbWork<StoredRow[]> {
    const { key } = this.record;
    if (old.length === 0) return [];
    const stored = old.map((row, i) => ({ ...row.stored, ...this.codec.encode(after[i] ?? []) }));
    yield* this.dialect.rows.updateRows(key, stored);
    if (!this.record.indexed) return stored;
    const changed = (i: number) =>
      changedColumns(old[i]?.cells ?? [], after[i] ?? [], this.record.indexedColumns);
    yield* this.dialect.rows.deleteEntries(
      key,
      old.map((row, i) => ({ rid: row.stored.rid, entries: rowEntries(row.cells, changed(i)) })),
    );
    yield* this.dialect.rows.insertEntries(
      key,
      stored.map((row, i) => ({ rid: row.rid, entries: rowEntries(after[i] ?? [], changed(i)) })),
    );
    return stored;
  }

  #note(change: () => RowChange): void {
    if (this.recordChanges) this.changes.push(change());
  }

  /**
   * Ends a transaction's changes: rows appended are stored, and the blocks (with the entries of
   * the columns indexed before, when a new header moved them) are built once the sheet has grown
   * past the threshold.
   */
  *settle(): DbWork<void> {
    yield* this.#storeAppended();
    if (this.record.indexed || this.rowCount <= this.indexThreshold) return;
    const rows = yield* this.dialect.rows.rowsBetween(this.record.key, 0, this.rowCount);
    yield* this.#insertEntries(rows, this.record.indexedColumns);
    yield* this.#blocks.build(rows);
    this.record.indexed = true;
  }

  /**
   * Puts the cells of these columns of a large sheet into the cell index, those not in it yet:
   * once per column, read from the rows a chunk at a time. A small sheet needs no index.
   */
  *indexColumns(columns: number[]): DbWork<void> {
    const { indexedColumns } = this.record;
    const missing = [...new Set(columns)].filter((col) => !indexedColumns.includes(col));
    if (!this.record.indexed || missing.length === 0) return;
    yield* this.#storeAppended();
    for (let from = 0; from < this.rowCount; from += indexChunkRows) {
      const to = Math.min(this.rowCount, from + indexChunkRows);
      yield* this.#insertEntries(
        yield* this.dialect.rows.rowsBetween(this.record.key, from, to),
        missing,
      );
    }
    this.record.indexedColumns = [...indexedColumns, ...missing].sort((a, b) => a - b);
    this.indexGrew = true;
  }

  /** Index entries of these columns for stored rows: of their cells when at hand, else decoded. */
  *#insertEntries(rows: StoredRow[], columns: number[], cells?: Cell[][]): DbWork<void> {
    if (columns.length === 0 || rows.length === 0) return;
    yield* this.dialect.rows.insertEntries(
      this.record.key,
      rows.map((row, i) => ({
        rid: row.rid,
        entries: rowEntries(cells?.[i] ?? this.codec.decode(row), columns),
      })),
    );
  }

  *#storeAppended(): DbWork<void> {
    const { stored, cells } = this.#appended;
    if (stored.length === 0) return;
    this.#appended = { stored: [], cells: [] };
    yield* this.#insert(stored, cells, null);
  }

  /** Stores new rows, with their index entries and blocks once the sheet is large. */
  *#insert(stored: StoredRow[], cells: Cell[][], insertedAt: number | null): DbWork<void> {
    yield* this.dialect.rows.insertRows(this.record.key, stored);
    if (!this.record.indexed) return;
    yield* this.#insertEntries(stored, this.record.indexedColumns, cells);
    if (insertedAt === null) yield* this.#blocks.appended(stored);
    else yield* this.#blocks.inserted(insertedAt, stored);
  }

  *#stored(positions: number[]): DbWork<{ stored: StoredRow; cells: Cell[] }[]> {
    yield* this.#storeAppended();
    const missing = positions.filter((pos) => !this.#fetched.has(pos));
    if (missing.length > 0)
      this.#remember(yield* this.dialect.rows.rowsAt(this.record.key, missing));
    return positions.map((pos) => this.#fetched.get(pos) as { stored: StoredRow; cells: Cell[] });
  }

  #remember(rows: StoredRow[]): { stored: StoredRow; cells: Cell[] }[] {
    return rows.map((stored) => {
      const row = { stored, cells: this.codec.decode(stored) };
      this.#fetched.set(stored.pos, row);
      return row;
    });
  }
}

/** The indexed columns whose index entries differ between two versions of a row. */
function changedColumns(before: Cell[], after: Cell[], indexed: number[]): number[] {
  const changed: number[] = [];
  for (const i of indexed) {
    // A cell's JSON tells number, text and boolean apart, which is all its entry depends on.
    if (JSON.stringify(before[i] ?? null) !== JSON.stringify(after[i] ?? null)) changed.push(i);
  }
  return changed;
}

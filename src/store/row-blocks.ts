import type { BlockStatements } from './sql/block-sql.ts';
import type { RowStatements } from './sql/row-sql.ts';
import type { StoredRow } from './row-json.ts';
import type { DbWork } from './db-work.ts';
export type { BlockHead } from './store-records.ts';
import type { BlockHead } from './store-records.ts';

/** A block is filled to about this many bytes of JSON before the next one starts. */
export const blockBytes = 16_384;
/**
 * Appends grow a block only while it stays this small: then it lives inside its b-tree page, and
 * growing it rewrites that one page. A larger block spills onto pages of its own, all of which
 * an append to it would rewrite (and sync to disk) for the sake of one row.
 */
export const inlineBytes = 900;
/** Blocks smaller than this at the end of a sheet are its tail, joined into one when it is full. */
const smallBytes = blockBytes / 2;
/** The last blocks an append reads; the tail is joined before it outgrows half of them. */
const tailReach = 32;
/**
 * Rows appended wait past the last block, read from the rows themselves, until about this many
 * bytes of them wait (or `waitingRows` of them): then they join the blocks in one go. A commit
 * of a few rows so writes no block at all, where rewriting the last block cost it a statement
 * and a page; a whole read takes the waiting rows in one more statement over at most this much.
 */
const waitingBytes = blockBytes / 2;
const waitingRows = 256;

/** Where a sheet's blocks end: the last blocks' heads, if known, and the rows all blocks hold. */
export interface BlockEnd {
  last: BlockHead[] | null;
  rows: number;
}

/**
 * The blocks of one sheet within a write transaction, changed as its rows are. The blocks hold
 * the rows from the first to some position; the rows after it wait to join them (see
 * `waitingBytes`), and a read of every row takes those from the rows themselves.
 */
export class RowBlocks {
  /** Every block's head, read once a write needs more than the tail. */
  #heads: BlockHead[] | null = null;
  /**
   * The last blocks' heads, for appends: reading every head costs a page per block (each full
   * block lives on its own pages), which grew a one-row append with the sheet.
   */
  #last: BlockHead[] | null = null;
  /** The rows the blocks hold, while not every head is read. */
  #held: number | null = null;

  constructor(
    private readonly blocks: BlockStatements,
    private readonly rows: Pick<RowStatements, 'rowsBetween'>,
    private readonly key: number,
    /** Where the blocks ended when a write that just committed left them, if known. */
    end: BlockEnd | null = null,
  ) {
    this.#last = end?.last ?? null;
    this.#held = end?.rows ?? null;
  }

  /** Where the blocks end as this transaction leaves them, if it came to know it. */
  get end(): BlockEnd | null {
    if (this.#heads !== null)
      return { last: this.#heads.slice(-tailReach), rows: held(this.#heads) };
    return this.#held === null ? null : { last: this.#last, rows: this.#held };
  }

  /**
   * Rows appended at the end. They wait past the blocks until enough of them do; then, with the
   * rows that waited before them, they go into the last block while it stays inline, then into
   * new blocks.
   */
  *appended(rows: StoredRow[]): DbWork<void> {
    const [first] = rows;
    if (first === undefined) return;
    const from = yield* this.#heldRows();
    const waiting = first.pos + rows.length - from;
    // The waiting rows' size, guessed from these rows': the others are not read to know it.
    const bytes = rows.reduce((sum, row) => sum + row.json.length + 1, 0);
    if (waiting < waitingRows && (bytes / rows.length) * waiting < waitingBytes) return;
    const before = from < first.pos ? yield* this.rows.rowsBetween(this.key, from, first.pos) : [];
    yield* this.#append([...before, ...rows]);
  }

  /**
   * Before rows are changed by position: the rows waiting past the blocks join them, so that
   * every row has a block to be counted in. `rowCount`: the rows stored now.
   */
  *holdAll(rowCount: number): DbWork<void> {
    const from = yield* this.#heldRows();
    if (from < rowCount)
      yield* this.#append(yield* this.rows.rowsBetween(this.key, from, rowCount));
  }

  /**
   * Rows at the end, after every row the blocks hold: into the last block while it stays
   * inline, then into new blocks. Once the small blocks at the end hold a full block's worth,
   * they are joined into one, so a sheet grown by single-row POSTs is read in as few blocks as
   * an imported one.
   */
  *#append(rows: StoredRow[]): DbWork<void> {
    const [first] = rows;
    if (first === undefined) return;
    const last = yield* this.#lastHeads();
    const tail = smallTail(last);
    // Where the tail's rows start: the appended rows follow them.
    const tailStart = first.pos - tail.reduce((sum, head) => sum + head.count, 0);
    let next = 0;
    const end = tail.at(-1);
    if (end !== undefined) {
      const taken: string[] = [];
      let bytes = end.bytes;
      for (; next < rows.length; next++) {
        const json = (rows[next] as StoredRow).json;
        if (bytes + json.length + 1 > inlineBytes) break;
        taken.push(json);
        bytes += json.length + 1;
      }
      if (taken.length > 0) {
        yield* this.blocks.appendToBlock(this.key, end.block, taken.length, taken.join(','));
        end.count += taken.length;
        end.bytes = bytes;
      }
    }
    const fresh = group(rows.slice(next), (last.at(-1)?.block ?? -1) + 1);
    if (fresh.length > 0) yield* this.blocks.insertBlocks(this.key, fresh);
    // The blocks from where the tail started, the small ones at their end joined once full.
    const grown = [
      ...tail,
      ...fresh.map(({ block, count, json }) => ({ block, count, bytes: json.length })),
    ];
    const small = smallTail(grown);
    const full = small.reduce((sum, head) => sum + head.bytes, 0) >= blockBytes;
    if (small.length > 1 && (full || small.length >= tailReach / 2)) {
      const before = grown.slice(0, grown.length - small.length);
      const start = tailStart + before.reduce((sum, head) => sum + head.count, 0);
      const [into, ...rest] = small as [BlockHead, ...BlockHead[]];
      into.count = small.reduce((sum, head) => sum + head.count, 0);
      into.bytes = yield* this.blocks.rejoinBlock(this.key, into.block, start, into.count);
      yield* this.blocks.deleteBlocks(
        this.key,
        rest.map((head) => head.block),
      );
      grown.splice(before.length + 1);
    }
    if (this.#heads !== null)
      this.#heads.splice(this.#heads.length - tail.length, tail.length, ...grown);
    this.#last = [...last.slice(0, last.length - tail.length), ...grown].slice(-tailReach);
    this.#held = first.pos + rows.length;
  }

  /** Rows changed in place: their blocks are joined again. */
  *changed(positions: number[]): DbWork<void> {
    const heads = yield* this.#loaded();
    yield* this.#rejoin(new Set(positions.map((pos) => indexOf(heads, pos))));
  }

  /** Rows removed: their blocks shrink (the rows are already gone), empty ones go. */
  *removed(positions: number[]): DbWork<void> {
    const heads = yield* this.#loaded();
    const touched = new Set<number>();
    for (const pos of positions) touched.add(indexOf(heads, pos));
    // Counted against the blocks as they were, then shrunk.
    const removedFrom = new Map<number, number>();
    for (const pos of positions) {
      const index = indexOf(heads, pos);
      removedFrom.set(index, (removedFrom.get(index) ?? 0) + 1);
    }
    for (const [index, removed] of removedFrom) (heads[index] as BlockHead).count -= removed;
    const empty = [...touched].filter((index) => (heads[index] as BlockHead).count === 0);
    if (empty.length > 0) {
      yield* this.blocks.deleteBlocks(
        this.key,
        empty.map((index) => (heads[index] as BlockHead).block),
      );
    }
    const kept = [...touched].filter((index) => (heads[index] as BlockHead).count > 0);
    yield* this.#rejoin(new Set(kept));
    this.#heads = heads.filter((head) => head.count > 0);
  }

  /**
   * Rows that changed places: each leaves its block (at `from`, positions before) and joins the
   * block where it lands (at `to`, positions after, ascending). The blocks between keep their
   * rows, only numbered otherwise, so only the blocks left or joined are joined again.
   */
  *moved(from: number[], to: number[]): DbWork<void> {
    const heads = yield* this.#loaded();
    const touched = new Set<number>();
    for (const pos of [...from].sort((a, b) => b - a)) {
      const index = indexOf(heads, pos);
      (heads[index] as BlockHead).count--;
      touched.add(index);
    }
    for (const pos of to) {
      const index = pos === 0 ? 0 : indexOf(heads, pos - 1);
      (heads[index] as BlockHead).count++;
      touched.add(index);
    }
    const empty = [...touched].filter((index) => (heads[index] as BlockHead).count === 0);
    if (empty.length > 0) {
      yield* this.blocks.deleteBlocks(
        this.key,
        empty.map((index) => (heads[index] as BlockHead).block),
      );
    }
    yield* this.#rejoin(new Set([...touched].filter((index) => !empty.includes(index))));
    this.#heads = heads.filter((head) => head.count > 0);
  }

  /** Rows inserted at `at` (by a re-read of a spreadsheet): the block they land in grows. */
  *inserted(at: number, rows: StoredRow[]): DbWork<void> {
    const heads = yield* this.#loaded();
    if (heads.length === 0) {
      yield* this.#append(rows);
      return;
    }
    const index = at === 0 ? 0 : indexOf(heads, at - 1);
    (heads[index] as BlockHead).count += rows.length;
    yield* this.#rejoin(new Set([index]));
  }

  /** The blocks of a sheet that has just grown large, from all its rows. */
  *build(rows: StoredRow[]): DbWork<void> {
    const blocks = group(rows, 0);
    if (blocks.length > 0) yield* this.blocks.insertBlocks(this.key, blocks);
    this.#heads = blocks.map((block) => ({
      block: block.block,
      count: block.count,
      bytes: block.json.length,
    }));
  }

  *#rejoin(indexes: Set<number>): DbWork<void> {
    const heads = this.#heads ?? [];
    let start = 0;
    for (let index = 0; index < heads.length; index++) {
      const head = heads[index] as BlockHead;
      if (indexes.has(index) && head.count > 0) {
        head.bytes = yield* this.blocks.rejoinBlock(this.key, head.block, start, head.count);
      }
      start += head.count;
    }
  }

  /** The rows the blocks hold: from every head if they were read. */
  *#heldRows(): DbWork<number> {
    if (this.#heads !== null) return held(this.#heads);
    this.#held ??= yield* this.blocks.heldRows(this.key);
    return this.#held;
  }

  /** The last blocks' heads, in order: every head if they were read, else the last few. */
  *#lastHeads(): DbWork<BlockHead[]> {
    if (this.#heads !== null) return this.#heads.slice(-tailReach);
    this.#last ??= yield* this.blocks.lastBlockHeads(this.key, tailReach);
    return this.#last;
  }

  *#loaded(): DbWork<BlockHead[]> {
    this.#heads ??= yield* this.blocks.blockHeads(this.key);
    return this.#heads;
  }
}

function held(heads: BlockHead[]): number {
  return heads.reduce((sum, head) => sum + head.count, 0);
}

/** The small blocks at the end of `heads`, which appends grow and then join. */
function smallTail(heads: BlockHead[]): BlockHead[] {
  let from = heads.length;
  while (from > 0 && (heads[from - 1] as BlockHead).bytes < smallBytes) from--;
  return heads.slice(from);
}

/** The index of the block that holds a position. */
function indexOf(heads: BlockHead[], pos: number): number {
  let start = 0;
  for (let index = 0; index < heads.length; index++) {
    start += (heads[index] as BlockHead).count;
    if (pos < start) return index;
  }
  return heads.length - 1;
}

/** Rows grouped into blocks of about `blockBytes`, numbered from `first`. */
function group(rows: StoredRow[], first: number): { block: number; count: number; json: string }[] {
  const blocks: { block: number; count: number; json: string }[] = [];
  let taken: string[] = [];
  let bytes = 0;
  const close = () => {
    if (taken.length === 0) return;
    blocks.push({ block: first + blocks.length, count: taken.length, json: taken.join(',') });
    taken = [];
    bytes = 0;
  };
  for (const row of rows) {
    taken.push(row.json);
    bytes += row.json.length + 1;
    if (bytes >= blockBytes) close();
  }
  close();
  return blocks;
}

/**
 * Where the blocks end, for the sheets this server appended to, by sheet and version: the next
 * append to a sheet still at that version starts from it instead of reading it (a read of up to
 * 32 blocks, each on pages of its own, was a tenth of a small commit). Every change to a sheet's
 * blocks comes with a new version, so a version that matches means blocks that match; a
 * transaction that rolls back leaves the entry as it was, since each is handed out as a copy.
 */
export class BlockTails {
  readonly #tails = new Map<number, { version: number; end: BlockEnd }>();

  constructor(private readonly size: number) {}

  get(key: number, version: number): BlockEnd | null {
    const known = this.#tails.get(key);
    if (known?.version !== version) return null;
    const { last, rows } = known.end;
    return { last: last?.map((head) => ({ ...head })) ?? null, rows };
  }

  /** After a commit: where it left the blocks, which nothing changes once it is over. */
  set(key: number, version: number, end: BlockEnd | null): void {
    this.#tails.delete(key);
    if (end === null) return;
    this.#tails.set(key, { version, end });
    if (this.#tails.size > this.size) this.#tails.delete(this.#tails.keys().next().value as number);
  }

  forget(key: number): void {
    this.#tails.delete(key);
  }
}

/**
 * The blocks of the sheets last read whole, as the buffers SQLite handed over, by sheet and
 * version: a whole-sheet read of a sheet still at that version sends them again.
 *
 * Read afresh, a 10,000-row sheet's blocks are a megabyte of new memory outside V8's heap for
 * every answer. Freeing that much that fast is what drove the garbage collector: V8 counts it as
 * external memory, and above its limit runs a full collection, up to twenty a second under load
 * (BENCHMARKS.md, case w). Kept, they cost nothing to send again.
 *
 * This is not the read cache, and `SHEETPORT_CACHE_SIZE=0` leaves it on: every read still asks
 * the store which version the sheet is at, in the statement that would read its blocks, and takes
 * kept blocks only for that exact version. Every change to a sheet's blocks comes with a new
 * version (see `BlockTails`), and a sheet's key may be used again once it is deleted, so entries
 * are checked against the sheet's id too.
 */
export class BlockPool {
  readonly #sheets = new Map<
    number,
    { id: string; version: number; blocks: Buffer[]; bytes: number }
  >();
  #bytes = 0;

  /** `limit`: the bytes kept in all; a sheet larger than a quarter of it is not kept. */
  constructor(private readonly limit: number) {}

  /** The blocks kept for this version of the sheet, if any: the sheet is then the last to go. */
  get(key: number, id: string, version: number): Buffer[] | null {
    const kept = this.#sheets.get(key);
    if (kept === undefined || kept.id !== id || kept.version !== version) return null;
    this.#sheets.delete(key);
    this.#sheets.set(key, kept);
    return kept.blocks.slice();
  }

  /** Blocks read outside any write transaction: what a committed version holds. */
  set(key: number, id: string, version: number, blocks: Buffer[]): void {
    this.#forget(key);
    const bytes = blocks.reduce((sum, block) => sum + block.length, 0);
    if (bytes > this.limit / 4) return;
    this.#sheets.set(key, { id, version, blocks: blocks.slice(), bytes });
    this.#bytes += bytes;
    for (const oldest of this.#sheets.keys()) {
      if (this.#bytes <= this.limit) break;
      this.#forget(oldest);
    }
  }

  #forget(key: number): void {
    const kept = this.#sheets.get(key);
    if (kept === undefined) return;
    this.#sheets.delete(key);
    this.#bytes -= kept.bytes;
  }
}

/** An answer as sent: its body, and how many rows matched before paging. */
export interface CachedAnswer {
  body: Buffer;
  total: number;
}

/**
 * A read's answer, at the version it was read: in one piece, which can be kept and shared, or
 * streamed as it is read (a large one), which only its own request can send.
 */
export type ReadAnswer =
  | (CachedAnswer & { kind: 'whole'; version: number })
  | { kind: 'streamed'; body: AsyncIterable<Buffer[]>; total: number; version: number };

type WholeAnswer = Extract<ReadAnswer, { kind: 'whole' }>;

/**
 * Answers to reads, kept as the bytes sent, under keys that include the sheet's version: a write
 * makes every older answer unreachable, so nothing is ever served stale. Least recently used
 * answers go first once the byte budget is spent.
 *
 * While the cache is on, a read that misses while the same read is under way for another request
 * waits for that one's answer instead of reading again: after a write, the requests that all miss
 * at once are answered by one read. (The answer was read after the waiting request's sheet
 * lookup, so it is as fresh as a read of its own.) With the cache off, every read reads.
 */
export class ReadCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #reading = new Map<string, Promise<WholeAnswer | null>>();
  #bytes = 0;

  constructor(
    private readonly maxBytes: number,
    /** Told of every lookup, whether it found an answer. */
    private readonly onLookup: (hit: boolean) => void = () => {},
  ) {}

  get(key: string): CachedAnswer | undefined {
    const answer = this.#entries.get(key);
    this.onLookup(answer !== undefined);
    if (answer !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, answer);
    }
    return answer;
  }

  /**
   * The answer under `key` (read at `version`): the one kept, else the one another request is
   * reading, else the one `read` reads now, shared while it is read. An answer streamed as it is
   * read cannot be shared: those waiting for it then read their own.
   */
  answer(key: string, version: number, read: () => Promise<ReadAnswer>): Promise<ReadAnswer> {
    const kept = this.get(key);
    if (kept !== undefined) return Promise.resolve({ kind: 'whole', ...kept, version });
    const reading = this.#reading.get(key);
    if (reading !== undefined) return reading.then((shared) => shared ?? read());
    if (this.maxBytes === 0) return read();
    const answer = read();
    const shared = answer.then(
      (read) => (read.kind === 'whole' ? read : null),
      () => null,
    );
    this.#reading.set(key, shared);
    void shared.then(() => {
      if (this.#reading.get(key) === shared) this.#reading.delete(key);
    });
    return answer;
  }

  set(key: string, answer: CachedAnswer): void {
    // One answer may take at most a quarter of the budget, so a few huge reads cannot flush the rest.
    if (answer.body.length > this.maxBytes / 4 || this.#entries.has(key)) return;
    this.#entries.set(key, answer);
    this.#bytes += answer.body.length;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.body.length;
    }
  }
}

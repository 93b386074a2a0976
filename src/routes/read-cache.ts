/**
 * Answers to reads, kept as the bytes sent, under keys that include the sheet's version: a write
 * makes every older answer unreachable, so nothing is ever served stale. Least recently used
 * answers go first once the byte budget is spent.
 */
/** An answer as sent: its body, and how many rows matched before paging. */
export interface CachedAnswer {
  body: Buffer;
  total: number;
}

export class ReadCache {
  readonly #entries = new Map<string, CachedAnswer>();
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

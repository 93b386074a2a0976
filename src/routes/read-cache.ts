/**
 * Answers to reads, kept as the bytes sent, under keys that include the sheet's version: a write
 * makes every older answer unreachable, so nothing is ever served stale. Least recently used
 * answers go first once the byte budget is spent.
 */
export class ReadCache {
  readonly #entries = new Map<string, Buffer>();
  #bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): Buffer | undefined {
    const body = this.#entries.get(key);
    if (body !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, body);
    }
    return body;
  }

  set(key: string, body: Buffer): void {
    // One answer may take at most a quarter of the budget, so a few huge reads cannot flush the rest.
    if (body.length > this.maxBytes / 4 || this.#entries.has(key)) return;
    this.#entries.set(key, body);
    this.#bytes += body.length;
    for (const [oldest, old] of this.#entries) {
      if (this.#bytes <= this.maxBytes) break;
      this.#entries.delete(oldest);
      this.#bytes -= old.length;
    }
  }
}

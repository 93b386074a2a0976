import type { SheetRecord } from './store-records.ts';

interface Waiter {
  resolve(record: SheetRecord | null): void;
  reject(error: unknown): void;
}

/**
 * Sheets looked up by id in a store that other servers write too, where a lookup must see every
 * write acknowledged before it began and so cannot be answered from memory. One statement is out
 * at a time: lookups that arrive while it is out wait for it to come back, then go together in
 * the next one. That statement starts after each of them began, so each still sees every write
 * acknowledged before it; under load a server asks once for many requests instead of once each.
 * An idle server sends a lookup once the requests that arrived with it have been read, so that
 * requests arriving together share a statement from the first.
 */
export class SheetLookups {
  readonly #fetch: (ids: string[]) => Promise<SheetRecord[]>;
  #waiting = new Map<string, Waiter[]>();
  /** Whether a statement is out, or about to be sent. */
  #busy = false;

  constructor(fetch: (ids: string[]) => Promise<SheetRecord[]>) {
    this.#fetch = fetch;
  }

  get(id: string): Promise<SheetRecord | null> {
    return new Promise((resolve, reject) => {
      const waiters = this.#waiting.get(id);
      if (waiters === undefined) this.#waiting.set(id, [{ resolve, reject }]);
      else waiters.push({ resolve, reject });
      if (!this.#busy) {
        this.#busy = true;
        setImmediate(() => void this.#send());
      }
    });
  }

  async #send(): Promise<void> {
    while (this.#waiting.size > 0) {
      const batch = this.#waiting;
      this.#waiting = new Map();
      try {
        const found = new Map((await this.#fetch([...batch.keys()])).map((s) => [s.id, s]));
        for (const [id, waiters] of batch) {
          for (const waiter of waiters) waiter.resolve(found.get(id) ?? null);
        }
      } catch (error) {
        for (const waiters of batch.values()) for (const waiter of waiters) waiter.reject(error);
      }
    }
    this.#busy = false;
  }
}

import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Paces requests to at most `limit` in any rolling `windowMs`, the shape of a provider's
 * per-minute quota: bursts up to the limit go at once, then each waits for the oldest to age out.
 * Callers queue in order.
 */
export class WriteSlots {
  readonly #sent: number[] = [];
  #queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
  ) {}

  take(): Promise<void> {
    const turn = this.#queue.then(() => this.#next());
    this.#queue = turn;
    return turn;
  }

  async #next(): Promise<void> {
    for (;;) {
      const now = Date.now();
      while (this.#sent.length > 0 && now - (this.#sent[0] as number) >= this.windowMs)
        this.#sent.shift();
      if (this.#sent.length < this.limit) {
        this.#sent.push(now);
        return;
      }
      await sleep(this.windowMs - (now - (this.#sent[0] as number)));
    }
  }
}

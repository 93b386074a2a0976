import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Paces requests to at most `limit` in any rolling `windowMs`, the shape of a provider's
 * per-minute quota, and spaces them evenly (`windowMs / limit` apart): spending the quota in a
 * burst would leave nothing for the rest of the window, while even spacing lets the writes that
 * wait for the next slot gather into one request. Callers queue in order.
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
      const spacing = this.windowMs / this.limit - (now - (this.#sent.at(-1) ?? -Infinity));
      if (this.#sent.length < this.limit && spacing <= 0) {
        this.#sent.push(now);
        return;
      }
      const untilFree =
        this.#sent.length < this.limit ? 0 : this.windowMs - (now - (this.#sent[0] as number));
      await sleep(Math.max(spacing, untilFree, 1));
    }
  }
}

/**
 * Wakes the readers of a sheet's row events when there may be new ones: at once after a write
 * this server committed, and every `pollMs` for the writes of other servers on the same store
 * (and a refresh from a provider). A reader then reads the outbox after the last event it sent,
 * so a wake-up too many costs one short query, and none is ever missed for long.
 */
export class EventFeed {
  readonly #readers = new Map<string, Set<() => void>>();
  /** Woken for every sheet: the webhook deliveries. */
  readonly #everything = new Set<(sheetId: string) => void>();
  readonly #webhookWatchers = new Set<(sheetId: string) => void>();
  /** Streams opened by a key or the administrator, by sheet: these make a sheet watched. */
  readonly #listened = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;

  constructor(private readonly pollMs: number) {}

  /**
   * Calls `wake` on each chance of new events for the sheet; answers how to stop. A reader that
   * is `listening` (not anonymous) asks for the sheet's spreadsheet to be watched meanwhile.
   */
  subscribe(sheetId: string, wake: () => void, listening = false): () => void {
    if (listening) this.#listened.set(sheetId, (this.#listened.get(sheetId) ?? 0) + 1);
    const readers = this.#readers.get(sheetId) ?? new Set();
    readers.add(wake);
    this.#readers.set(sheetId, readers);
    this.#timer ??= setInterval(() => {
      for (const id of this.#readers.keys()) this.notify(id);
    }, this.pollMs).unref();
    let stopped = false;
    return () => {
      if (listening && !stopped) {
        const left = (this.#listened.get(sheetId) ?? 1) - 1;
        if (left > 0) this.#listened.set(sheetId, left);
        else this.#listened.delete(sheetId);
      }
      stopped = true;
      readers.delete(wake);
      if (readers.size === 0) this.#readers.delete(sheetId);
      if (this.#readers.size === 0 && this.#timer !== null) {
        clearInterval(this.#timer);
        this.#timer = null;
      }
    };
  }

  /** The sheets with a stream open on this server by a key or the administrator. */
  listenedSheets(): Iterable<string> {
    return this.#listened.keys();
  }

  /** Calls `wake` after every write this server commits, with the id of the sheet written. */
  subscribeAll(wake: (sheetId: string) => void): void {
    this.#everything.add(wake);
  }

  notify(sheetId: string): void {
    for (const wake of this.#readers.get(sheetId) ?? []) wake();
    for (const wake of this.#everything) wake(sheetId);
  }

  /** Calls `watch` when a webhook is added on this server, with the id of its sheet. */
  onWebhookAdded(watch: (sheetId: string) => void): void {
    this.#webhookWatchers.add(watch);
  }

  webhookAdded(sheetId: string): void {
    for (const watch of this.#webhookWatchers) watch(sheetId);
  }
}

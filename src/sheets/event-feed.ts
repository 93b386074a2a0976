/** The newest outbox position of each of these sheets that has events. */
export type LatestSeqs = (sheetIds: string[]) => Promise<Map<string, number>>;

/** Sheets asked about per statement of the shared poll. */
const pollChunk = 500;

/**
 * Wakes the readers of a sheet's row events when there may be new ones: at once after a write
 * this server committed, and, for the writes of other servers on the same store (and refreshes
 * from a provider), when the server's one poll finds a sheet's newest event moved. The poll is
 * one statement every `pollMs` for all the sheets with readers, however many readers each has,
 * so idle streams cost no queries. A woken reader reads the outbox after the last event it sent,
 * so a wake-up too many costs one short query, and none is ever missed for long.
 */
export class EventFeed {
  readonly #readers = new Map<string, Set<() => void>>();
  /** The newest position the poll last found, per sheet read. */
  readonly #known = new Map<string, number>();
  /** Woken for every sheet: the webhook deliveries. */
  readonly #everything = new Set<(sheetId: string) => void>();
  readonly #webhookWatchers = new Set<(sheetId: string) => void>();
  readonly #accessWatchers = new Set<(sheetId: string) => void>();
  /** Streams opened by a key or the administrator, by sheet: these make a sheet watched. */
  readonly #listened = new Map<string, number>();
  #timer: NodeJS.Timeout | null = null;
  #polling = false;

  constructor(
    private readonly latest: LatestSeqs,
    private readonly pollMs: number,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /**
   * Calls `wake` on each chance of new events for the sheet; answers how to stop. A reader that
   * is `listening` (not anonymous) asks for the sheet's spreadsheet to be watched meanwhile.
   */
  subscribe(sheetId: string, wake: () => void, listening = false): () => void {
    if (listening) this.#listened.set(sheetId, (this.#listened.get(sheetId) ?? 0) + 1);
    const readers = this.#readers.get(sheetId) ?? new Set();
    readers.add(wake);
    this.#readers.set(sheetId, readers);
    this.#timer ??= setInterval(() => void this.#poll(), this.pollMs).unref();
    let stopped = false;
    return () => {
      if (listening && !stopped) {
        const left = (this.#listened.get(sheetId) ?? 1) - 1;
        if (left > 0) this.#listened.set(sheetId, left);
        else this.#listened.delete(sheetId);
      }
      stopped = true;
      readers.delete(wake);
      if (readers.size === 0 && this.#readers.get(sheetId) === readers) {
        this.#readers.delete(sheetId);
        this.#known.delete(sheetId);
      }
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
    this.#wakeReaders(sheetId);
    for (const wake of this.#everything) wake(sheetId);
  }

  /** Calls `watch` when a webhook is added on this server, with the id of its sheet. */
  onWebhookAdded(watch: (sheetId: string) => void): void {
    this.#webhookWatchers.add(watch);
  }

  webhookAdded(sheetId: string): void {
    for (const watch of this.#webhookWatchers) watch(sheetId);
  }

  /**
   * Calls `watch` when this server changes who may read a sheet (a key revoked or rotated, its
   * settings changed, the sheet removed): its streams check their access at once instead of at
   * their next re-check. Changes made on other servers wait for that re-check.
   */
  onAccessChanged(watch: (sheetId: string) => void): void {
    this.#accessWatchers.add(watch);
  }

  accessChanged(sheetId: string): void {
    for (const watch of this.#accessWatchers) watch(sheetId);
  }

  #wakeReaders(sheetId: string): void {
    for (const wake of this.#readers.get(sheetId) ?? []) wake();
  }

  /**
   * Wakes the readers of each sheet whose newest event moved since the last poll, and of each
   * sheet seen for the first time: its readers may have read just before an event landed.
   */
  async #poll(): Promise<void> {
    if (this.#polling) return;
    this.#polling = true;
    try {
      const ids = [...this.#readers.keys()];
      for (let at = 0; at < ids.length; at += pollChunk) {
        const chunk = ids.slice(at, at + pollChunk);
        const latest = await this.latest(chunk);
        for (const id of chunk) {
          if (!this.#readers.has(id)) continue;
          const seq = latest.get(id) ?? 0;
          if (this.#known.get(id) !== seq) this.#wakeReaders(id);
          this.#known.set(id, seq);
        }
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.#polling = false;
    }
  }
}

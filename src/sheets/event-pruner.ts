import type { SheetStore } from '../store/store.ts';

export interface PruneSettings {
  retentionMs: number;
  pruneIntervalMs: number;
  /** How long webhooks retry an event: they hold it back from pruning no longer than this. */
  giveUpMs: number;
}

/**
 * Removes row events past the retention, every `pruneIntervalMs`. An event an enabled webhook of
 * its sheet has still to send is kept while the webhook may still deliver it: until it is
 * `retentionMs + giveUpMs` old, by which time a webhook that kept failing has given up on it.
 * So a failing webhook holds back its own sheet's events only, and only that long. Servers
 * sharing a PostgreSQL prune in turn, one at a time; each removal is idempotent anyway.
 */
export class EventPruner {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;

  constructor(
    private readonly store: SheetStore,
    private readonly settings: PruneSettings,
    private readonly log: {
      info: (object: object, message: string) => void;
      warn: (object: object, message: string) => void;
    },
  ) {}

  start(): void {
    this.#timer = setInterval(() => this.prune(), this.settings.pruneIntervalMs);
    this.#timer.unref();
    this.prune();
  }

  /** Prunes now, unless a round is already under way. */
  prune(): void {
    if (this.#running !== null) return;
    const now = Date.now();
    const olderThan = new Date(now - this.settings.retentionMs);
    const heldSince = new Date(olderThan.getTime() - this.settings.giveUpMs);
    this.#running = this.store
      .pruneEvents(olderThan, heldSince)
      .then((pruned) => {
        if (pruned > 0) this.log.info({ pruned }, 'events: pruned those past the retention');
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'events: pruning failed'))
      .finally(() => {
        this.#running = null;
      });
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    await this.#running;
  }
}

import type { UpstreamEvent } from './provider.ts';

/** What one provider identity may spend, per minute: reads, and cheap version probes apart. */
export interface BudgetSettings {
  /** Sheets read requests per minute of the identity (Google's default quota is 60). */
  readsPerMinute: number;
  /** The share of those that watching may take; the rest stays for API reads and writes. */
  watchShare: number;
  /** Drive `files.get` requests per minute spent on version probes. */
  probesPerMinute: number;
  /** The window the counts are kept over; a minute, shorter in tests. */
  windowMs?: number;
}

export const defaultBudgetSettings: BudgetSettings = {
  readsPerMinute: 60,
  watchShare: 0.5,
  probesPerMinute: 1200,
};

/** How long watching pauses after a 429, first; it doubles on each one that follows. */
const firstPauseMs = 5_000;
const longestPauseMs = 5 * 60_000;

/**
 * One provider identity's request budget (a Google service account, a Microsoft app), shared by every server-side use of its quota. It counts
 * every Sheets read the provider makes (API reads, refreshes before writes, read-backs of pushes,
 * watching), and lets watching, the only use nobody waits for, take reads only while the count
 * stays under its share: requests a client waits on always find the rest. A 429 on any request
 * pauses watching, longer each time, so that writes and their reads get the quota back first.
 */
export class RequestBudget {
  readonly #settings: Required<BudgetSettings>;
  #reads: number[] = [];
  #probes: number[] = [];
  #pausedUntil = 0;
  #pauseMs = 0;

  constructor(
    settings: BudgetSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.#settings = { windowMs: 60_000, ...settings };
  }

  /** Counts one upstream request, as the provider reports it. */
  observe(event: UpstreamEvent): void {
    if (event.request === 'read') this.#reads.push(this.now());
    if (!event.retry && event.outcome === 'rate_limited') this.rateLimited();
    else if (!event.retry && event.outcome === 'ok') this.#pauseMs = Math.max(0, this.#pauseMs / 2);
  }

  /** A 429: watching pauses, and pauses longer if the last pause did not help. */
  rateLimited(): void {
    this.#pauseMs = Math.min(longestPauseMs, Math.max(firstPauseMs, this.#pauseMs * 2));
    this.#pausedUntil = this.now() + this.#pauseMs;
  }

  /** Whether watching may send one Sheets read now (the read itself is counted by `observe`). */
  mayWatchRead(): boolean {
    if (this.now() < this.#pausedUntil) return false;
    const allowed = Math.floor(this.#settings.readsPerMinute * this.#settings.watchShare);
    return this.#recent(this.#reads) < allowed;
  }

  /** Takes one Drive probe from the budget, if there is one left in the window. */
  takeProbe(): boolean {
    if (this.now() < this.#pausedUntil) return false;
    if (this.#recent(this.#probes) >= this.#settings.probesPerMinute) return false;
    this.#probes.push(this.now());
    return true;
  }

  /** Reads counted in the current window. */
  get readsInWindow(): number {
    return this.#recent(this.#reads);
  }

  get paused(): boolean {
    return this.now() < this.#pausedUntil;
  }

  #recent(times: number[]): number {
    const since = this.now() - this.#settings.windowMs;
    let first = 0;
    while (first < times.length && (times[first] ?? 0) <= since) first++;
    if (first > 0) times.splice(0, first);
    return times.length;
  }
}

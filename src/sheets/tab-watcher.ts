import type { Sheet } from '../model/sheet.ts';

/** What the watcher asks of the rest of the app; see app.ts for how it is wired. */
export interface WatchDeps {
  /** Every sheet of the provider watched, for their sources and settings. */
  list(): Promise<Sheet[]>;
  /** The spreadsheet or workbook holding a sheet's tab: one probe answers for all its tabs. */
  documentOf(sheet: Sheet): string;
  /** Ids of the sheets with a webhook switched on. */
  webhookSheets(): Promise<string[]>;
  /** Ids of the sheets with an event stream open on this server by a key or the administrator. */
  listenedSheets(): Iterable<string>;
  /** Re-reads a sheet from its spreadsheet as a refresh does, in its queue and lock. */
  refresh(sheetId: string): Promise<Sheet>;
  /** Wakes this server's event streams and webhook deliveries after a change. */
  notify(sheetId: string): void;
  /**
   * Of the sheets wanted, those this server holds the watch of: the others are watched by
   * another server of the store. All of them, on a store only one process uses.
   */
  hold(sheetIds: string[], leaseMs: number): Promise<string[]>;
  /** The document's change marker; null when unknown: read the tab's values. */
  probe: ((document: string) => Promise<string | null>) | null;
  /** Whether watching may spend one values read, or one probe, of the provider's quota now. */
  budget: { mayWatchRead(): boolean; takeProbe(): boolean; rateLimited(): void };
}

export interface WatchSettings {
  /** How often a watched tab is checked, unless its own setting says otherwise. */
  intervalMs: number;
  /** The shortest time between two values reads of one tab, whatever the probe says. */
  minReadGapMs: number;
  /** How often the watcher looks for tabs due a check. */
  tickMs: number;
}

export const defaultWatchSettings: WatchSettings = {
  intervalMs: 10_000,
  minReadGapMs: 5_000,
  tickMs: 1_000,
};

/** What metrics are told. */
export interface WatchObserver {
  watched(count: number): void;
  probe(outcome: 'unchanged' | 'changed' | 'unknown' | 'over_budget'): void;
  read(outcome: 'changed' | 'unchanged' | 'failed' | 'over_budget'): void;
  /** From the moment a change was detected to the commit of its events. */
  lag(seconds: number): void;
  /** The longest time since a watched tab was last checked: the interval, stretched. */
  checkAge(seconds: number): void;
}

interface TabState {
  /** When the tab was last found unchanged or read. */
  checkedAt: number;
  /** When its last values read ended, or failed: the next waits the shortest gap from then. */
  readAt: number;
  /** The spreadsheet's version the copy is known to hold; null when unknown. */
  version: string | null;
  /** A probe saw a change that is not read yet. */
  stale: boolean;
}

/**
 * Checks the tabs of one provider that someone listens to for changes made in the spreadsheet,
 * so that a person's edit becomes events without anyone reading the sheet. A tab is watched
 * while it has a webhook switched on, an event stream opened with a key or the administrator
 * token, or its `watch` setting on (and never when that setting is off). Each interval, one probe
 * per document (spreadsheet, workbook) tells whether anything in it changed; only then are the
 * tab's values read, by a refresh, whose events name only the rows that changed. Reads come out
 * of a budget shared with the API; when it is spent, checks wait for the next tick, so the
 * interval stretches.
 */
export class TabWatcher {
  readonly #tabs = new Map<string, TabState>();
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<void> | null = null;
  /** Whether this server held any lease after the last tick. */
  #holding = false;

  constructor(
    private readonly deps: WatchDeps,
    private readonly settings: WatchSettings,
    private readonly observer: WatchObserver | null = null,
    private readonly log: (error: unknown) => void = () => {},
  ) {}

  start(): void {
    this.#timer ??= setInterval(() => void this.tick(), this.settings.tickMs).unref();
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  /** One look at every watched tab due a check; a tick still running is not overlapped. */
  tick(): Promise<void> {
    this.#running ??= this.#tick()
      .catch((error: unknown) => this.log(error))
      .finally(() => (this.#running = null));
    return this.#running;
  }

  async #tick(): Promise<void> {
    const tabs = await this.#held(await this.#wanted());
    const now = Date.now();
    const due = tabs.filter(
      (sheet) => now - (this.#tabs.get(sheet.id)?.checkedAt ?? 0) >= this.#interval(sheet),
    );
    const byDocument = new Map<string, Sheet[]>();
    for (const sheet of due) {
      const document = this.deps.documentOf(sheet);
      byDocument.set(document, [...(byDocument.get(document) ?? []), sheet]);
    }
    for (const [document, group] of byDocument) {
      // Tabs that need a read whatever the probe says (never read, or a change put off) are not
      // probed again until a read can be made: waiting for the budget spends no probes.
      const unknown = group.every((sheet) => this.#tabs.get(sheet.id)?.stale ?? true);
      if (unknown && !(this.deps.budget.mayWatchRead() && group.some((s) => this.#readable(s)))) {
        this.observer?.read('over_budget');
        continue;
      }
      const version = await this.#probe(document, group);
      const detectedAt = Date.now();
      for (const sheet of group) await this.#check(sheet, version, detectedAt);
    }
    const oldest = Math.max(
      0,
      ...tabs.map((sheet) => Date.now() - (this.#tabs.get(sheet.id)?.checkedAt ?? now)),
    );
    this.observer?.checkAge(oldest / 1000);
  }

  /** The tabs someone listens to, or that are set to be watched. */
  async #wanted(): Promise<Sheet[]> {
    const hooked = new Set(await this.deps.webhookSheets());
    const listened = new Set(this.deps.listenedSheets());
    return (await this.deps.list()).filter((sheet) => {
      const setting = sheet.settings.watch;
      if (setting !== undefined) return setting;
      return hooked.has(sheet.id) || listened.has(sheet.id);
    });
  }

  /** Those of the wanted tabs whose watch this server holds; it forgets the others. */
  async #held(wanted: Sheet[]): Promise<Sheet[]> {
    // Nothing wanted and nothing held: no write to the store every tick.
    if (wanted.length === 0 && this.#tabs.size === 0 && !this.#holding) return [];
    const leaseMs = Math.max(
      ...wanted.map((sheet) => this.#interval(sheet)),
      this.settings.intervalMs,
    );
    const held = new Set(
      await this.deps.hold(
        wanted.map((sheet) => sheet.id),
        leaseMs,
      ),
    );
    for (const id of this.#tabs.keys()) if (!held.has(id)) this.#tabs.delete(id);
    this.#holding = held.size > 0;
    this.observer?.watched(held.size);
    return wanted.filter((sheet) => held.has(sheet.id));
  }

  /** Not read within the shortest gap between two reads. */
  #readable(sheet: Sheet): boolean {
    const state = this.#tabs.get(sheet.id);
    return state === undefined || Date.now() - state.readAt >= this.settings.minReadGapMs;
  }

  #interval(sheet: Sheet): number {
    const seconds = sheet.settings.watchIntervalSeconds;
    return seconds === undefined ? this.settings.intervalMs : seconds * 1000;
  }

  async #probe(document: string, group: Sheet[]): Promise<string | null> {
    if (this.deps.probe === null) return null;
    if (!this.deps.budget.takeProbe()) {
      this.observer?.probe('over_budget');
      return null;
    }
    const version = await this.deps.probe(document);
    const changed = group.some((sheet) => this.#tabs.get(sheet.id)?.version !== version);
    this.observer?.probe(version === null ? 'unknown' : changed ? 'changed' : 'unchanged');
    return version;
  }

  /** `detectedAt`: when the probe saw the version move, or now, when there is no probe. */
  async #check(sheet: Sheet, version: string | null, detectedAt: number): Promise<void> {
    const now = Date.now();
    const state = this.#tabs.get(sheet.id);
    if (state !== undefined && version !== null && state.version === version) {
      state.checkedAt = now;
      return;
    }
    if (!this.#readable(sheet) || !this.deps.budget.mayWatchRead()) {
      // Left due: it is tried again at the next tick, so its interval stretches.
      if (state !== undefined) state.stale = true;
      if (this.#readable(sheet)) this.observer?.read('over_budget');
      return;
    }
    try {
      const read = await this.deps.refresh(sheet.id);
      const changed = read.version !== sheet.version;
      // The gap runs from the read's end: its request may have waited for the sheet's turn
      // before it left, and the next must not reach Google sooner than the gap after it.
      const end = Date.now();
      this.#tabs.set(sheet.id, { checkedAt: end, readAt: end, version, stale: false });
      this.observer?.read(changed ? 'changed' : 'unchanged');
      if (changed) {
        this.observer?.lag((end - (version === null ? now : detectedAt)) / 1000);
        this.deps.notify(sheet.id);
      }
    } catch (error) {
      this.observer?.read('failed');
      if ((error as { code?: string }).code === 'provider-rate-limited')
        this.deps.budget.rateLimited();
      // Checked again at the next tick, no sooner than the shortest gap between reads.
      this.#tabs.set(sheet.id, {
        checkedAt: state?.checkedAt ?? 0,
        readAt: Date.now(),
        version: null,
        stale: true,
      });
      this.log(error);
    }
  }
}

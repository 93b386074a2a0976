import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';

/** Tells a session's client that a resource changed; false when the caller may no longer read it. */
export type Notify = (uri: string) => Promise<boolean>;

/**
 * A session's subscriptions to sheets. Each listens to the sheet's event feed as a reader that
 * makes the sheet watched (so a person's edits in the spreadsheet are found too), and notifies
 * when the sheet's version moved: the feed may wake a reader with nothing new.
 */
export class Subscriptions {
  readonly #stops = new Map<string, () => void>();

  constructor(
    private readonly sheets: Sheets,
    private readonly notify: Notify,
  ) {}

  get size(): number {
    return this.#stops.size;
  }

  add(sheet: Sheet, uri: string): void {
    if (this.#stops.has(uri)) return;
    let version = sheet.version;
    let pending = false;
    let running = false;
    // Wake-ups that come while a check runs are folded into one more check, never dropped.
    const check = async () => {
      running = true;
      while (pending) {
        pending = false;
        try {
          const now = await this.sheets.find(sheet.id);
          if (now === null) return this.remove(uri);
          if (now.version === version) continue;
          version = now.version;
          if (!(await this.notify(uri))) return this.remove(uri);
        } catch {
          // The next wake-up tries again: a notification is a hint to read, never the data.
        }
      }
      running = false;
    };
    const wake = () => {
      pending = true;
      if (!running) void check();
    };
    this.#stops.set(uri, this.sheets.events.subscribe(sheet.id, wake, true));
  }

  remove(uri: string): void {
    this.#stops.get(uri)?.();
    this.#stops.delete(uri);
  }

  clear(): void {
    for (const uri of [...this.#stops.keys()]) this.remove(uri);
  }
}

import { Problem } from '../errors/problem.ts';
import type { SheetProvider } from '../providers/provider.ts';
import type { SheetStore } from '../store/store.ts';
import type { Sheet } from './sheet.ts';
import type { WriteQueue } from './write-queue.ts';

export const defaultFreshnessSeconds = 10;

/**
 * Keeps the store's copy of provider-backed sheets fresh. A read of a copy older than its
 * freshness window, or of one marked by a push whose outcome is not known, waits for one
 * re-read, shared by every read that arrives meanwhile; re-reads run in the sheet's queue and
 * lock, so they never interleave with a write. A re-read rewrites only the rows that differ from
 * the copy, so a spreadsheet that did not change keeps its version and every cached answer.
 */
export class SheetMirror {
  /** When each sheet was last read upstream by this server. */
  readonly #syncedAt = new Map<string, number>();
  readonly #inFlight = new Map<string, Promise<Sheet>>();

  constructor(
    private readonly store: SheetStore,
    private readonly providerFor: (sheet: Sheet) => SheetProvider | null,
    private readonly queue: WriteQueue,
  ) {}

  /** The sheet, re-read first if its copy cannot be trusted. For reads, outside the queue. */
  async fresh(sheet: Sheet): Promise<Sheet> {
    if (!this.#needsRead(sheet)) return sheet;
    let refresh = this.#inFlight.get(sheet.id);
    if (refresh === undefined) {
      refresh = this.queue
        .exclusive(sheet.id, () =>
          this.store.exclusive(sheet.id, () => this.refreshIfStale(sheet.id)),
        )
        .finally(() => this.#inFlight.delete(sheet.id));
      this.#inFlight.set(sheet.id, refresh);
    }
    return refresh;
  }

  /** Re-reads now, whatever the window. */
  refresh(sheetId: string): Promise<Sheet> {
    return this.queue.exclusive(sheetId, () =>
      this.store.exclusive(sheetId, () => this.#reread(sheetId)),
    );
  }

  /** For work already running in the sheet's queue and lock, such as a commit. */
  async refreshIfStale(sheetId: string): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    return this.#needsRead(sheet) ? this.#reread(sheetId) : sheet;
  }

  /** Records a read made elsewhere, e.g. when a sheet is first connected. */
  synced(sheetId: string): void {
    this.#syncedAt.set(sheetId, Date.now());
  }

  forget(sheetId: string): void {
    this.#syncedAt.delete(sheetId);
  }

  /** Stale by the window, or marked by a push that has not been matched in the copy. */
  #needsRead(sheet: Sheet): boolean {
    if (this.providerFor(sheet) === null) return false;
    if (sheet.pushing !== null && sheet.pushing !== undefined) return true;
    const syncedAt = this.#syncedAt.get(sheet.id);
    const window = (sheet.settings.freshnessSeconds ?? defaultFreshnessSeconds) * 1000;
    return syncedAt === undefined || Date.now() - syncedAt >= window;
  }

  async #reread(sheetId: string): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    const provider = this.providerFor(sheet);
    if (provider === null) return sheet;
    const table = await provider.read(sheet.source);
    if (JSON.stringify(table.source) !== JSON.stringify(sheet.source)) {
      await this.store.updateSheet(sheetId, { source: table.source });
    }
    const { sheet: current } = await this.store.replaceRows(sheetId, table.columns, table.rows);
    this.synced(sheetId);
    return current;
  }

  async #current(sheetId: string): Promise<Sheet> {
    const sheet = await this.store.getSheet(sheetId);
    if (sheet === null) throw new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
    return sheet;
  }
}

import { createHash } from 'node:crypto';
import { Problem } from '../errors/problem.ts';
import type { ProviderTable, SheetProvider } from '../providers/provider.ts';
import type { SheetStore } from '../store/store.ts';
import type { Sheet } from './sheet.ts';
import type { WriteQueue } from './write-queue.ts';

export const defaultFreshnessSeconds = 10;

/**
 * Keeps the store's copy of provider-backed sheets fresh. A read of a copy older than its
 * freshness window waits for one re-read, shared by every read that arrives meanwhile; re-reads
 * run in the sheet's queue, so they never interleave with a write.
 */
export class SheetMirror {
  /** When each sheet was last read upstream, and a digest of what was read. */
  readonly #synced = new Map<string, { at: number; digest: string }>();
  readonly #inFlight = new Map<string, Promise<Sheet>>();

  constructor(
    private readonly store: SheetStore,
    private readonly providerFor: (sheet: Sheet) => SheetProvider | null,
    private readonly queue: WriteQueue,
  ) {}

  /** The sheet, re-read first if its copy is stale. For reads, outside the sheet's queue. */
  async fresh(sheet: Sheet): Promise<Sheet> {
    if (!this.#isStale(sheet)) return sheet;
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
  async refreshIfStale(sheetId: string, force = false): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    return force || this.#isStale(sheet) ? this.#reread(sheetId) : sheet;
  }

  /** Records a read made elsewhere, e.g. when a sheet is first connected. */
  synced(sheetId: string, table: ProviderTable): void {
    this.#synced.set(sheetId, { at: Date.now(), digest: digest(table) });
  }

  forget(sheetId: string): void {
    this.#synced.delete(sheetId);
  }

  #isStale(sheet: Sheet): boolean {
    if (this.providerFor(sheet) === null) return false;
    const synced = this.#synced.get(sheet.id);
    const window = (sheet.settings.freshnessSeconds ?? defaultFreshnessSeconds) * 1000;
    return synced === undefined || Date.now() - synced.at >= window;
  }

  async #reread(sheetId: string): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    const provider = this.providerFor(sheet);
    if (provider === null) return sheet;
    const table = await provider.read(sheet.source);
    const fresh = digest(table);
    const unchanged = this.#synced.get(sheetId)?.digest === fresh;
    this.#synced.set(sheetId, { at: Date.now(), digest: fresh });
    // An unchanged spreadsheet keeps its version, and so every cached answer about it.
    let current = sheet;
    if (JSON.stringify(table.source) !== JSON.stringify(sheet.source)) {
      current = (await this.store.updateSheet(sheetId, { source: table.source })) ?? sheet;
    }
    if (unchanged) return current;
    return this.store.replaceRows(sheetId, table.columns, table.rows);
  }

  async #current(sheetId: string): Promise<Sheet> {
    const sheet = await this.store.getSheet(sheetId);
    if (sheet === null) throw new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
    return sheet;
  }
}

function digest(table: ProviderTable): string {
  return createHash('sha256')
    .update(JSON.stringify([table.columns, table.rows]))
    .digest('base64');
}

import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { ProviderTable, PushTag, SheetProvider } from '../providers/provider.ts';
import type { PushEnd, SheetStore } from '../store/store.ts';
import { sameColumns, type Sheet } from '../model/sheet.ts';
import type { SheetTurns } from './sheet-turns.ts';
import { partlyLandedEnd, pushJournal } from './push-owners.ts';

export const defaultFreshnessSeconds = 10;

/** The sheet and rows a commit plans on, as `SheetMirror.check` found them. */
export interface Checked {
  /** The copy's sheet. */
  sheet: Sheet;
  /** The rows to plan on: the tab's as checked. */
  rows: Cell[][];
  /** The tab's rows when the copy has not taken them yet (it does with the writes); else null. */
  base: Cell[][] | null;
  /** The tab's push tags, when the check read them. */
  tags: Map<number, PushTag>;
}

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
    /** Re-reads take turns here with the write queue's commits. */
    private readonly turns: SheetTurns,
  ) {}

  /** The sheet, re-read first if its copy cannot be trusted. For reads, outside the queue. */
  async fresh(sheet: Sheet): Promise<Sheet> {
    if (!this.#needsRead(sheet)) return sheet;
    let refresh = this.#inFlight.get(sheet.id);
    if (refresh === undefined) {
      refresh = this.turns
        .takeTurn(sheet.id, () =>
          this.store.database.withSheetLock(sheet.id, () => this.refreshIfStale(sheet.id)),
        )
        .finally(() => this.#inFlight.delete(sheet.id));
      this.#inFlight.set(sheet.id, refresh);
    }
    return refresh;
  }

  /** Re-reads now, whatever the window. */
  refresh(sheetId: string): Promise<Sheet> {
    return this.turns.takeTurn(sheetId, () =>
      this.store.database.withSheetLock(sheetId, () => this.#reread(sheetId)),
    );
  }

  /** For work already running in the sheet's queue and lock. */
  async refreshIfStale(sheetId: string): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    return this.#needsRead(sheet) ? this.#reread(sheetId) : sheet;
  }

  /**
   * For a commit, in the sheet's queue and lock, with the copy's rows in hand: checks that the
   * tab still holds them (settling first a push whose outcome was left unknown). A tab whose rows
   * changed is answered as `base`, not yet taken by the copy: the commit plans on it and the copy
   * takes it with the writes, after the push, so that nothing slow sits between this read and
   * the push. A new header or tab title is taken at once.
   */
  async check(sheet: Sheet, rows: Cell[][], deadline: number): Promise<Checked> {
    const provider = this.#provider(sheet);
    if (sheet.pushing !== null && sheet.pushing !== undefined) {
      const { table, settled } = await this.#settleAndRead(sheet, provider, deadline);
      const adopted = await this.adopt(sheet, table, null, settled);
      return { sheet: adopted, rows: table.rows, base: null, tags: table.pushTags };
    }
    const check = await provider.changedSince(sheet, { columns: sheet.columns, rows }, deadline);
    if (!check.changed) {
      this.synced(sheet.id);
      return { sheet, rows, base: null, tags: check.pushTags ?? new Map() };
    }
    return this.pending(sheet, check.table);
  }

  /** A tab read for a commit: its rows as a base to plan on, or taken at once (see `check`). */
  async pending(
    sheet: Sheet,
    table: ProviderTable,
    marker: string | null = null,
  ): Promise<Checked> {
    const sameShape =
      sameColumns(table.columns, sheet.columns) &&
      JSON.stringify(table.source) === JSON.stringify(sheet.source);
    if (sameShape) return { sheet, rows: table.rows, base: table.rows, tags: table.pushTags };
    const adopted = await this.adopt(sheet, table, marker);
    return { sheet: adopted, rows: table.rows, base: null, tags: table.pushTags };
  }

  /**
   * Makes the copy hold a tab just read; `marker` stays set when a push is still out. `settled`:
   * a push closed before the read, whose keys learn how it ended with the copy.
   */
  async adopt(
    sheet: Sheet,
    table: ProviderTable,
    marker: string | null = null,
    settled?: { pushId: string; end: PushEnd },
  ): Promise<Sheet> {
    if (JSON.stringify(table.source) !== JSON.stringify(sheet.source)) {
      await this.store.updateSheet(sheet.id, { source: table.source });
    }
    const { sheet: current } = await this.store.replaceRows(
      sheet.id,
      table.columns,
      table.rows,
      marker,
      ...(settled === undefined ? [] : [settled]),
    );
    this.synced(sheet.id);
    return current;
  }

  /** Whether the copy must be checked against the spreadsheet before it is trusted. */
  needsRead(sheet: Sheet): boolean {
    return this.#needsRead(sheet);
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
    const deadline = Date.now() + provider.deadlineMs;
    let read;
    try {
      read = await this.#settleAndRead(sheet, provider, deadline);
    } catch (error) {
      const unsettled = error instanceof Problem && error.code === 'upstream-outcome-unknown';
      if (!unsettled || pushTagOfMarker(sheet.pushing) === null) throw error;
      // The push cannot be settled yet (Graph would not close its session): reads are served
      // from the tab as it is now, and the mark stays for a later read to settle it.
      const table = await provider.read(sheet.source, deadline);
      return this.adopt(sheet, table, sheet.pushing ?? null);
    }
    return this.adopt(sheet, read.table, null, read.settled);
  }

  /**
   * Reads the tab; when the copy is marked by a push whose outcome was left unknown, first closes
   * that push, so that none of its attempts can land after this read: the read is then the truth,
   * and the push's tag tells which plan of it landed, if one did, for its keys to be settled.
   */
  async #settleAndRead(
    sheet: Sheet,
    provider: SheetProvider,
    deadline: number,
  ): Promise<{ table: ProviderTable; settled?: { pushId: string; end: PushEnd } }> {
    const tag = pushTagOfMarker(sheet.pushing);
    if (tag === null) return { table: await provider.read(sheet.source, deadline) };
    const pushId = String(tag);
    const settled = await provider.settle(
      sheet,
      tag,
      deadline,
      pushJournal(this.store, sheet.id, pushId),
    );
    const table = await provider.read(sheet.source, deadline);
    const end =
      settled === null || typeof settled === 'string'
        ? { plan: settled }
        : partlyLandedEnd(settled, sheet.name);
    return { table, settled: { pushId, end } };
  }

  #provider(sheet: Sheet): SheetProvider {
    const provider = this.providerFor(sheet);
    if (provider === null) throw new Error(`sheet ${sheet.id} is not mirrored`);
    return provider;
  }

  async #current(sheetId: string): Promise<Sheet> {
    const sheet = await this.store.getSheet(sheetId);
    if (sheet === null) throw new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
    return sheet;
  }
}

/** A push's marker is its tag id; markers of an older form name no tag to settle. */
export function pushTagOfMarker(marker: string | null | undefined): number | null {
  return marker !== null && marker !== undefined && /^[1-9]\d{0,9}$/.test(marker)
    ? Number(marker)
    : null;
}

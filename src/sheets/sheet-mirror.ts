import type { Cell } from '../cells/cell.ts';
import { Problem, sheetNotFound } from '../errors/problem.ts';
import type { ProviderTable, PushTag, SheetProvider } from '../providers/provider.ts';
import type { HeldLock, PushEnd, SheetStore } from '../store/store.ts';
import { sameColumns, tabGoneAt, type Sheet } from '../model/sheet.ts';
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
  /** Pushes this server made whose requests are all over (the commit that sent them ended). */
  readonly #ended = new Set<string>();
  /** Pushes of other servers whose sessions this server began to close, by marker. */
  readonly #cut = new Map<string, Promise<void>>();

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
          this.store.database.withSheetLock(sheet.id, (lock) =>
            this.refreshIfStale(sheet.id, lock),
          ),
        )
        .finally(() => this.#inFlight.delete(sheet.id));
      this.#inFlight.set(sheet.id, refresh);
    }
    return refresh;
  }

  /** Re-reads now, whatever the window. */
  refresh(sheetId: string): Promise<Sheet> {
    return this.turns.takeTurn(sheetId, () =>
      this.store.database.withSheetLock(sheetId, (lock) => this.#reread(sheetId, lock)),
    );
  }

  /** For work already running in the sheet's queue and lock. */
  async refreshIfStale(sheetId: string, lock: HeldLock): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    if (!this.#needsRead(sheet)) return sheet;
    // A push of a server that lost the sheet may still land: the last copy is served meanwhile.
    if ((await this.#previousHolderMs(sheet)) > 0) return sheet;
    return this.#reread(sheetId, lock);
  }

  /**
   * For a commit, in the sheet's queue and lock, with the copy's rows in hand: checks that the
   * tab still holds them (settling first a push whose outcome was left unknown). A tab whose rows
   * changed is answered as `base`, not yet taken by the copy: the commit plans on it and the copy
   * takes it with the writes, after the push, so that nothing slow sits between this read and
   * the push. A new header or tab title is taken at once.
   */
  async check(sheet: Sheet, rows: Cell[][], deadline: number, lock: HeldLock): Promise<Checked> {
    const provider = this.#provider(sheet);
    if (sheet.pushing !== null && sheet.pushing !== undefined) {
      const waitMs = await this.#previousHolderMs(sheet);
      if (waitMs > 0) throw takingOver(sheet, waitMs);
      const { table, settled } = await this.#settleAndRead(sheet, provider, deadline);
      const adopted = await this.adopt(sheet, table, lock, null, settled);
      return { sheet: adopted, rows: table.rows, base: null, tags: table.pushTags };
    }
    const check = await this.#unlessGone(sheet, () =>
      provider.changedSince(sheet, { columns: sheet.columns, rows }, deadline),
    );
    if (!check.changed) {
      if (tabGoneAt(sheet.source) !== null) {
        // The tab is back: the sheet no longer says it is gone.
        const source = { ...sheet.source };
        delete (source as { goneAt?: string }).goneAt;
        sheet = (await this.store.updateSheet(sheet.id, { source })) ?? sheet;
      }
      this.synced(sheet.id);
      return { sheet, rows, base: null, tags: check.pushTags ?? new Map() };
    }
    return this.pending(sheet, check.table, lock);
  }

  /** A tab read for a commit: its rows as a base to plan on, or taken at once (see `check`). */
  async pending(
    sheet: Sheet,
    table: ProviderTable,
    lock: HeldLock,
    marker: string | null = null,
  ): Promise<Checked> {
    const sameShape =
      sameColumns(table.columns, sheet.columns) &&
      JSON.stringify(table.source) === JSON.stringify(sheet.source);
    if (sameShape) return { sheet, rows: table.rows, base: table.rows, tags: table.pushTags };
    const adopted = await this.adopt(sheet, table, lock, marker);
    return { sheet: adopted, rows: table.rows, base: null, tags: table.pushTags };
  }

  /**
   * Makes the copy hold a tab just read; `marker` (which the sheet carries) stays set when a push
   * is still out. `settled`: a push closed before the read, whose keys learn how it ended with
   * the copy. Only while this server's `lock` is the sheet's, and the sheet carries the mark it
   * was read with (the fence).
   */
  async adopt(
    sheet: Sheet,
    table: ProviderTable,
    lock: HeldLock,
    marker: string | null = null,
    settled?: { pushId: string; end: PushEnd },
  ): Promise<Sheet> {
    // The mark the sheet carries now: the push still out (`marker`), or the one read with it.
    const fence = { epoch: lock.epoch, pushing: marker ?? sheet.pushing ?? null };
    if (JSON.stringify(table.source) !== JSON.stringify(sheet.source)) {
      await this.store.updateSheet(sheet.id, { source: table.source });
    }
    const { sheet: current } = await this.store.replaceRows(
      sheet.id,
      table.columns,
      table.rows,
      marker,
      settled,
      fence,
    );
    this.synced(sheet.id);
    await this.#countTags(sheet, table);
    return current;
  }

  /**
   * Counts the tags a read found in their spreadsheet's budget, those left by an earlier version
   * included (with no deadline, they guard nothing): the next push past their guard removes them.
   */
  async #countTags(sheet: Sheet, table: ProviderTable): Promise<void> {
    const budget = this.providerFor(sheet)?.tagBudget;
    if (budget === undefined || table.pushTags.size === 0) return;
    const entries = [...table.pushTags].map(([tag, value]) => budget.entry(tag, value));
    await this.store.notePushTags(budget.documentOf(sheet), entries).catch(() => {});
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

  /** Records that the requests of this server's push `pushId` are all over. */
  pushEnded(pushId: string): void {
    this.#ended.add(pushId);
    // Only the latest matter: a push is settled by the next read or write of its sheet.
    if (this.#ended.size > endedKept) this.#ended.delete(this.#ended.values().next().value ?? '');
  }

  /**
   * How long to wait before settling the push the sheet is marked by: 0 for this server's own
   * (its requests are over) and for a provider fenced by the push itself; otherwise, for a push
   * of a server that lost the sheet (or died), until none of its requests can still land.
   */
  async #previousHolderMs(sheet: Sheet): Promise<number> {
    if (sheet.pushing === null || sheet.pushing === undefined) return 0;
    if (this.#ended.has(sheet.pushing)) return 0;
    const settleAfter = (await this.store.pushFence(sheet.id))?.settleAfter ?? null;
    const waitMs = settleAfter === null ? 0 : Math.max(0, settleAfter - Date.now());
    if (waitMs > 0) await this.#cutOff(sheet, sheet.pushing);
    return waitMs;
  }

  /**
   * Stops what can be stopped of a push another server sent, once, at the start of the wait:
   * best effort, as the settle that follows the wait does it again.
   */
  #cutOff(sheet: Sheet, marker: string): Promise<void> {
    const provider = this.providerFor(sheet);
    const tag = pushTagOfMarker(marker);
    if (provider?.cutOff === undefined || tag === null) return Promise.resolve();
    let cut = this.#cut.get(marker);
    if (cut === undefined) {
      const journal = pushJournal(this.store, sheet.id, String(tag));
      cut = provider.cutOff(sheet, Date.now() + provider.deadlineMs, journal).catch(() => {});
      this.#cut.set(marker, cut);
      if (this.#cut.size > endedKept) this.#cut.delete(this.#cut.keys().next().value as string);
    }
    return cut;
  }

  /** Stale by the window, or marked by a push that has not been matched in the copy. */
  #needsRead(sheet: Sheet): boolean {
    if (this.providerFor(sheet) === null) return false;
    if (sheet.pushing !== null && sheet.pushing !== undefined) return true;
    const syncedAt = this.#syncedAt.get(sheet.id);
    const window = (sheet.settings.freshnessSeconds ?? defaultFreshnessSeconds) * 1000;
    return syncedAt === undefined || Date.now() - syncedAt >= window;
  }

  async #reread(sheetId: string, lock: HeldLock): Promise<Sheet> {
    const sheet = await this.#current(sheetId);
    const provider = this.providerFor(sheet);
    if (provider === null) return sheet;
    const waitMs = await this.#previousHolderMs(sheet);
    if (waitMs > 0) throw takingOver(sheet, waitMs);
    const deadline = Date.now() + provider.deadlineMs;
    let read;
    try {
      read = await this.#unlessGone(sheet, () => this.#settleAndRead(sheet, provider, deadline));
    } catch (error) {
      // The tab is gone: reads serve the copy last read from it, until it is back.
      if (error instanceof Problem && error.code === 'tab-gone') return this.#current(sheetId);
      const unsettled = error instanceof Problem && error.code === 'upstream-outcome-unknown';
      if (!unsettled || pushTagOfMarker(sheet.pushing) === null) throw error;
      // The push cannot be settled yet (Graph would not close its session): reads are served
      // from the tab as it is now, and the mark stays for a later read to settle it.
      const table = await provider.read(sheet.source, deadline);
      return this.adopt(sheet, table, lock, sheet.pushing ?? null);
    }
    return this.adopt(sheet, read.table, lock, null, read.settled);
  }

  /**
   * Runs a read of the sheet's tab; when the tab is gone (by its id: a tab now holding its
   * title is another), the sheet says so from then on, and nothing is read or written elsewhere.
   */
  async #unlessGone<T>(sheet: Sheet, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof Problem && error.code === 'tab-gone') await this.tabGone(sheet);
      throw error;
    }
  }

  /** Records that the sheet's tab is gone (see `tabGoneAt`), once. */
  async tabGone(sheet: Sheet): Promise<void> {
    if (tabGoneAt(sheet.source) === null) {
      const goneAt = new Date().toISOString();
      await this.store.updateSheet(sheet.id, { source: { ...sheet.source, goneAt } });
    }
    this.synced(sheet.id);
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
    const journal = pushJournal(this.store, sheet.id, pushId);
    const settled = await provider.settle(sheet, tag, deadline, journal);
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
    if (sheet === null) throw sheetNotFound(sheetId);
    return sheet;
  }
}

/** How many of its own ended pushes a server remembers. */
const endedKept = 1000;

/** The answer while a push of a server that lost the sheet may still land. */
function takingOver(sheet: Sheet, waitMs: number): Problem {
  return new Problem(
    'upstream-unavailable',
    `Another server lost sheet "${sheet.name}" while its write was out; this server waits for that write's requests to end before it reads the spreadsheet and takes the sheet over. Nothing was changed. Try again after the Retry-After delay.`,
    {},
    { 'retry-after': String(Math.ceil(waitMs / 1000)) },
  );
}

/** A push's marker is its tag id; markers of an older form name no tag to settle. */
export function pushTagOfMarker(marker: string | null | undefined): number | null {
  return marker !== null && marker !== undefined && /^[1-9]\d{0,9}$/.test(marker)
    ? Number(marker)
    : null;
}

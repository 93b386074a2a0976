import { randomInt } from 'node:crypto';
import { sheets, type sheets_v4 } from '@googleapis/sheets';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { Sheet, SheetSource } from '../../model/sheet.ts';
import type { WriteEffect } from '../../model/write-effect.ts';
import { readEveryTab, type EveryTab } from '../../files/every-tab.ts';
import type {
  ProviderTable,
  Push,
  PushOutcome,
  AnchorBudget,
  PushTag,
  TabCheck,
  TagBudget,
  UpstreamEvent,
} from '../provider.ts';
import {
  attemptTimeout,
  Backoff,
  countedRead,
  defaultRetryPolicy,
  failedOutcome,
  withRetries,
  type RetryPolicy,
  type Verdict,
} from '../retry.ts';
import type { ConnectRequest, LiveProvider, ProviderStatus, WatchSupport } from '../registry.ts';
import { WriteSlots } from '../write-slots.ts';
import { defaultBudgetSettings, RequestBudget } from '../request-budget.ts';
import { giveUp, judgeGoogleError, outcomeUnknown, tabGone, voidPlan } from './google-errors.ts';
import { createDriveVersionProbe, type DriveVersionProbe } from './drive-version.ts';
import { sameHeader, sameRows, tableOfTab } from './google-table.ts';
import { TabVersions } from '../tab-versions.ts';
import type { GoogleIdentity } from './google-auth.ts';
import type { GoogleSettings } from './google-settings.ts';
import {
  batchRequests,
  pushTagRequests,
  tagChars,
  tagRetentionMs,
  tagsToPrune,
} from './google-requests.ts';
import { tabRange } from './spreadsheet-ref.ts';
import {
  anchorChars,
  anchorCheckRequests,
  anchorCreateRequests,
  anchorDeleteRequests,
  anchorPositions,
  anchorsInPlace,
  anchorsOfTab,
  appendedPositions,
  type TabAnchors,
} from './google-anchors.ts';
import { googleSource, type GoogleSource } from './google-source.ts';

/**
 * Just what a read needs: each tab's id, title and grid size, the typed value of every cell, and
 * the tab's push tags and row anchors.
 */
const gridFields =
  'sheets(properties(sheetId,title,index,gridProperties(rowCount)),developerMetadata(metadataId,metadataKey,metadataValue,location),data(rowData(values(effectiveValue,formattedValue,effectiveFormat/numberFormat/type)),rowMetadata(developerMetadata(metadataId,metadataKey))))';
const tabFields = 'sheets(properties(sheetId,title,index))';

/**
 * Characters of push tags a spreadsheet holds at most, by default: Google publishes no bound on
 * developer metadata, and this leaves room for some 400 tags (about 40 characters each) guarding
 * their pushes at once, past what 60 writes a minute keep for 5 minutes.
 */
const defaultTagBudgetChars = 16_000;

/** Google Sheets through its own client library, with retries within a deadline. */
export class GoogleProvider implements LiveProvider {
  onUpstream?: (event: UpstreamEvent) => void;
  readonly #api: sheets_v4.Sheets;
  readonly #slots: WriteSlots;
  /** Asks Drive for a spreadsheet's version; absent when no Drive URL is set (as in tests). */
  readonly #probe: DriveVersionProbe | null;
  /** A tab keeps its id across renames; its title is in the digest. */
  readonly #versions = new TabVersions<GoogleSource>(
    (source) => `${source.spreadsheetId}:${source.tabId}`,
  );
  #budget: RequestBudget | undefined;
  /** Each tab's rows and anchors as last read: a push planned on those rows trusts them. */
  readonly #anchors = new Map<string, { read: ProviderTable; anchors: TabAnchors }>();

  constructor(
    private readonly identity: GoogleIdentity,
    private readonly settings: GoogleSettings,
    private readonly retryPolicy: RetryPolicy = defaultRetryPolicy,
  ) {
    this.#api = sheets({ version: 'v4', auth: identity.auth, rootUrl: settings.apiUrl });
    this.#slots = new WriteSlots(settings.writesPerMinute, settings.writeWindowMs ?? 60_000);
    this.#probe =
      settings.driveUrl === undefined ? null : createDriveVersionProbe(identity, settings);
  }

  get deadlineMs(): number {
    return this.settings.deadlineMs;
  }

  /** Push tags are developer metadata, which Google bounds per spreadsheet. */
  get tagBudget(): TagBudget {
    const retention = this.settings.tagRetentionMs ?? tagRetentionMs;
    return {
      chars: this.settings.tagBudgetChars ?? defaultTagBudgetChars,
      documentOf: (sheet) => googleSource(sheet.source).spreadsheetId,
      anchorChars,
      entry: (tag, value) => ({
        tag,
        chars: tagChars(value),
        guardUntil: value.deadline + retention,
      }),
    };
  }

  /** Whether writes can go upstream: an API key alone can only read. */
  get canWrite(): boolean {
    return this.identity.canWrite;
  }

  /** The address a spreadsheet must be shared with, if Sheetport has one. */
  get email(): string | null {
    return this.identity.email;
  }

  status(): ProviderStatus {
    return { configured: true, canWrite: this.canWrite, shareWith: this.email };
  }

  describe(): string {
    return this.email === null
      ? `Google Sheets: ${this.canWrite ? 'read and write' : 'read-only (API key)'}`
      : `Google Sheets: share spreadsheets with ${this.email}`;
  }

  /**
   * Watching asks Drive for a spreadsheet's version before reading its tabs, and keeps within
   * one request budget for the identity, fed by every request this provider sends.
   */
  watching(): WatchSupport {
    this.#budget ??= new RequestBudget({
      ...defaultBudgetSettings,
      readsPerMinute: this.settings.readsPerMinute ?? defaultBudgetSettings.readsPerMinute,
    });
    return { probe: this.#probe, budget: this.#budget };
  }

  async connect({ document: spreadsheetId, tab }: ConnectRequest): Promise<ProviderTable> {
    const tabs = await this.#tabs(spreadsheetId);
    const found = tab === undefined ? tabs[0] : tabs.find((t) => t.title === tab);
    if (found === undefined) {
      throw new Problem(
        'tab-not-found',
        tab === undefined
          ? `Spreadsheet ${spreadsheetId} has no tabs.`
          : `Spreadsheet ${spreadsheetId} has no tab "${tab}"; its tabs are ${tabs.map((t) => `"${t.title}"`).join(', ')}.`,
        { tabs: tabs.map((t) => t.title) },
      );
    }
    return this.read({ provider: 'google', spreadsheetId, tab: found.title, tabId: found.tabId });
  }

  /** Every tab in one request, for `tab=*`. */
  async connectEveryTab(
    spreadsheetId: string,
  ): Promise<{ title: string; tabs: EveryTab<ProviderTable> }> {
    const response = await this.#call(spreadsheetId, Date.now() + this.settings.deadlineMs, () =>
      this.#api.spreadsheets.get(
        { spreadsheetId, includeGridData: true, fields: `properties(title),${gridFields}` },
        { retry: false },
      ),
    );
    const byTitle = new Map(
      (response.data.sheets ?? [])
        .sort((a, b) => (a.properties?.index ?? 0) - (b.properties?.index ?? 0))
        .map((tab) => [tab.properties?.title ?? '', tab]),
    );
    return {
      title: response.data.properties?.title ?? spreadsheetId,
      tabs: readEveryTab([...byTitle.keys()], (title) =>
        tableOfTab(byTitle.get(title) ?? {}, {
          provider: 'google',
          spreadsheetId,
          tab: title,
          tabId: 0,
        }),
      ),
    };
  }

  async read(source: SheetSource, deadline?: number): Promise<ProviderTable> {
    const google = googleSource(source);
    const version = await this.#version(google);
    const table = await this.#readRenamed(google, deadline);
    this.#versions.read(google, version, table);
    return table;
  }

  /**
   * Reads the tab by its id, which a tab keeps whatever it is called: by its title first (one
   * request), then, when that title now names another tab (or none), by looking its id up among
   * the spreadsheet's tabs. A tab whose id is gone is `tab-gone`: nothing else is read for it.
   */
  async #readRenamed(google: GoogleSource, deadline?: number): Promise<ProviderTable> {
    try {
      const table = await this.#readTab(google, deadline);
      if (googleSource(table.source).tabId === google.tabId) return table;
    } catch (error) {
      if (!(error instanceof Problem && error.code === 'tab-not-found')) throw error;
    }
    const renamed = (await this.#tabs(google.spreadsheetId)).find((t) => t.tabId === google.tabId);
    if (renamed === undefined) throw tabGone(google);
    return this.#readTab({ ...google, tab: renamed.title }, deadline);
  }

  writeSlot(): Promise<void> {
    return this.#slots.take();
  }

  async changedSince(
    sheet: Sheet,
    copy: { columns: string[]; rows: Cell[][] },
    deadline: number,
  ): Promise<TabCheck> {
    // One small Drive request when nothing changed since the tab was last read.
    const google = googleSource(sheet.source);
    const version = await this.#version(google);
    return this.#versions.check(google, version, { ...copy, source: sheet.source }, () =>
      this.#readRenamed(google, deadline),
    );
  }

  /**
   * Sends the batch with the push's tag. Every attempt carries the same tag id, which Google
   * refuses to create twice (the whole batch with it), so an attempt applied late, after its
   * client gave up, can never land beside another. Before a retry the tab is read: its tag says
   * the push landed; a tab that changed under writes that choose rows goes back to the caller to
   * plan again (the same tag keeps one plan at most landing). When no attempt is left, the
   * caller hears "nothing changed" only if no attempt sent can still land.
   */
  async push(sheet: Sheet, effects: WriteEffect[], push: Push): Promise<PushOutcome> {
    const source = googleSource(sheet.source);
    // The push moves the version: the tab is read at the next check, whatever lands.
    this.#versions.forget(source);
    this.#checkCanWrite();
    const retention = this.settings.tagRetentionMs ?? tagRetentionMs;
    // Old tags of this tab, and of the spreadsheet's other tabs as the store counts them.
    const pruned = [
      ...new Set([
        ...tagsToPrune(push.tags, push.tag, Date.now(), retention),
        ...(push.prune ?? []),
      ]),
    ].filter((id) => id !== push.tag);
    // Writes that choose rows assert, in the batch, that their rows are where they were planned.
    const anchored = await this.#anchorTargets(source, effects, push);
    if ('table' in anchored) {
      return { landed: false, table: anchored.table, mayLand: push.earlier.length > 0 };
    }
    const { planned, appended } = anchored;
    /**
     * Whether a refusal of the batch may come from an anchor: one a person's edit moved, or one
     * it deletes that another server removed meanwhile (Google may refuse a delete that matches
     * nothing).
     */
    const anchors = planned.size > 0 || appended.size > 0 || anchored.prune.length > 0;
    const requests = [
      ...anchorCheckRequests(source.tabId, planned),
      ...anchorDeleteRequests(anchored.prune),
      ...batchRequests(source.tabId, sheet.columns.length, effects),
      ...anchorCreateRequests(source.tabId, appended),
      ...pushTagRequests(
        source.tabId,
        push.tag,
        { plan: push.plan, deadline: push.deadline },
        pruned,
      ),
    ];
    const plans = [push.plan, ...push.earlier];
    // An earlier plan under this tag may still land; so may any attempt whose answer was lost.
    let mayLand = push.earlier.length > 0;
    let last: Problem | null = null;
    const backoff = new Backoff(push.deadline, this.retryPolicy);
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) {
        const table = await this.#readBack(source, push.deadline, mayLand);
        const tag = table.pushTags.get(push.tag);
        if (tag !== undefined) return this.#tagged(tag, plans, last);
        const moved = !sameHeader(table.columns, sheet.columns);
        if (
          moved ||
          ((push.positional || anchors) &&
            this.#movedSincePlan(source, table, push, planned, anchored.prune))
        ) {
          return { landed: false, table, mayLand };
        }
        // The first attempt was paced by writeSlot(); every retry is a write request too.
        await this.#slots.take();
      }
      // No attempt leaves a server that no longer holds the sheet: another may have settled it.
      if (
        Date.now() >= push.deadline ||
        push.signal?.aborted === true ||
        (push.holdsLock !== undefined && !(await push.holdsLock()))
      ) {
        throw giveUp(last, mayLand, source);
      }
      if (attempt > 0) this.onUpstream?.({ request: 'write', retry: true });
      try {
        await this.#api.spreadsheets.batchUpdate(
          { spreadsheetId: source.spreadsheetId, requestBody: { requests } },
          { retry: false, timeout: attemptTimeout(push.deadline) },
        );
        this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
        await push.anchors?.forget(anchored.prune).catch(() => {});
        // Every attempt before this one was answered (none may land): the tag guards nothing.
        return { landed: true, plan: push.plan, unguarded: !mayLand, pruned };
      } catch (error) {
        const verdict = judgeGoogleError(error, this.#context(source.spreadsheetId));
        this.#failed('write', verdict);
        if (verdict.refusedWhole === true && (mayLand || anchors)) {
          // Refused whole: because the tag exists (an earlier attempt landed), or an anchor moved.
          const table = await this.#readBack(source, push.deadline, mayLand);
          const tag = table.pushTags.get(push.tag);
          if (tag !== undefined) return this.#tagged(tag, plans, verdict.problem);
          if (anchors && this.#movedSincePlan(source, table, push, planned, anchored.prune)) {
            // Rows or anchors moved under the plan: nothing of this attempt landed; plan again.
            return { landed: false, table, mayLand };
          }
        }
        if (verdict.mayHaveApplied === true) mayLand = true;
        if (!mayLand && verdict.problem.code === 'provider-error') {
          // Refused as asked: most likely because the tab (by its id) is gone meanwhile.
          const tabs = await this.#tabs(source.spreadsheetId).catch(() => null);
          if (tabs !== null && !tabs.some((t) => t.tabId === source.tabId)) throw tabGone(source);
        }
        last = verdict.problem;
        if (!verdict.retry) throw mayLand ? outcomeUnknown(source, verdict.problem) : last;
        try {
          await backoff.wait(verdict);
        } catch (problem) {
          throw giveUp(problem instanceof Problem ? problem : last, mayLand, source);
        }
      }
    }
  }

  /**
   * Creates the push's tag alone, marked void, so that no attempt of the push can land any more;
   * if Google refuses it, an attempt landed first, and its tag says which plan.
   */
  async settle(sheet: Sheet, tag: number, deadline: number): Promise<string | null> {
    const source = googleSource(sheet.source);
    this.#checkCanWrite();
    const requests = pushTagRequests(source.tabId, tag, { plan: voidPlan, deadline: Date.now() });
    const context = this.#context(source.spreadsheetId);
    try {
      await withRetries(
        async () => {
          await this.#slots.take();
          await this.#api.spreadsheets.batchUpdate(
            { spreadsheetId: source.spreadsheetId, requestBody: { requests } },
            { retry: false, timeout: attemptTimeout(deadline) },
          );
        },
        (error) => {
          const verdict = judgeGoogleError(error, context);
          this.#failed('write', verdict);
          // Resending is safe: a second void tag of one id is refused like any other.
          return verdict.refusedWhole === true ? { ...verdict, retry: false } : verdict;
        },
        deadline,
        this.retryPolicy,
      );
      return null;
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      const table = await this.#readTab(source, deadline);
      const found = table.pushTags.get(tag);
      if (found === undefined) throw outcomeUnknown(source, error);
      return found.plan === voidPlan ? null : found.plan;
    }
  }

  #tagged(tag: PushTag, plans: string[], last: Problem | null): PushOutcome {
    if (plans.includes(tag.plan)) return { landed: true, plan: tag.plan };
    // Voided by a settle, or another push's tag: none of this push's attempts can land.
    throw (
      last ??
      new Problem(
        'upstream-unavailable',
        'Google Sheets did not apply the change; nothing was changed.',
      )
    );
  }

  #checkCanWrite(): void {
    if (!this.identity.canWrite) {
      throw new Problem(
        'provider-read-only',
        'Sheetport reaches Google Sheets with an API key only, which can read but not write; configure SHEETPORT_GOOGLE_CREDENTIALS to write.',
        {},
        { allow: 'GET, HEAD' },
      );
    }
  }

  /**
   * Reads the tab to learn a push's outcome. If Google stays silent past the deadline while an
   * attempt may still land, nobody knows; if none can, nothing changed.
   */
  async #readBack(
    source: GoogleSource,
    deadline: number,
    mayLand: boolean,
  ): Promise<ProviderTable> {
    try {
      return await this.#readTab(source, deadline);
    } catch (error) {
      if (!(error instanceof Problem) || !mayLand) throw error;
      throw outcomeUnknown(source, error);
    }
  }

  async #readTab(
    source: GoogleSource,
    deadline = Date.now() + this.settings.deadlineMs,
  ): Promise<ProviderTable> {
    const response = await this.#call(source.spreadsheetId, deadline, () =>
      this.#api.spreadsheets.get(
        {
          spreadsheetId: source.spreadsheetId,
          ranges: [tabRange(source.tab)],
          includeGridData: true,
          fields: gridFields,
        },
        { retry: false, timeout: attemptTimeout(deadline) },
      ),
    );
    const tab = response.data.sheets?.[0] ?? {};
    const table = tableOfTab(tab, source);
    const read = googleSource(table.source);
    this.#anchors.set(tabKey(read), { read: table, anchors: anchorsOfTab(tab) });
    return table;
  }

  /**
   * Before a push is marked: anchors the rows it chooses that lack one (one write, verified by a
   * read), so that the push itself carries only the checks. The tab as read when it moved.
   */
  async prepare(
    sheet: Sheet,
    effects: WriteEffect[],
    prepared: {
      expected: { columns: string[]; rows: Cell[][] };
      deadline: number;
      anchors?: AnchorBudget;
    },
  ): Promise<ProviderTable | null> {
    this.#checkCanWrite();
    const source = googleSource(sheet.source);
    const push = { ...prepared, positional: true };
    // Rows it appends are anchored by the push itself, in its batch.
    const anchored = await this.#anchorTargets(source, effects, push, false);
    return 'table' in anchored ? anchored.table : null;
  }

  /**
   * The anchors of the rows a push chooses, each where the plan expects it: the ones the last
   * read found on rows the plan was made on, and new ones for the rest, created in one write and
   * verified by a read (a person may move rows while they are being created). Answers the tab as
   * read instead when the rows are no longer what the plan was made on. Rows appended beside
   * such writes get anchors in the push's own batch (`appended`), so a later write to them costs
   * nothing more, when the last read is what the plan was made on.
   */
  async #anchorTargets(
    source: GoogleSource,
    effects: WriteEffect[],
    push: Pick<Push, 'expected' | 'deadline' | 'anchors' | 'positional'>,
    withAppended = true,
  ): Promise<
    | { planned: Map<number, number>; appended: Map<number, number>; prune: number[] }
    | { table: ProviderTable }
  > {
    const last = this.#anchors.get(tabKey(source));
    const trusted =
      last !== undefined &&
      sameHeader(last.read.columns, push.expected.columns) &&
      sameRows(last.read.rows, push.expected.rows);
    const known = trusted ? last.anchors : { byPosition: new Map<number, number>(), gridRows: 0 };
    const capacity = push.anchors?.capacity ?? Infinity;
    const rows = push.expected.rows.length;
    const positions = push.positional
      ? anchorPositions(effects, rows, known.gridRows, capacity)
      : [];
    const planned = new Map<number, number>();
    const missing = new Map<number, number>();
    const appended = new Map<number, number>();
    const taken = new Set(known.byPosition.values());
    for (const position of positions) {
      const id = known.byPosition.get(position);
      if (id !== undefined) planned.set(position, id);
      else missing.set(position, freshId(taken));
    }
    // Only beside writes that choose rows: appends alone stay free of anchors.
    const own = trusted && push.positional && withAppended ? appendedPositions(effects, rows) : [];
    // And the row after them, when the grid as read has it (a later write's row after its run).
    const next = (own.at(-1) ?? Infinity) + 1;
    if (next + 1 < known.gridRows) own.push(next);
    if (positions.length + own.length <= capacity) {
      for (const position of own) appended.set(position, freshId(taken));
    }
    // More rows than the budget can anchor: the write is checked against the tab's read alone.
    if (planned.size + missing.size + appended.size === 0) {
      return { planned, appended, prune: [] };
    }
    const room = await push.anchors?.reserve(source.tabId, {
      used: [...planned.values()],
      created: [...missing.values(), ...appended.values()],
      seen: trusted ? [...known.byPosition.values()] : null,
    });
    if (room === null) throw anchorsBusy();
    // Only anchors the last read found on this tab are removed (one gone since fails no batch
    // where a delete matching nothing does nothing; where it fails it, the write is planned again).
    const seenIds = new Set(known.byPosition.values());
    const usedIds = new Set(planned.values());
    const prune = (room ?? []).filter((id) => seenIds.has(id) && !usedIds.has(id));
    if (missing.size === 0) return { planned, appended, prune };
    await this.#createAnchors(source, missing, push.deadline);
    const table = await this.#readTab(source, push.deadline);
    const read = this.#anchors.get(tabKey(source))?.anchors;
    const moved = !sameHeader(table.columns, push.expected.columns);
    if (moved || !sameRows(table.rows, push.expected.rows) || read === undefined) return { table };
    for (const position of missing.keys()) {
      const id = read.byPosition.get(position);
      if (id === undefined) return { table };
      planned.set(position, id);
    }
    return { planned, appended, prune };
  }

  /**
   * Sends the creation of anchors, retried within the deadline. Refused whole (an attempt whose
   * answer was lost already made them, so their ids exist), the read that follows tells which
   * anchors are there. Given up, the write fails with nothing of it sent: anchors alone are no
   * change anybody sees.
   */
  async #createAnchors(
    source: GoogleSource,
    missing: Map<number, number>,
    deadline: number,
  ): Promise<void> {
    const requests = anchorCreateRequests(source.tabId, missing);
    const context = this.#context(source.spreadsheetId);
    let refused = false;
    // The anchors are a write request of their own, paced as every write is.
    await this.#slots.take();
    if (Date.now() >= deadline) throw anchorsUnsent(null);
    try {
      await withRetries(
        async () => {
          await this.#api.spreadsheets.batchUpdate(
            { spreadsheetId: source.spreadsheetId, requestBody: { requests } },
            { retry: false, timeout: attemptTimeout(deadline) },
          );
          this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
        },
        (error) => {
          const verdict = judgeGoogleError(error, context);
          this.#failed('write', verdict);
          refused = verdict.refusedWhole === true;
          return refused ? { ...verdict, retry: false } : verdict;
        },
        deadline,
        this.retryPolicy,
        () => this.onUpstream?.({ request: 'write', retry: true }),
      );
    } catch (error) {
      if (!(error instanceof Problem) || refused) return;
      throw error.code === 'upstream-outcome-unknown' ? anchorsUnsent(error) : error;
    }
  }

  /**
   * Whether a tab read after a refused attempt shows rows or anchors moved since the plan, or an
   * anchor the push deletes already gone (another server pruned it first).
   */
  #movedSincePlan(
    source: GoogleSource,
    table: ProviderTable,
    push: Push,
    planned: Map<number, number>,
    pruned: readonly number[],
  ): boolean {
    if (!sameHeader(table.columns, push.expected.columns)) return true;
    if (!sameRows(table.rows, push.expected.rows)) return true;
    const read = this.#anchors.get(tabKey(source))?.anchors;
    if (read === undefined) return false;
    const present = new Set(read.byPosition.values());
    return !anchorsInPlace(read, planned) || pruned.some((id) => !present.has(id));
  }

  async #tabs(spreadsheetId: string): Promise<{ title: string; tabId: number }[]> {
    const response = await this.#call(spreadsheetId, Date.now() + this.settings.deadlineMs, () =>
      this.#api.spreadsheets.get({ spreadsheetId, fields: tabFields }, { retry: false }),
    );
    return (response.data.sheets ?? [])
      .map((tab) => tab.properties ?? {})
      .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
      .map((properties) => ({ title: properties.title ?? '', tabId: properties.sheetId ?? 0 }));
  }

  #call<T>(spreadsheetId: string, deadline: number, attempt: () => Promise<T>): Promise<T> {
    const context = this.#context(spreadsheetId);
    return countedRead(
      attempt,
      (error) => judgeGoogleError(error, context),
      deadline,
      this.retryPolicy,
      this.onUpstream,
    );
  }

  #failed(request: 'read' | 'write', verdict: Verdict): void {
    this.onUpstream?.({ request, retry: false, outcome: failedOutcome(request, verdict) });
  }

  /** The spreadsheet's Drive version now, or null when it cannot be known (the tab is read). */
  async #version(source: GoogleSource): Promise<string | null> {
    if (this.#probe === null) return null;
    const version = await this.#probe(source.spreadsheetId);
    this.onUpstream?.({
      request: 'probe',
      retry: false,
      outcome: version === null ? 'failed' : 'ok',
    });
    return version;
  }

  #context(spreadsheetId: string) {
    return { what: `"${spreadsheetId}"`, email: this.identity.email };
  }
}

/** The key of a tab's anchors as last read: a tab keeps its id across renames. */
const tabKey = (source: GoogleSource) => `${source.spreadsheetId}:${source.tabId}`;

/** A positive int32 no anchor of the tab holds yet (ids are unique per spreadsheet). */
function freshId(taken: Set<number>): number {
  for (;;) {
    const id = randomInt(1, 2 ** 31);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

function anchorsUnsent(unknown: Problem | null): Problem {
  return new Problem(
    'upstream-unavailable',
    'Google Sheets did not answer in time while Sheetport prepared this write; nothing of the write was sent, and nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': unknown?.headers['retry-after'] ?? '1' },
  );
}

function anchorsBusy(): Problem {
  return new Problem(
    'upstream-unavailable',
    "The spreadsheet's developer metadata budget has no room for the row anchors this write needs; nothing was changed. Try again after the Retry-After delay.",
    {},
    { 'retry-after': '5' },
  );
}

import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { Sheet, SheetSource } from '../../model/sheet.ts';
import type { EveryTab } from '../../files/every-tab.ts';
import { readEveryTab } from '../../files/every-tab.ts';
import type { WriteEffect } from '../../model/write-effect.ts';
import type {
  ProviderTable,
  Push,
  PushJournal,
  PushOutcome,
  Settled,
  TabCheck,
  UpstreamEvent,
} from '../provider.ts';
import {
  attemptTimeout,
  Backoff,
  countedRead,
  defaultRetryPolicy,
  failedOutcome,
  type RetryPolicy,
  type Verdict,
} from '../retry.ts';
import { TabVersions } from '../tab-versions.ts';
import { WriteSlots } from '../write-slots.ts';
import { judgeGraphError, sessionGone, type CallContext } from './excel-errors.ts';
import { planSteps, type Anchor } from './excel-operations.ts';
import { WorkbookPush } from './excel-push.ts';
import type { PushChannel } from './push-channel.ts';
import { anchorFirstAppend, anchorNames, pushPrefix } from './append-anchors.ts';
import { ExcelWorkbook, tableOfRange, type RangeAnswer } from './excel-workbook.ts';
import { GraphClient, GraphFailure } from './graph-client.ts';
import type { GraphTokens } from './graph-tokens.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';
import { excelSource, type ExcelSource } from './excel-source.ts';
import { refOfDocument } from './workbook-ref.ts';
import type { ConnectRequest, LiveProvider, ProviderStatus, WatchSupport } from '../registry.ts';
import { defaultBudgetSettings, RequestBudget } from '../request-budget.ts';

/**
 * Excel workbooks in OneDrive for Business and SharePoint, through Microsoft Graph's workbook
 * API, with retries within a deadline. How a push lands exactly once is in excel-push.ts.
 */
export class ExcelProvider implements LiveProvider {
  onUpstream?: (event: UpstreamEvent) => void;
  readonly #workbook: ExcelWorkbook;
  readonly #slots: WriteSlots;
  readonly #versions = new TabVersions<ExcelSource>((s) => `${s.drive}:${s.item}:${s.worksheetId}`);
  /** Pushes whose outcome may still have to be settled, by tag. */
  readonly #pushes = new Map<number, WorkbookPush>();
  #budget: RequestBudget | undefined;

  constructor(
    private readonly settings: MicrosoftSettings,
    tokens: GraphTokens,
    private readonly retryPolicy: RetryPolicy = defaultRetryPolicy,
  ) {
    this.#workbook = new ExcelWorkbook(new GraphClient(settings.graphUrl, tokens));
    this.#slots = new WriteSlots(settings.writesPerMinute, settings.writeWindowMs ?? 60_000);
  }

  get deadlineMs(): number {
    return this.settings.deadlineMs;
  }

  /**
   * Graph cannot be fenced: a request it started before the push's deadline may still run for
   * one attempt's timeout, the longest a push of these settings makes (see `attemptTimeout`). A
   * server taking the sheet over from one that lost its lock closes that server's sessions, then
   * waits this long past the deadline before settling; writes meanwhile answer 503.
   */
  get unfencedMs(): number {
    return attemptTimeout(Date.now() + this.settings.deadlineMs);
  }

  status(): ProviderStatus {
    return { configured: true, canWrite: true, tenant: this.settings.tenantId ?? null };
  }

  describe(): string {
    return `Excel workbooks: as application ${this.settings.clientId ?? '?'} of tenant ${this.settings.tenantId ?? '?'}`;
  }

  /**
   * Watching asks the workbook's cTag before reading a worksheet, and keeps within one request
   * budget for the application, fed by every request this provider sends.
   */
  watching(): WatchSupport {
    if (this.#budget === undefined) {
      const budget = new RequestBudget({ ...defaultBudgetSettings, readsPerMinute: 600 });
      this.#budget = budget;
      const report = this.onUpstream;
      this.onUpstream = (event) => {
        report?.(event);
        budget.observe(event);
      };
    }
    return {
      probe: (document) => {
        const ref = refOfDocument(document);
        return 'link' in ref ? Promise.resolve(null) : this.probe(ref);
      },
      budget: this.#budget,
    };
  }

  /** Finds the workbook and the worksheet a user named (the first when none) and reads it. */
  async connect(request: ConnectRequest): Promise<ProviderTable> {
    const { workbook, sheets, deadline } = await this.#open(request.document);
    const tab = request.tab;
    const found = tab === undefined ? sheets[0] : sheets.find((s) => s.name === tab);
    if (found === undefined) {
      throw new Problem(
        'tab-not-found',
        tab === undefined
          ? `Workbook "${workbook.name}" has no worksheets.`
          : `Workbook "${workbook.name}" has no worksheet "${tab}"; its worksheets are ${sheets.map((s) => `"${s.name}"`).join(', ')}.`,
        { tabs: sheets.map((s) => s.name) },
      );
    }
    const source: ExcelSource = {
      provider: 'excel',
      drive: workbook.drive,
      item: workbook.item,
      tab: found.name,
      worksheetId: found.id,
    };
    return this.read(source, deadline);
  }

  /** Every worksheet of a workbook, for `tab=*`, with the workbook's name. */
  async connectEveryTab(
    document: string,
  ): Promise<{ title: string; tabs: EveryTab<ProviderTable> }> {
    const { workbook, sheets, deadline } = await this.#open(document);
    const ranges = new Map<string, { source: ExcelSource; range: RangeAnswer }>();
    for (const sheet of sheets) {
      const source: ExcelSource = {
        provider: 'excel',
        drive: workbook.drive,
        item: workbook.item,
        tab: sheet.name,
        worksheetId: sheet.id,
      };
      const range = await this.#call(this.#worksheetContext(source), deadline, (options) =>
        this.#workbook.usedRange(source, options),
      );
      ranges.set(sheet.name, { source, range });
    }
    return {
      title: workbook.name.replace(/\.xlsx$/i, ''),
      tabs: readEveryTab([...ranges.keys()], (name) => {
        const { source, range } = ranges.get(name) as { source: ExcelSource; range: RangeAnswer };
        return tableOfRange(range, source);
      }),
    };
  }

  /** The workbook a document names, and its worksheets. */
  async #open(document: string) {
    const ref = refOfDocument(document);
    const deadline = Date.now() + this.settings.deadlineMs;
    const named =
      'link' in ref ? `the workbook at ${ref.link}` : `workbook ${ref.item} of drive ${ref.drive}`;
    const context: CallContext = {
      what: named,
      notFound: () =>
        new Problem(
          'spreadsheet-not-found',
          `Microsoft Graph has no ${named}, or Sheetport's application may not see it; check the ids or link, and the access granted (see the README).`,
        ),
    };
    const workbook = await this.#call(context, deadline, (options) =>
      this.#workbook.resolve(ref, options),
    );
    const sheets = await this.#call(context, deadline, (options) =>
      this.#workbook.worksheets(workbook, options),
    );
    return { workbook, sheets, deadline };
  }

  async read(source: SheetSource, deadline?: number): Promise<ProviderTable> {
    const excel = excelSource(source);
    const version = await this.probe(excel);
    const table = await this.#readTab(excel, deadline ?? Date.now() + this.settings.deadlineMs);
    this.#versions.read(excel, version, table);
    return table;
  }

  /**
   * The workbook's `cTag`, which Graph moves on every change to its content: unchanged, the
   * worksheet is unchanged. Null when it cannot be known now (the worksheet is read instead).
   */
  async probe(source: { drive: string; item: string }): Promise<string | null> {
    let version: string | null = null;
    try {
      version = await this.#workbook.contentTag(source, { timeoutMs: 5000 });
    } catch {
      version = null;
    }
    this.onUpstream?.({
      request: 'probe',
      retry: false,
      outcome: version === null ? 'failed' : 'ok',
    });
    return version;
  }

  writeSlot(): Promise<void> {
    return this.#slots.take();
  }

  async changedSince(
    sheet: Sheet,
    copy: { columns: string[]; rows: Cell[][] },
    deadline: number,
  ): Promise<TabCheck> {
    const excel = excelSource(sheet.source);
    const version = await this.probe(excel);
    return this.#versions.check(excel, version, { ...copy, source: sheet.source }, () =>
      this.#readTab(excel, deadline),
    );
  }

  async push(sheet: Sheet, effects: WriteEffect[], push: Push): Promise<PushOutcome> {
    const source = excelSource(sheet.source);
    // The push moves the cTag: the worksheet is read at the next check, whatever lands.
    this.#versions.forget(source);
    const steps = planSteps(sheet.columns.length, push.expected.rows, effects);
    anchorFirstAppend(steps, pushPrefix(source.worksheetId, push.deadline));
    const owners = push.owners ?? effects.map((_, i) => `#${i}`);
    const record = WorkbookPush.planned(
      push.plan,
      push.expected.columns,
      push.expected.rows,
      steps,
      owners,
      push.deadline,
      push.journal,
    );
    if (push.journal === undefined) this.#pushes.set(push.tag, record);
    const worksheet = worksheetKey(source);
    try {
      const outcome = await record.run(
        this.#channel(source),
        push.deadline,
        this.retryPolicy,
        push.signal,
        push.holdsLock,
        this.#namesLeft.get(worksheet) ?? true,
      );
      this.#namesLeft.set(worksheet, record.namesLeft);
      this.#pushes.delete(push.tag);
      return outcome;
    } catch (error) {
      this.#namesLeft.set(worksheet, true);
      if (!(error instanceof Problem && error.code === 'upstream-outcome-unknown')) {
        this.#pushes.delete(push.tag);
      }
      throw error;
    }
  }

  /**
   * Settles a push from the worksheet (see WorkbookPush.settle), on any server: from the record
   * the store keeps of it. A push of which none is kept (one of an earlier version, or one
   * whose record could not be written before its first request) answers null: nothing of it is
   * known to have been sent.
   */
  async settle(
    sheet: Sheet,
    tag: number,
    deadline: number,
    journal?: PushJournal,
  ): Promise<Settled> {
    const record = journal === undefined ? this.#pushes.get(tag) : await WorkbookPush.load(journal);
    if (record === undefined || record === null) return null;
    // A push that failed may have left the names of its append.
    this.#namesLeft.set(worksheetKey(excelSource(sheet.source)), true);
    const settled = await record.settle(
      this.#channel(excelSource(sheet.source)),
      deadline,
      this.retryPolicy,
    );
    this.#pushes.delete(tag);
    return settled;
  }

  async cutOff(sheet: Sheet, deadline: number, journal: PushJournal): Promise<void> {
    const record = await WorkbookPush.load(journal);
    await record?.cutOff(this.#channel(excelSource(sheet.source)), deadline);
  }

  /**
   * Per worksheet, whether names that anchor appends (see append-anchors.ts) may have been left
   * on it by a push that failed: the next push that appends lists the workbook's names and
   * deletes those it may. Unknown (so listed once) after a start, since another server or an
   * earlier run may have.
   */
  readonly #namesLeft = new Map<string, boolean>();

  #channel(source: ExcelSource): PushChannel {
    const context = this.#worksheetContext(source);
    return {
      openSession: (deadline) =>
        this.#call(context, deadline, (options) => this.#workbook.createSession(source, options)),
      closeSession: (session, deadline) =>
        this.#call(context, deadline, async (options) => {
          try {
            await this.#workbook.closeSession(source, session, options);
          } catch (error) {
            if (!sessionGone(error)) throw error;
          }
        }),
      read: (deadline, session) =>
        this.#call(context, deadline, (options) =>
          this.#workbook.readTab(source, {
            ...options,
            ...(session === undefined ? {} : { session }),
          }),
        ),
      apply: async (operation, session, deadline) => {
        await this.#workbook.apply(source, operation, {
          session,
          timeoutMs: attemptTimeout(deadline),
        });
        this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
      },
      applyBatch: async (operations, session, deadline) => {
        const answer = await this.#workbook.applyBatch(source, operations, {
          session,
          timeoutMs: attemptTimeout(deadline),
        });
        // A failure inside the batch is counted when it is judged.
        if (answer.failure === undefined) {
          this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
        }
        return answer;
      },
      anchor: async (anchor, drop, session, deadline) => {
        // Sent again only when known not to have landed: an add whose answer was lost may land
        // later in this session, which the push closes first (it gets the failure as it came).
        const backoff = new Backoff(deadline, this.retryPolicy);
        for (let attempts = 1; ; attempts++) {
          // New names each attempt, so that names of one attempt are never added twice.
          const names = anchor === null ? null : anchorNames(anchor.prefix);
          const add = anchor === null || names === null ? [] : namesAt(anchor, names);
          try {
            const { dropped } = await this.#workbook.anchor(source, add, drop, {
              session,
              timeoutMs: attemptTimeout(deadline),
            });
            this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
            return { names, dropped, attempts };
          } catch (error) {
            if (anchor !== null && namesRefused(error))
              return { names: null, dropped: false, attempts };
            const verdict = judgeGraphError(error, context);
            if (!verdict.retry || verdict.mayHaveApplied === true) throw error;
            await backoff.wait(verdict);
            this.onUpstream?.({ request: 'write', retry: true });
          }
        }
      },
      anchorAndRead: async (anchor, list, session, deadline) => {
        const readAlone = () =>
          this.#call(context, deadline, (options) =>
            this.#workbook.readTab(source, { ...options, session }),
          );
        const backoff = new Backoff(deadline, this.retryPolicy);
        for (let attempts = 1; ; attempts++) {
          const names = anchorNames(anchor.prefix);
          let answer;
          try {
            answer = await this.#workbook.anchorAndRead(source, namesAt(anchor, names), list, {
              session,
              timeoutMs: attemptTimeout(deadline),
            });
          } catch (error) {
            if (namesRefused(error)) {
              return { names: null, attempts, table: await readAlone(), listed: null };
            }
            const verdict = judgeGraphError(error, context);
            if (!verdict.retry || verdict.mayHaveApplied === true) throw error;
            await backoff.wait(verdict);
            this.onUpstream?.({ request: 'write', retry: true });
            continue;
          }
          this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
          // The names are in: a read Graph refused is sent again on its own.
          const table = answer.table instanceof GraphFailure ? await readAlone() : answer.table;
          return { names, attempts, table, listed: answer.listed };
        }
      },
      slot: () => this.#slots.take(),
      judge: (error, request) => {
        const verdict = judgeGraphError(error, context);
        this.#failed(request, verdict);
        return verdict;
      },
      onRetry: () => this.onUpstream?.({ request: 'write', retry: true }),
      outcomeUnknown: (cause) => outcomeUnknown(source, cause),
    };
  }

  #readTab(source: ExcelSource, deadline: number): Promise<ProviderTable> {
    return this.#call(this.#worksheetContext(source), deadline, (options) =>
      this.#workbook.readTab(source, options),
    );
  }

  #worksheetContext(source: ExcelSource): CallContext {
    return {
      what: `worksheet "${source.tab}" of workbook ${source.item}`,
      // The worksheet is found by its id alone: one that is gone is never looked for by name.
      notFound: () =>
        new Problem(
          'tab-gone',
          `Workbook ${source.item} no longer has worksheet "${source.tab}" (id ${source.worksheetId}), or the workbook is gone. Reads serve the rows last read from it; writes are refused until it is back.`,
        ),
    };
  }

  #call<T>(
    context: CallContext,
    deadline: number,
    attempt: (options: { timeoutMs: number }) => Promise<T>,
  ): Promise<T> {
    return countedRead(
      () => attempt({ timeoutMs: attemptTimeout(deadline) }),
      (error) => judgeGraphError(error, context),
      deadline,
      this.retryPolicy,
      this.onUpstream,
    );
  }

  #failed(request: 'read' | 'write', verdict: Verdict): void {
    this.onUpstream?.({ request, retry: false, outcome: failedOutcome(request, verdict) });
  }
}

/**
 * The answer when a write may or may not have landed. It names what went wrong (the cause's
 * kind) but not the cause's own words, which may say that nothing was changed.
 */
function outcomeUnknown(source: ExcelSource, cause: Problem): Problem {
  return new Problem(
    'upstream-outcome-unknown',
    `Microsoft Graph did not answer whether it applied this write to worksheet "${source.tab}", and it could not be learned before the deadline (the last attempt ended in ${cause.code}). It may or may not be in the workbook; Sheetport reads the worksheet again before serving this sheet. Read the rows before sending the write again.`,
    {},
    { 'retry-after': cause.headers['retry-after'] ?? '1' },
  );
}

/**
 * Graph refused to add a name for good (400): the worksheet was renamed since the sheet last
 * read its name, which the names' reference carries. The append then goes without names.
 */
const namesRefused = (error: unknown): boolean =>
  error instanceof GraphFailure && error.status === 400;

/** The two names of one attempt, each over the cells it anchors. */
const namesAt = (anchor: Anchor, names: { end: string; span: string }) => [
  { name: names.end, address: anchor.endAddress },
  { name: names.span, address: anchor.spanAddress },
];

const worksheetKey = (source: ExcelSource) =>
  `${source.drive}/${source.item}/${source.worksheetId}`;

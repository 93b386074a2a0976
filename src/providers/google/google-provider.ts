import { sheets, type sheets_v4 } from '@googleapis/sheets';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { GoogleSource, Sheet, SheetSource } from '../../sheets/sheet.ts';
import type { WriteEffect } from '../../sheets/write-effect.ts';
import { readEveryTab, type EveryTab } from '../../sources/every-tab.ts';
import { checkRowWidth, columnsFromHeader } from '../../sources/header.ts';
import type {
  ProviderTable,
  Push,
  PushOutcome,
  SheetProvider,
  UpstreamEvent,
} from '../provider.ts';
import {
  Backoff,
  defaultRetryPolicy,
  withRetries,
  type RetryPolicy,
  type Verdict,
} from '../retry.ts';
import { WriteSlots } from '../write-slots.ts';
import { cellFromGoogle } from './google-cells.ts';
import { judgeGoogleError } from './google-errors.ts';
import type { GoogleIdentity, GoogleSettings } from './google-auth.ts';
import { batchRequests, pushTagOf, pushTagRequests } from './google-requests.ts';
import { tabRange } from './spreadsheet-ref.ts';

/** Just what a read needs: each tab's id and title, and the typed value of every cell. */
const gridFields =
  'sheets(properties(sheetId,title,index),developerMetadata(metadataKey,metadataValue,location),data(rowData(values(effectiveValue,formattedValue,effectiveFormat/numberFormat/type))))';
const tabFields = 'sheets(properties(sheetId,title,index))';

/** Google Sheets through its own client library, with retries within a deadline. */
export class GoogleProvider implements SheetProvider {
  onUpstream?: (event: UpstreamEvent) => void;
  readonly #api: sheets_v4.Sheets;
  readonly #slots: WriteSlots;

  constructor(
    private readonly identity: GoogleIdentity,
    private readonly settings: GoogleSettings,
    private readonly retryPolicy: RetryPolicy = defaultRetryPolicy,
  ) {
    this.#api = sheets({ version: 'v4', auth: identity.auth, rootUrl: settings.apiUrl });
    this.#slots = new WriteSlots(settings.writesPerMinute, settings.writeWindowMs ?? 60_000);
  }

  get deadlineMs(): number {
    return this.settings.deadlineMs;
  }

  /** Whether writes can go upstream: an API key alone can only read. */
  get canWrite(): boolean {
    return this.identity.canWrite;
  }

  /** The address a spreadsheet must be shared with, if Sheetport has one. */
  get email(): string | null {
    return this.identity.email;
  }

  /** Finds the tab a user named (the first tab when none) and reads it. */
  async connect(spreadsheetId: string, tab: string | undefined): Promise<ProviderTable> {
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

  /** Reads every tab of a spreadsheet in one request, for `tab=*`, with the spreadsheet's title. */
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

  async read(source: SheetSource): Promise<ProviderTable> {
    const google = googleSource(source);
    try {
      return await this.#readTab(google);
    } catch (error) {
      if (!(error instanceof Problem && error.code === 'tab-not-found')) throw error;
      // The tab may have been renamed: it keeps its id.
      const renamed = (await this.#tabs(google.spreadsheetId)).find(
        (t) => t.tabId === google.tabId,
      );
      if (renamed === undefined) throw error;
      return this.#readTab({ ...google, tab: renamed.title });
    }
  }

  writeSlot(): Promise<void> {
    return this.#slots.take();
  }

  /**
   * Sends the batch, tagged with the push's id in the same atomic request. A failure that may
   * have been applied (a 5xx, a cut connection, no answer) is never resent blind: the tab is read
   * back first. Its tag says the batch landed; an unchanged tab without it is safe to send again;
   * a tab that changed meanwhile goes back to the caller to plan on.
   */
  async push(sheet: Sheet, effects: WriteEffect[], push: Push): Promise<PushOutcome> {
    const source = googleSource(sheet.source);
    if (!this.identity.canWrite) {
      throw new Problem(
        'provider-read-only',
        'Sheetport reaches Google Sheets with an API key only, which can read but not write; configure SHEETPORT_GOOGLE_CREDENTIALS to write.',
        {},
        { allow: 'GET, HEAD' },
      );
    }
    const requests = [
      ...batchRequests(source.tabId, sheet.columns.length, effects),
      ...pushTagRequests(source.tabId, push.id),
    ];
    const backoff = new Backoff(push.deadline, this.retryPolicy);
    for (let attempt = 0; ; attempt++) {
      // The first attempt was paced by writeSlot(); every retry is a write request too.
      if (attempt > 0) await this.#slots.take();
      if (attempt > 0) this.onUpstream?.({ request: 'write', retry: true });
      try {
        await this.#api.spreadsheets.batchUpdate(
          { spreadsheetId: source.spreadsheetId, requestBody: { requests } },
          { retry: false, timeout: attemptTimeout(push.deadline) },
        );
        this.onUpstream?.({ request: 'write', retry: false, outcome: 'ok' });
        return { landed: true };
      } catch (error) {
        const verdict = judgeGoogleError(error, this.#context(source.spreadsheetId));
        this.#failed('write', verdict);
        if (!verdict.retry) throw verdict.problem;
        if (verdict.mayHaveApplied === true) {
          const table = await this.#readBack(source, push.deadline);
          if (table.lastPush === push.id) return { landed: true };
          if (!sameRows(table.rows, push.expected) || !sameHeader(table.columns, sheet.columns)) {
            return { landed: false, table };
          }
        }
        await backoff.wait(verdict);
      }
    }
  }

  /** Reads the tab to learn a push's outcome; if Google stays silent past the deadline, nobody knows. */
  async #readBack(source: GoogleSource, deadline: number): Promise<ProviderTable> {
    try {
      return await this.#readTab(source, deadline);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      throw new Problem(
        'upstream-outcome-unknown',
        `Google Sheets did not answer whether it applied this write to "${source.spreadsheetId}", and could not be asked before the deadline (${error.detail}). It may or may not be in the spreadsheet; Sheetport reads the spreadsheet again before serving this sheet. Read the rows before sending the write again.`,
        {},
        { 'retry-after': error.headers['retry-after'] ?? '1' },
      );
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
    return tableOfTab(response.data.sheets?.[0] ?? {}, source);
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
    return withRetries(
      async () => {
        const answer = await attempt();
        this.onUpstream?.({ request: 'read', retry: false, outcome: 'ok' });
        return answer;
      },
      (error) => {
        const verdict = judgeGoogleError(error, context);
        this.#failed('read', verdict);
        return verdict;
      },
      deadline,
      this.retryPolicy,
      () => this.onUpstream?.({ request: 'read', retry: true }),
    );
  }

  #failed(request: 'read' | 'write', verdict: Verdict): void {
    const outcome =
      verdict.problem.code === 'provider-rate-limited'
        ? 'rate_limited'
        : request === 'write' && verdict.mayHaveApplied === true
          ? 'ambiguous'
          : 'failed';
    this.onUpstream?.({ request, retry: false, outcome });
  }

  #context(spreadsheetId: string) {
    return { what: `"${spreadsheetId}"`, email: this.identity.email };
  }
}

/**
 * How long one request may wait for its answer: at most a third of the time left, so that a
 * request that hangs still leaves time to learn what became of it.
 */
function attemptTimeout(deadline: number): number {
  return Math.max(1000, Math.min(20_000, Math.floor((deadline - Date.now()) / 3)));
}

const sameHeader = (a: string[], b: string[]) =>
  a.length === b.length && a.every((column, i) => column === b[i]);

/** Rows compared as the API shows them: a date and its text are the same cell here. */
function sameRows(a: Cell[][], b: Cell[][]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

/** A tab as read with its grid data: its table, and its source with its current title and id. */
function tableOfTab(tab: sheets_v4.Schema$Sheet, source: GoogleSource): ProviderTable {
  const grid = (tab.data?.[0]?.rowData ?? []).map((row) => (row.values ?? []).map(cellFromGoogle));
  return {
    ...tableFromGrid(grid),
    source: {
      ...source,
      tab: tab.properties?.title ?? source.tab,
      tabId: tab.properties?.sheetId ?? source.tabId,
    },
    lastPush: pushTagOf(tab.developerMetadata ?? []),
  };
}

/** The header row names the columns; rows below it are the sheet, without trailing empty rows. */
export function tableFromGrid(grid: Cell[][]): { columns: string[]; rows: Cell[][] } {
  const columns = columnsFromHeader(grid[0] ?? []);
  let end = grid.length;
  while (end > 1 && (grid[end - 1] ?? []).every((cell) => cell === null)) end--;
  const rows = grid.slice(1, end).map((row, i) => {
    checkRowWidth(row, columns.length, i + 2);
    return columns.map((_, index) => row[index] ?? null);
  });
  return { columns, rows };
}

function googleSource(source: SheetSource): GoogleSource {
  if (source.provider !== 'google') throw new Error(`not a Google sheet: ${source.provider}`);
  return source;
}

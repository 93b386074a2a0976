import { sheets, type sheets_v4 } from '@googleapis/sheets';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { GoogleSource, Sheet, SheetSource } from '../../sheets/sheet.ts';
import type { WriteEffect } from '../../sheets/write-effect.ts';
import { readEveryTab, type EveryTab } from '../../sources/every-tab.ts';
import { checkRowWidth, columnsFromHeader } from '../../sources/header.ts';
import type { ProviderTable, SheetProvider } from '../provider.ts';
import { defaultRetryPolicy, withRetries, type RetryPolicy } from '../retry.ts';
import { WriteSlots } from '../write-slots.ts';
import { cellFromGoogle } from './google-cells.ts';
import { judgeGoogleError } from './google-errors.ts';
import type { GoogleIdentity, GoogleSettings } from './google-auth.ts';
import { batchRequests } from './google-requests.ts';
import { tabRange } from './spreadsheet-ref.ts';

/** Just what a read needs: each tab's id and title, and the typed value of every cell. */
const gridFields =
  'sheets(properties(sheetId,title,index),data(rowData(values(effectiveValue,formattedValue,effectiveFormat/numberFormat/type))))';
const tabFields = 'sheets(properties(sheetId,title,index))';

/** Google Sheets through its own client library, with retries within a deadline. */
export class GoogleProvider implements SheetProvider {
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

  async push(sheet: Sheet, effects: WriteEffect[], deadline: number): Promise<void> {
    const source = googleSource(sheet.source);
    if (!this.identity.canWrite) {
      throw new Problem(
        'provider-read-only',
        'Sheetport reaches Google Sheets with an API key only, which can read but not write; configure SHEETPORT_GOOGLE_CREDENTIALS to write.',
        {},
        { allow: 'GET, HEAD' },
      );
    }
    const requests = batchRequests(source.tabId, sheet.columns.length, effects);
    let first = true;
    await this.#call(source.spreadsheetId, deadline, async () => {
      // The first attempt was paced by writeSlot(); every retry is a write request too.
      if (!first) await this.#slots.take();
      first = false;
      await this.#api.spreadsheets.batchUpdate(
        { spreadsheetId: source.spreadsheetId, requestBody: { requests } },
        { retry: false },
      );
    });
  }

  async #readTab(source: GoogleSource): Promise<ProviderTable> {
    const response = await this.#call(
      source.spreadsheetId,
      Date.now() + this.settings.deadlineMs,
      () =>
        this.#api.spreadsheets.get(
          {
            spreadsheetId: source.spreadsheetId,
            ranges: [tabRange(source.tab)],
            includeGridData: true,
            fields: gridFields,
          },
          { retry: false },
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
    const context = { what: `"${spreadsheetId}"`, email: this.identity.email };
    return withRetries(
      attempt,
      (error) => judgeGoogleError(error, context),
      deadline,
      this.retryPolicy,
    );
  }
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

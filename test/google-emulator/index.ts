/**
 * A Google Sheets API v4 emulator for tests: the real `@googleapis/sheets` and
 * `google-auth-library` clients talk to it over loopback HTTP, and the test plays the person
 * editing the sheet and the network misbehaving. See README.md beside this file.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { sheets_v4 } from '@googleapis/sheets';
import { parseCells } from './a1.ts';
import { Credentials, type OAuthClientCredentials, type ServiceAccountKey } from './auth.ts';
import { fromEmulatorCell, toEmulatorCell, type EmulatorCell } from './cells.ts';
import { freshMetadataId, metadataResource } from './developer-metadata.ts';
import {
  deleteRows as deleteGridRows,
  growTo,
  gridBox,
  hasValue,
  insertRows as insertGridRows,
  moveRows as moveGridRows,
  setCell,
  trimmedRows,
  type Tab,
} from './grid.ts';
import {
  afterDelete,
  afterInsert,
  afterMove,
  afterPermutation,
  defaultRules,
  remapRows,
  type UndocumentedRules,
} from './row-metadata.ts';
import { createListener } from './server.ts';
import { fillTab, newBook, tabByTitle, type Book, type SpreadsheetInput } from './state.ts';
import type { FaultRates, InjectedFailure } from './faults.ts';
import { Traffic, type EmulatorStats, type QuotaSettings } from './traffic.ts';

export type { EmulatorCell } from './cells.ts';
export type { ServiceAccountKey, OAuthClientCredentials } from './auth.ts';
export type { SpreadsheetInput, TabInput } from './state.ts';
export type { UndocumentedRules } from './row-metadata.ts';
export type { EmulatorStats, QuotaSettings, RequestRecord } from './traffic.ts';
export type { FaultMode, FaultMoment, FaultRates, InjectedFailure, MixedFault } from './faults.ts';

export interface GoogleSheetsEmulator {
  /** `http://127.0.0.1:PORT`; the Sheets rootUrl is `${url}/`. */
  readonly url: string;
  /** `${url}/token`, the OAuth 2.0 token endpoint (jwt-bearer and refresh_token grants). */
  readonly tokenUrl: string;
  /** Adds a spreadsheet and returns its id (a random 44-character one unless given). */
  createSpreadsheet(input: SpreadsheetInput): string;
  /** The tab as a person sees it: trailing empty rows and trailing empty cells of a row left out. */
  rows(spreadsheetId: string, tab: string): EmulatorCell[][];
  /** A person typing into one cell (`B2`); strings are kept as text, as typed after `'`. */
  editCell(spreadsheetId: string, tab: string, a1: string, value: EmulatorCell): void;
  /** Replaces every cell of a tab. */
  setRows(spreadsheetId: string, tab: string, rows: EmulatorCell[][]): void;
  /**
   * The spreadsheet's Drive `version`, as `GET /drive/v3/files/{id}?fields=version` answers it:
   * it moves on every change, by the API or by a person.
   */
  driveVersion(spreadsheetId: string): string;
  /**
   * Whether the Drive API is enabled in the callers' Cloud project (the default); when not, Drive
   * requests answer 403 `accessNotConfigured`, as Google does.
   */
  driveApiEnabled: boolean;
  /** Every developer metadata entry of the spreadsheet, in the order created, as Google shows it. */
  developerMetadata(spreadsheetId: string): sheets_v4.Schema$DeveloperMetadata[];
  /** A service-account key whose JWT assertions the token endpoint accepts. */
  serviceAccount(name?: string): ServiceAccountKey;
  /**
   * An OAuth client and a refresh token for `email` (default user@example.com), consented to
   * `scopes` (default the Sheets scope alone): its access tokens carry those.
   */
  oauthClient(email?: string, scopes?: string[]): OAuthClientCredentials;
  /** An API key, accepted as `?key=` on reads of spreadsheets created with `public: true`. */
  apiKey(): string;
  share(spreadsheetId: string, email: string): void;
  unshare(spreadsheetId: string, email: string): void;
  /** Write requests per principal per sliding window; null is unlimited (the default). */
  quota: QuotaSettings | null;
  /** Retry-After header of quota 429s; null sends none, as Google usually does. */
  quotaRetryAfterSeconds: number | null;
  /**
   * Makes the next `count` matching API requests fail; replaces a failure still pending, so
   * `count` 0 clears it. Token requests never fail. `when: 'before'` (the default) refuses and
   * changes nothing; `when: 'after'` applies the request, then fails: with `status` (and Google's
   * error body), by destroying the socket unanswered (`mode: 'reset'`), or by never answering
   * (`mode: 'timeout'`, held until the client gives up or the emulator closes).
   */
  failNext(count: number, failure: InjectedFailure): void;
  /**
   * A mix of faults drawn for every write request at the given rates (a `failNext` still pending
   * goes first); setting it restarts its random source from `seed`. Null (the default) is none.
   */
  faultRates: FaultRates | null;
  /** Added before every answer. */
  latencyMs: number;
  /** Runs the requests a `late` fault holds, now, oldest first; answers how many ran. */
  applyHeld(): number;
  /** Requests a `late` fault still holds. */
  readonly heldCount: number;
  /**
   * Runs `then` once the next API request of `kind` has run or been refused, before its answer
   * goes out: a person editing between Sheetport's read and its write.
   */
  afterNext(kind: 'read' | 'write', then: () => void): void;
  /**
   * Runs `then` once the next API request of `kind` has arrived and passed its checks, just
   * before it is applied: a person editing while Google holds a batch.
   */
  beforeNext(kind: 'read' | 'write', then: () => void): void;
  /** A person inserting rows (0 is the first row, the header) above `at`. */
  insertRows(spreadsheetId: string, tab: string, at: number, rows: EmulatorCell[][]): void;
  /** A person deleting `count` rows from `at` (0 is the header). */
  deleteRows(spreadsheetId: string, tab: string, at: number, count?: number): void;
  /** A person dragging row `from` to sit at `to` (both counted before the move). */
  moveRow(spreadsheetId: string, tab: string, from: number, to: number): void;
  /**
   * A person sorting the rows under the header: their cells are reordered, and their developer
   * metadata goes with them unless `rules.sortMovesRowMetadata` is off (Google does not say).
   */
  sortRows(
    spreadsheetId: string,
    tab: string,
    compare: (a: EmulatorCell[], b: EmulatorCell[]) => number,
  ): void;
  /** What the emulator does where Google's reference is silent; a test may change it. */
  readonly rules: UndocumentedRules;
  /**
   * Puts developer metadata `key` on grid row `row` of the tab (0 is the header), as an API
   * client would have: for tests that start from rows some client already marked.
   */
  addRowMetadata(spreadsheetId: string, tab: string, row: number, key: string): number;
  /** Another app (or another Sheetport server) deleting developer metadata by its id. */
  removeDeveloperMetadata(spreadsheetId: string, metadataId: number): void;
  /** A person renaming a tab: it keeps its id (its sheetId) and everything on it. */
  renameTab(spreadsheetId: string, tab: string, title: string): void;
  /** A person deleting a tab, with the developer metadata on it. */
  deleteTab(spreadsheetId: string, tab: string): void;
  /**
   * Refuses (400, changing nothing) any batchUpdate after which the spreadsheet's developer
   * metadata would hold more than `chars` characters (keys and values); null lifts the cap.
   */
  capDeveloperMetadata(spreadsheetId: string, chars: number | null): void;
  /** The characters of developer metadata (keys and values) the spreadsheet holds. */
  developerMetadataChars(spreadsheetId: string): number;
  stats(): EmulatorStats;
  resetStats(): void;
  /** Expires every access token handed out, as if an hour had passed. */
  expireAccessTokens(): void;
  /**
   * Stops listening and drops every connection, so new connections are refused (`ECONNREFUSED`);
   * a client reusing a kept-alive connection before it noticed the close sees a reset instead.
   * The spreadsheets, credentials and tokens are kept for `restart`.
   */
  stop(): Promise<void>;
  /** Listens again on the same port after `stop`. */
  restart(): Promise<void>;
  /** Stops for good; prompt even with requests held by a `timeout` fault. */
  close(): Promise<void>;
}

class Emulator implements GoogleSheetsEmulator {
  readonly tokenUrl: string;
  private readonly books = new Map<string, Book>();
  private readonly credentials: Credentials;
  private readonly traffic = new Traffic();
  private readonly services = { driveApiEnabled: true };
  private readonly undocumented = defaultRules();

  constructor(
    readonly url: string,
    private readonly server: Server,
  ) {
    this.tokenUrl = `${url}/token`;
    this.credentials = new Credentials(this.tokenUrl);
    server.on(
      'request',
      createListener({
        books: this.books,
        credentials: this.credentials,
        traffic: this.traffic,
        services: this.services,
      }),
    );
  }

  createSpreadsheet(input: SpreadsheetInput): string {
    const book = newBook(input, this.undocumented);
    if (this.books.has(book.id)) throw new Error(`Spreadsheet ${book.id} already exists`);
    this.books.set(book.id, book);
    return book.id;
  }

  rows(spreadsheetId: string, tab: string): EmulatorCell[][] {
    const sheet = this.tab(spreadsheetId, tab);
    return trimmedRows(sheet, gridBox(sheet), hasValue).map((cells) => cells.map(toEmulatorCell));
  }

  editCell(spreadsheetId: string, tab: string, a1: string, value: EmulatorCell): void {
    const sheet = this.tab(spreadsheetId, tab);
    const cell = parseCells(a1);
    if (cell?.startRow === undefined || cell.startColumn === undefined) {
      throw new Error(`Not a cell: ${a1}`);
    }
    growTo(sheet, cell.startRow + 1, cell.startColumn + 1);
    setCell(sheet, cell.startRow, cell.startColumn, fromEmulatorCell(value));
    this.book(spreadsheetId).version++;
  }

  setRows(spreadsheetId: string, tab: string, rows: EmulatorCell[][]): void {
    fillTab(this.tab(spreadsheetId, tab), rows);
    this.book(spreadsheetId).version++;
  }

  driveVersion(spreadsheetId: string): string {
    return String(this.book(spreadsheetId).version);
  }

  get driveApiEnabled(): boolean {
    return this.services.driveApiEnabled;
  }

  set driveApiEnabled(enabled: boolean) {
    this.services.driveApiEnabled = enabled;
  }

  developerMetadata(spreadsheetId: string): sheets_v4.Schema$DeveloperMetadata[] {
    return this.book(spreadsheetId).metadata.map(metadataResource);
  }

  serviceAccount(name?: string): ServiceAccountKey {
    return this.credentials.serviceAccount(name);
  }

  oauthClient(email?: string, scopes?: string[]): OAuthClientCredentials {
    return this.credentials.oauthClient(email, scopes);
  }

  apiKey(): string {
    return this.credentials.apiKeyValue;
  }

  share(spreadsheetId: string, email: string): void {
    this.book(spreadsheetId).sharedWith.add(email);
  }

  unshare(spreadsheetId: string, email: string): void {
    this.book(spreadsheetId).sharedWith.delete(email);
  }

  get quota(): QuotaSettings | null {
    return this.traffic.quota;
  }

  set quota(settings: QuotaSettings | null) {
    this.traffic.quota = settings;
  }

  get quotaRetryAfterSeconds(): number | null {
    return this.traffic.quotaRetryAfterSeconds;
  }

  set quotaRetryAfterSeconds(seconds: number | null) {
    this.traffic.quotaRetryAfterSeconds = seconds;
  }

  get latencyMs(): number {
    return this.traffic.latencyMs;
  }

  set latencyMs(ms: number) {
    this.traffic.latencyMs = ms;
  }

  failNext(count: number, failure: InjectedFailure): void {
    this.traffic.faults.failNext(count, failure);
  }

  get faultRates(): FaultRates | null {
    return this.traffic.faults.rates;
  }

  set faultRates(rates: FaultRates | null) {
    this.traffic.faults.rates = rates;
  }

  stats(): EmulatorStats {
    return this.traffic.stats();
  }

  applyHeld(): number {
    return this.traffic.applyHeld();
  }

  get heldCount(): number {
    return this.traffic.heldCount;
  }

  afterNext(kind: 'read' | 'write', then: () => void): void {
    this.traffic.afterNext(kind, then);
  }

  beforeNext(kind: 'read' | 'write', then: () => void): void {
    this.traffic.beforeNext(kind, then);
  }

  insertRows(spreadsheetId: string, tab: string, at: number, rows: EmulatorCell[][]): void {
    const sheet = this.tab(spreadsheetId, tab);
    const book = this.book(spreadsheetId);
    insertGridRows(sheet, at, rows.length);
    rows.forEach((row, r) =>
      row.forEach((cell, c) => setCell(sheet, at + r, c, fromEmulatorCell(cell))),
    );
    growTo(sheet, 0, Math.max(0, ...rows.map((row) => row.length)));
    book.metadata = remapRows(book.metadata, sheet.sheetId, afterInsert(at, rows.length));
    book.version++;
  }

  deleteRows(spreadsheetId: string, tab: string, at: number, count = 1): void {
    const sheet = this.tab(spreadsheetId, tab);
    const book = this.book(spreadsheetId);
    deleteGridRows(sheet, at, at + count);
    book.metadata = remapRows(book.metadata, sheet.sheetId, afterDelete(at, at + count));
    book.version++;
  }

  moveRow(spreadsheetId: string, tab: string, from: number, to: number): void {
    const sheet = this.tab(spreadsheetId, tab);
    const book = this.book(spreadsheetId);
    if (from >= sheet.rows.length) throw new Error(`No row ${from}`);
    if (from === to) return;
    // `to` is where the row ends up; a drag's destination counts rows before it is taken out.
    const destination = to > from ? to + 1 : to;
    moveGridRows(sheet, from, from + 1, destination);
    book.metadata = remapRows(book.metadata, sheet.sheetId, afterMove(from, from + 1, destination));
    book.version++;
  }

  sortRows(
    spreadsheetId: string,
    tab: string,
    compare: (a: EmulatorCell[], b: EmulatorCell[]) => number,
  ): void {
    const sheet = this.tab(spreadsheetId, tab);
    const book = this.book(spreadsheetId);
    const rows = this.rows(spreadsheetId, tab);
    const order = rows
      .slice(1)
      .map((row, i) => ({ row, from: i + 1 }))
      .sort((a, b) => compare(a.row, b.row));
    const cells = order.map(({ from }) => sheet.rows[from] ?? []);
    cells.forEach((row, i) => (sheet.rows[i + 1] = row));
    if (book.rules.sortMovesRowMetadata) {
      const moved = afterPermutation(
        1,
        order.map(({ from }) => from),
      );
      book.metadata = remapRows(book.metadata, sheet.sheetId, moved);
    }
    book.version++;
  }

  addRowMetadata(spreadsheetId: string, tab: string, row: number, key: string): number {
    const sheet = this.tab(spreadsheetId, tab);
    const book = this.book(spreadsheetId);
    const metadataId = freshMetadataId(book.metadata);
    const location = { sheetId: sheet.sheetId, row };
    book.metadata = [
      ...book.metadata,
      { metadataId, metadataKey: key, metadataValue: '', location, visibility: 'DOCUMENT' },
    ];
    book.version++;
    return metadataId;
  }

  removeDeveloperMetadata(spreadsheetId: string, metadataId: number): void {
    const book = this.book(spreadsheetId);
    book.metadata = book.metadata.filter((entry) => entry.metadataId !== metadataId);
    book.version++;
  }

  get rules(): UndocumentedRules {
    return this.undocumented;
  }

  renameTab(spreadsheetId: string, tab: string, title: string): void {
    this.tab(spreadsheetId, tab).title = title;
    this.book(spreadsheetId).version++;
  }

  deleteTab(spreadsheetId: string, tab: string): void {
    const book = this.book(spreadsheetId);
    const gone = this.tab(spreadsheetId, tab);
    book.tabs = book.tabs.filter((candidate) => candidate !== gone);
    book.metadata = book.metadata.filter(
      (entry) => !('sheetId' in entry.location) || entry.location.sheetId !== gone.sheetId,
    );
    book.version++;
  }

  capDeveloperMetadata(spreadsheetId: string, chars: number | null): void {
    const book = this.book(spreadsheetId);
    if (chars === null) delete book.metadataCharsCap;
    else book.metadataCharsCap = chars;
  }

  developerMetadataChars(spreadsheetId: string): number {
    return this.book(spreadsheetId).metadata.reduce(
      (sum, entry) => sum + entry.metadataKey.length + entry.metadataValue.length,
      0,
    );
  }

  resetStats(): void {
    this.traffic.resetStats();
  }

  expireAccessTokens(): void {
    this.credentials.expireAccessTokens();
  }

  async stop(): Promise<void> {
    if (!this.server.listening) return;
    await new Promise<void>((resolve, reject) => {
      this.server.close((error) => (error ? reject(error) : resolve()));
      this.server.closeAllConnections();
    });
  }

  async restart(): Promise<void> {
    if (this.server.listening) return;
    await listen(this.server, Number(new URL(this.url).port));
  }

  close(): Promise<void> {
    return this.stop();
  }

  private book(spreadsheetId: string): Book {
    const book = this.books.get(spreadsheetId);
    if (!book) throw new Error(`No spreadsheet ${spreadsheetId}`);
    return book;
  }

  private tab(spreadsheetId: string, title: string): Tab {
    const tab = tabByTitle(this.book(spreadsheetId), title);
    if (!tab) throw new Error(`No tab ${title} in spreadsheet ${spreadsheetId}`);
    return tab;
  }
}

/** Starts the emulator on 127.0.0.1 (a free port unless one is given). */
export async function startGoogleSheetsEmulator(
  options: { port?: number } = {},
): Promise<GoogleSheetsEmulator> {
  const server = createServer();
  await listen(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return new Emulator(`http://127.0.0.1:${port}`, server);
}

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

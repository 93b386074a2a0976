/**
 * A Microsoft Graph emulator for tests: the identity platform's token endpoints and the Excel
 * workbook API over loopback HTTP, while the test plays the person editing the workbook and the
 * network misbehaving. See README.md beside this file.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_COLUMNS, parseAddress } from './a1.ts';
import {
  addItem,
  findItem,
  findSheetByName,
  findWorkbook,
  itemKey,
  XLSX_MIME,
  type DriveItem,
  type FileInput,
  type ItemRef,
  type Workbook,
} from './drive.ts';
import { touch, type DriveState } from './graph-api.ts';
import { Identity, type AppCredentials } from './identity.ts';
import { createListener } from './server.ts';
import {
  Traffic,
  type RequestRecord,
  type ThrottleSettings,
  type TrafficCounts,
} from './traffic.ts';
import type { InjectedFailure } from './faults.ts';
import {
  addWorksheet,
  newWorkbook,
  setCells,
  typeCells,
  valuesOf,
  viewCell,
  type CellInput,
  type CellView,
  type WorksheetInput,
} from './workbook-input.ts';
import { deleteUp, insertDown, moveRow, type Worksheet } from './worksheet.ts';
import { checkName } from './names.ts';

export type { AppCredentials, Principal } from './identity.ts';
export type { CellInput, CellView, WorksheetInput } from './workbook-input.ts';
export type { FaultMatch, FaultMode, FaultMoment, InjectedFailure } from './faults.ts';
export type { RequestRecord, ThrottleSettings, TrafficCounts } from './traffic.ts';
export { shareIdOf, XLSX_MIME } from './drive.ts';
export type { FileInput, ItemRef } from './drive.ts';

export interface WorkbookInput extends FileInput {
  worksheets: WorksheetInput[];
}

export interface SessionView {
  id: string;
  persistChanges: boolean;
  closed: boolean;
}

export class GraphEmulator {
  /** `http://127.0.0.1:PORT/login/`: what SHEETPORT_MICROSOFT_LOGIN_URL gets. */
  readonly loginUrl: string;
  /** `http://127.0.0.1:PORT/v1.0/`: what SHEETPORT_MICROSOFT_GRAPH_URL gets. */
  readonly graphUrl: string;
  private readonly identity = new Identity();
  private readonly traffic = new Traffic();
  private readonly state: DriveState = {
    items: new Map(),
    shares: new Map(),
    sessionIdleMs: 300_000,
    sessionRefusalCode: 'InvalidSessionId',
    appTokensOpenWorkbooks: true,
  };

  constructor(
    readonly url: string,
    private readonly server: Server,
  ) {
    this.loginUrl = `${url}/login/`;
    this.graphUrl = `${url}/v1.0/`;
    const { state, identity, traffic } = this;
    server.on('request', createListener({ state, identity, traffic }));
  }

  // --- identity -------------------------------------------------------------------------------

  /** An app registration (a new tenant unless `tenant` is given) with its client secret. */
  registerApp(input: Partial<AppCredentials> = {}): AppCredentials {
    return this.identity.registerApp(input);
  }

  /** `expires_in` of new access tokens (default 3599); Graph refuses a token past it with 401. */
  get accessTokenLifetimeSeconds(): number {
    return this.identity.accessTokenLifetimeSeconds;
  }

  set accessTokenLifetimeSeconds(seconds: number) {
    this.identity.accessTokenLifetimeSeconds = seconds;
  }

  /** Expires every access token handed out, as if an hour had passed. */
  expireAccessTokens(): void {
    this.identity.expireAccessTokens();
  }

  /** The device code's `interval` (default 5): polling sooner answers `slow_down`. */
  get deviceCodeIntervalSeconds(): number {
    return this.identity.deviceCodes.intervalSeconds;
  }

  set deviceCodeIntervalSeconds(seconds: number) {
    this.identity.deviceCodes.intervalSeconds = seconds;
  }

  /** The person entering `userCode` at the verification page and consenting, as `user`. */
  approveDeviceCode(userCode: string, user = 'adele@contoso.com'): void {
    this.identity.deviceCodes.settle(userCode, 'approved', user);
  }

  /** The person declining the sign-in: the next poll answers `authorization_declined`. */
  declineDeviceCode(userCode: string): void {
    this.identity.deviceCodes.settle(userCode, 'declined', '');
  }

  /** Every device code past its `expires_in`: polls answer `expired_token`. */
  expireDeviceCodes(): void {
    this.identity.deviceCodes.expireAll();
  }

  /** Revokes the refresh tokens of `user` (of everyone when absent); answers how many. */
  revokeRefreshTokens(user?: string): number {
    return this.identity.revokeRefreshTokens(user);
  }

  /** False (Microsoft's behaviour, the default) keeps a used refresh token valid beside its successor. */
  get revokeUsedRefreshTokens(): boolean {
    return this.identity.revokeUsedRefreshTokens;
  }

  set revokeUsedRefreshTokens(revoke: boolean) {
    this.identity.revokeUsedRefreshTokens = revoke;
  }

  /**
   * Whether app-only tokens may call the workbook API (the default). Microsoft's reference lists
   * Application permissions as not supported there; false answers them 403 `accessDenied`, while
   * their driveItem and shares requests still answer.
   */
  get appTokensOpenWorkbooks(): boolean {
    return this.state.appTokensOpenWorkbooks;
  }

  set appTokensOpenWorkbooks(allowed: boolean) {
    this.state.appTokensOpenWorkbooks = allowed;
  }

  // --- drive items and workbooks --------------------------------------------------------------

  createWorkbook(input: WorkbookInput): ItemRef {
    return this.addItem({ name: 'Book.xlsx', ...input }, XLSX_MIME, newWorkbook(input.worksheets));
  }

  /** A file that is not a workbook (a CSV, say): its driveItem answers, its workbook does not. */
  createFile(input: FileInput & { mimeType: string }): ItemRef {
    return this.addItem({ name: 'file.csv', ...input }, input.mimeType);
  }

  /** A sharing link to the item, as "Copy link" gives it; its share id is `shareIdOf(url)`. */
  shareLink(ref: ItemRef): string {
    const url = `https://contoso.sharepoint.com/:x:/s/team/${ref.itemId.slice(2, 24)}?e=${this.state.shares.size}`;
    this.state.shares.set(url, itemKey(ref.driveId, ref.itemId));
    return url;
  }

  /** The item's version: moves on every change that reaches the file (its eTag carries it). */
  version(ref: ItemRef): number {
    return this.item(ref).version;
  }

  worksheetNames(ref: ItemRef): string[] {
    return this.workbook(ref).worksheets.map((sheet) => sheet.name);
  }

  /** The file's values from A1 to the last cell with content, `""` for empty cells. */
  values(ref: ItemRef, sheet: string): (number | string | boolean)[][] {
    return valuesOf(this.sheet(ref, sheet));
  }

  cell(ref: ItemRef, sheet: string, a1: string): CellView {
    return viewCell(this.sheet(ref, sheet), a1);
  }

  // --- a person editing the file --------------------------------------------------------------

  /** A person pasting cells from `a1` on: strings stay text, exactly. */
  setCells(ref: ItemRef, sheet: string, a1: string, rows: CellInput[][]): void {
    this.edit(ref, sheet, (ws) => setCells(ws, a1, rows));
  }

  /** A person typing into cells from `a1` on: Excel reads each string as typed input. */
  typeCells(ref: ItemRef, sheet: string, a1: string, rows: string[][]): void {
    this.edit(ref, sheet, (ws) => typeCells(ws, a1, rows));
  }

  /** A person inserting whole rows above row `before` (1-based), filled with `rows`. */
  insertRows(ref: ItemRef, sheet: string, before: number, rows: CellInput[][]): void {
    this.edit(ref, sheet, (ws) => {
      insertDown(ws, wholeRows(before, rows.length));
      setCells(ws, `A${before}`, rows);
    });
  }

  /** The workbook's defined names that refer to cells of the worksheet. */
  definedNames(ref: ItemRef, sheet: string): string[] {
    return (this.sheet(ref, sheet).names ?? []).map((defined) => defined.name);
  }

  /** A person adding a name of the workbook over `a1` of the worksheet (the Name Manager). */
  defineName(ref: ItemRef, sheet: string, name: string, a1: string, comment = ''): void {
    const box = parseAddress(a1)?.box;
    if (box === undefined) throw new Error(`not an address: ${a1}`);
    this.edit(ref, sheet, (ws) => {
      ws.names = [...(ws.names ?? []), { name: checkName(name), comment, box }];
    });
  }

  /** The worksheet's id, which Graph keeps across renames. */
  worksheetId(ref: ItemRef, sheet: string): string {
    return this.sheet(ref, sheet).id;
  }

  /** A person deleting `count` whole rows from row `from` (1-based). */
  deleteRows(ref: ItemRef, sheet: string, from: number, count = 1): void {
    this.edit(ref, sheet, (ws) => deleteUp(ws, wholeRows(from, count)));
  }

  /** A person dragging row `from` so that it becomes row `to` (both 1-based). */
  moveRow(ref: ItemRef, sheet: string, from: number, to: number): void {
    this.edit(ref, sheet, (ws) => moveRow(ws, from - 1, to - 1));
  }

  addWorksheet(ref: ItemRef, input: WorksheetInput): void {
    addWorksheet(this.workbook(ref), input);
    touch(this.item(ref), Date.now());
  }

  renameWorksheet(ref: ItemRef, sheet: string, name: string): void {
    this.edit(ref, sheet, (ws) => (ws.name = name));
  }

  deleteWorksheet(ref: ItemRef, sheet: string): void {
    const workbook = this.workbook(ref);
    const found = this.sheet(ref, sheet);
    workbook.worksheets = workbook.worksheets.filter((each) => each !== found);
    touch(this.item(ref), Date.now());
  }

  // --- sessions -------------------------------------------------------------------------------

  sessions(ref: ItemRef): SessionView[] {
    return [...this.item(ref).sessions.values()].map(({ id, persistChanges, closed }) => ({
      id,
      persistChanges,
      closed,
    }));
  }

  /** Ends every session of the item (or of every item) as Excel ends idle ones. */
  expireSessions(ref?: ItemRef): void {
    const items = ref ? [this.item(ref)] : [...this.state.items.values()];
    for (const item of items) for (const session of item.sessions.values()) session.closed = true;
  }

  /** Idle time after which a session is gone (default 5 minutes). */
  get sessionIdleMs(): number {
    return this.state.sessionIdleMs;
  }

  set sessionIdleMs(ms: number) {
    this.state.sessionIdleMs = ms;
  }

  /**
   * The top-level code a request of a gone session is refused with (default `InvalidSessionId`);
   * its second-level code stays `invalidSessionReCreatable`. E.g. `itemNotFound`.
   */
  get sessionRefusalCode(): string {
    return this.state.sessionRefusalCode;
  }

  set sessionRefusalCode(code: string) {
    this.state.sessionRefusalCode = code;
  }

  // --- traffic --------------------------------------------------------------------------------

  /** The per-app budget of Graph requests; null (the default) never throttles. */
  get throttle(): ThrottleSettings | null {
    return this.traffic.throttle;
  }

  set throttle(settings: ThrottleSettings | null) {
    this.traffic.throttle = settings;
  }

  /** Added before every answer. */
  get latencyMs(): number {
    return this.traffic.latencyMs;
  }

  set latencyMs(ms: number) {
    this.traffic.latencyMs = ms;
  }

  /** The next `count` requests matching `failure.match` meet the fault; rules queue up in order. */
  failNext(count: number, failure: InjectedFailure): void {
    this.traffic.faults.add(count, failure);
  }

  clearFaults(): void {
    this.traffic.faults.clear();
  }

  /** Requests the fault rules still wait for (a rule of count n that met k: n - k). */
  get pendingFaults(): number {
    return this.traffic.faults.pending;
  }

  /** Runs now, oldest first, the requests a `late` fault holds; answers how many ran. */
  applyHeld(): number {
    return this.traffic.applyHeld();
  }

  get heldCount(): number {
    return this.traffic.heldCount;
  }

  /** Runs `then` once the next Graph request of `kind` has run, before its answer goes out. */
  afterNext(kind: 'read' | 'write', then: () => void): void {
    this.traffic.afterNext(kind, then);
  }

  /** Every request so far, `$batch` ones and each request inside them. */
  requests(): RequestRecord[] {
    return this.traffic.requests();
  }

  /** Reads, applied writes, rejected requests and unacknowledged writes in the log. */
  counts(): TrafficCounts {
    return this.traffic.counts();
  }

  resetRequests(): void {
    this.traffic.resetLog();
  }

  /** Stops listening and drops every connection; state is kept for `restart`. */
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

  /** Stops for good; prompt even with requests held open. */
  close(): Promise<void> {
    return this.stop();
  }

  private addItem(input: FileInput, mimeType: string, workbook?: Workbook): ItemRef {
    return addItem(this.state, { ...input, mimeType, ...(workbook ? { workbook } : {}) });
  }

  private item(ref: ItemRef): DriveItem {
    return findItem(this.state, ref);
  }

  private workbook(ref: ItemRef): Workbook {
    return findWorkbook(this.state, ref);
  }

  private sheet(ref: ItemRef, name: string): Worksheet {
    return findSheetByName(this.state, ref, name);
  }

  /** A person's change lands in the file itself, not in any session's copy. */
  private edit(ref: ItemRef, sheet: string, change: (worksheet: Worksheet) => void): void {
    change(this.sheet(ref, sheet));
    touch(this.item(ref), Date.now());
  }
}

const wholeRows = (first: number, count: number) => ({
  startRow: first - 1,
  endRow: first - 1 + count,
  startColumn: 0,
  endColumn: MAX_COLUMNS,
});

/** Starts the emulator on 127.0.0.1 (a free port unless one is given). */
export async function startGraphEmulator(options: { port?: number } = {}): Promise<GraphEmulator> {
  const server = createServer();
  await listen(server, options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  return new GraphEmulator(`http://127.0.0.1:${port}`, server);
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

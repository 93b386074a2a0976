import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, type AppOptions } from '../../src/app.ts';
import type { SheetStore } from '../../src/store/store.ts';
import { build, call } from './build.ts';
import {
  clientCredentialTokens,
  type GraphTokens,
} from '../../src/providers/excel/graph-tokens.ts';
import {
  microsoftAccess,
  type MicrosoftAccess,
} from '../../src/providers/excel/microsoft-access.ts';
import { registryOf } from '../../src/providers/providers.ts';
import { ExcelProvider } from '../../src/providers/excel/excel-provider.ts';
import type { MicrosoftSettings } from '../../src/providers/excel/microsoft-settings.ts';
import type { Cell } from '../../src/cells/cell.ts';
import type { Sheet } from '../../src/model/sheet.ts';
import type { ExcelSource } from '../../src/providers/excel/excel-source.ts';
import type { WriteEffect } from '../../src/model/write-effect.ts';
import type { PushOutcome } from '../../src/providers/provider.ts';
import {
  startGraphEmulator,
  type AppCredentials,
  type CellInput,
  type GraphEmulator,
  type ItemRef,
} from '../graph-emulator/index.ts';

export const people: CellInput[][] = [
  ['name', 'age', 'member'],
  ['Ann', 31, true],
  ['Bob', 27, false],
  ['Kim', 40, true],
  ['Lee', 22, false],
  ['Max', 50, true],
];

export interface ExcelSetup {
  emulator: GraphEmulator;
  app: AppCredentials;
  ref: ItemRef;
  settings: MicrosoftSettings;
  excel: ExcelProvider;
  /** A provider like `excel`, e.g. for a second server. */
  newProvider(): ExcelProvider;
}

/**
 * A Graph emulator with an app registered and a workbook "CRM" holding worksheet "People", and
 * an Excel provider signed in as the app. Retries are quick, so tests stay short.
 */
export async function excelSetup(
  t: TestContext,
  options: { rows?: CellInput[][]; settings?: Partial<MicrosoftSettings> } = {},
): Promise<ExcelSetup> {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  const app = emulator.registerApp();
  const ref = emulator.createWorkbook({
    tenant: app.tenant,
    name: 'CRM.xlsx',
    worksheets: [
      { name: 'People', rows: options.rows ?? people },
      { name: 'Other', rows: [['x'], [1]] },
    ],
  });
  const settings: MicrosoftSettings = {
    tenantId: app.tenant,
    clientId: app.clientId,
    clientSecret: app.clientSecret,
    loginUrl: emulator.loginUrl,
    graphUrl: emulator.graphUrl,
    deadlineMs: 10_000,
    writesPerMinute: 10_000,
    ...options.settings,
  };
  const newProvider = () =>
    new ExcelProvider(settings, clientCredentialTokens(settings), { baseMs: 20, maxMs: 200 });
  return { emulator, app, ref, settings, excel: newProvider(), newProvider };
}

/** A sheet as the store would hold it, mirroring `source` with `columns`. */
export function sheetOf(source: ExcelSource, columns: string[]): Sheet {
  const now = new Date().toISOString();
  return {
    id: 'sheet-1',
    name: 'people',
    columns,
    rowCount: 0,
    source,
    settings: { deleteEnabled: true },
    createdAt: now,
    updatedAt: now,
    version: 1,
  };
}

/** Reads the worksheet "People", then pushes `effects` planned on what it read. */
export async function pushOnPeople(
  setup: ExcelSetup,
  effects: WriteEffect[],
  options: { plan?: string; tag?: number; deadlineMs?: number; expected?: Cell[][] } = {},
): Promise<{ outcome: PushOutcome; sheet: Sheet; tag: number }> {
  const table = await setup.excel.connect({
    document: `${setup.ref.driveId}/${setup.ref.itemId}`,
    tab: 'People',
  });
  const sheet = sheetOf(table.source as ExcelSource, table.columns);
  const tag = options.tag ?? 7;
  const outcome = await setup.excel.push(sheet, effects, {
    tag,
    plan: options.plan ?? 'plan-1',
    earlier: [],
    expected: { columns: table.columns, rows: options.expected ?? table.rows },
    positional: true,
    deadline: Date.now() + (options.deadlineMs ?? setup.settings.deadlineMs),
    tags: new Map(),
  });
  return { outcome, sheet, tag };
}

export interface ExcelApp extends ExcelSetup {
  url: string;
  store: SheetStore;
  /** Settings that point another server at the same store. */
  env: Record<string, string>;
}

/** A Sheetport server with the Excel provider of `excelSetup`, on the test's store. */
export async function excelApp(
  t: TestContext,
  options: Parameters<typeof excelSetup>[1] & {
    app?: Partial<AppOptions>;
    wrapStore?: (store: SheetStore) => SheetStore;
  } = {},
): Promise<ExcelApp> {
  const setup = await excelSetup(t, options);
  const extra = { ...(options.wrapStore && { wrapStore: options.wrapStore }) };
  const { url, store, env } = await build(t, options.app ?? {}, { excel: setup.excel }, extra);
  return { ...setup, url, store, env };
}

/** Another server on the same store, with an Excel provider of its own (nothing in memory). */
export async function secondServer(t: TestContext, excel: ExcelApp): Promise<string> {
  const other = await createApp(
    { store: excel.store, providers: registryOf({ excel: excel.newProvider() }) },
    { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
  );
  t.after(() => other.close());
  return other.listen({ host: '127.0.0.1', port: 0 });
}

/** Connects worksheet "People" as a sheet; answers its id. */
export async function connectPeople(
  setup: ExcelApp,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await call(`${setup.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'people',
      source: {
        provider: 'excel',
        drive: setup.ref.driveId,
        item: setup.ref.itemId,
        tab: 'People',
      },
      ...extra,
    },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body as { id: string }).id;
}

/**
 * A person inserts a row ("New") above Kim at the moment `when` runs the insert, while
 * PATCH ?name=Kim sets Kim's age to 41 on a sheet whose copy is trusted for an hour (only the
 * check before the push reads the worksheet again). Answers the server, the sheet and the answer.
 */
export async function patchKimWhileInserting(
  t: TestContext,
  when: (excel: ExcelApp, insert: () => void) => void,
): Promise<{ excel: ExcelApp; id: string; answer: Awaited<ReturnType<typeof call>> }> {
  const excel = await excelApp(t);
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  when(excel, () => excel.emulator.insertRows(excel.ref, 'People', 3, [['New', 1, false]]));
  const answer = await call(`${excel.url}/api/v1/${id}?name=Kim`, {
    method: 'PATCH',
    body: { age: 41 },
  });
  return { excel, id, answer };
}

/** The rows as the API serves them and as the worksheet holds them, side by side. */
export async function bothSides(setup: ExcelApp, id: string) {
  const api = await call(`${setup.url}/api/v1/${id}`);
  const [header = [], ...rows] = setup.emulator.values(setup.ref, 'People');
  const sheet = rows.map((row) =>
    Object.fromEntries(header.map((column, i) => [String(column), row[i] === '' ? null : row[i]])),
  );
  return { api: api.body, sheet };
}

export interface SignInServer {
  emulator: GraphEmulator;
  url: string;
  store: SheetStore;
  /** The server's Microsoft access, whose sign-in the routes and the console start. */
  microsoft: MicrosoftAccess;
  /** Another server's access on the same store and app, as a second server would have. */
  another(): MicrosoftAccess;
  /** The settings the server's access was made with, for another made in a test. */
  settings: Parameters<typeof microsoftAccess>[0];
  /** The tenant of the app, where its workbooks are. */
  tenant: string;
}

/**
 * A server whose Excel provider has a Microsoft app with no secret (delegated sign-in only)
 * registered in a Graph emulator; the access is made once the store is open, as the server
 * makes it. `clientId` replaces the app's (e.g. one Microsoft does not know).
 */
export async function signInServer(
  t: TestContext,
  options: Partial<AppOptions> = {},
  clientId?: string,
): Promise<SignInServer> {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  // Polls may follow each other at once, so a test waits only on the sign-in itself.
  emulator.deviceCodeIntervalSeconds = 0;
  const app = emulator.registerApp();
  const settings = {
    tenantId: app.tenant,
    clientId: clientId ?? app.clientId,
    clientSecret: undefined,
    loginUrl: emulator.loginUrl,
    graphUrl: emulator.graphUrl,
  };
  let microsoft: MicrosoftAccess | undefined;
  // The server's Excel provider, with the tokens of the access made once the store is open.
  const tokens: GraphTokens = {
    token: (signal) => {
      if (microsoft?.tokens == null) throw new Error('no Microsoft access');
      return microsoft.tokens.token(signal);
    },
    refused: () => microsoft?.tokens?.refused(),
  };
  const excel = new ExcelProvider({ ...settings, deadlineMs: 5000, writesPerMinute: 600 }, tokens);
  const server = await build(
    t,
    options,
    { excel },
    {
      providersFor: (store) => {
        microsoft = microsoftAccess(settings, store.credentials);
        return registryOf({ excel }, { excel: microsoft.signIn });
      },
    },
  );
  assert.ok(microsoft !== undefined);
  return {
    emulator,
    url: server.url,
    store: server.store,
    microsoft,
    another: () => microsoftAccess(settings, server.store.credentials),
    settings,
    tenant: app.tenant,
  };
}

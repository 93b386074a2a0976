import type { TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AppOptions } from '../../src/app.ts';
import { googleIdentity } from '../../src/providers/google/google-auth.ts';
import type { GoogleSettings } from '../../src/providers/google/google-settings.ts';
import { GoogleProvider } from '../../src/providers/google/google-provider.ts';
import type { SheetStore } from '../../src/store/store.ts';
import { startGoogleSheetsEmulator, type GoogleSheetsEmulator } from '../google-emulator/index.ts';
import { build, call } from './build.ts';

export interface Setup {
  emulator: GoogleSheetsEmulator;
  url: string;
  spreadsheetId: string;
  store: SheetStore;
  /** Settings that point another server at the same store. */
  env: Record<string, string>;
  google: GoogleProvider;
  /** A provider like the server's, for a second server on the same store and emulator. */
  newProvider(overrides?: Partial<GoogleSettings>): GoogleProvider;
}

export const people = [
  ['name', 'age', 'member', 'joined'],
  ['Ann', 31, true, { date: '2021-03-01' }],
  ['Bob', 27, false, null],
  ['Joan', 45, true, { date: '2019-11-20' }],
];

/**
 * A Sheetport server that reaches a Google Sheets emulator through Google's own client libraries,
 * with a spreadsheet shared with its service account. Retries are quick, so tests stay short.
 */
export async function setup(
  t: TestContext,
  options: {
    rows?: unknown[][];
    credentials?: 'service-account' | 'oauth' | 'api-key';
    settings?: Partial<GoogleSettings>;
    share?: boolean;
    /** Options of the app, e.g. the read cache off for checks that must read past it. */
    app?: Partial<AppOptions>;
    wrapStore?: (store: SheetStore) => SheetStore;
    /** Asks the emulator's Drive for the spreadsheet's version before reading the tab. */
    drive?: boolean;
    /** Asks Drive for versions, as `drive` does: watching then probes, as a server's does. */
    probe?: boolean;
  } = {},
): Promise<Setup> {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const account = emulator.serviceAccount();
  const oauth = emulator.oauthClient();
  const credentials = {
    'service-account': JSON.stringify(account),
    oauth: JSON.stringify({
      type: 'authorized_user',
      client_id: oauth.clientId,
      client_secret: oauth.clientSecret,
      refresh_token: oauth.refreshToken,
    }),
    'api-key': undefined,
  }[options.credentials ?? 'service-account'];
  const spreadsheetId = emulator.createSpreadsheet({
    title: 'CRM',
    tabs: [
      { title: 'People', rows: (options.rows ?? people) as never },
      { title: 'Other', rows: [['x'], [1]] },
    ],
    sharedWith: options.share === false ? [] : [account.client_email, 'user@example.com'],
    public: options.credentials === 'api-key',
  });
  const settings: GoogleSettings = {
    credentials,
    apiKey: options.credentials === 'api-key' ? emulator.apiKey() : undefined,
    apiUrl: `${emulator.url}/`,
    ...((options.drive === true || options.probe === true) && { driveUrl: `${emulator.url}/` }),
    tokenUrl: emulator.tokenUrl,
    deadlineMs: 10_000,
    writesPerMinute: 1000,
    ...options.settings,
  };
  const newProvider = (overrides: Partial<GoogleSettings> = {}) => {
    const identity = googleIdentity(settings);
    assert.ok(identity !== null);
    return new GoogleProvider(identity, { ...settings, ...overrides }, { baseMs: 20, maxMs: 200 });
  };
  const google = newProvider();
  const extra = { ...(options.wrapStore && { wrapStore: options.wrapStore }) };
  const { url, store, env } = await build(t, options.app ?? {}, { google }, extra);
  return { emulator, url, spreadsheetId, store, env, google, newProvider };
}

export async function connect(
  { url, spreadsheetId }: Setup,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'crm',
      source: {
        provider: 'google',
        spreadsheetId: `https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit#gid=0`,
        tab: 'People',
      },
      ...extra,
    },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body as { id: string }).id;
}

/** The rows as the API serves them and as the spreadsheet holds them, side by side. */
export async function bothSides(setup: Setup, id: string) {
  const api = await call(`${setup.url}/api/v1/${id}`);
  const [header = [], ...rows] = setup.emulator.rows(setup.spreadsheetId, 'People');
  const sheet = rows.map((row) =>
    Object.fromEntries(
      header.map((column, i) => {
        const cell = row[i] ?? null;
        const value =
          typeof cell === 'object' && cell !== null && 'date' in cell ? cell.date : cell;
        return [String(column), value];
      }),
    ),
  );
  return { api: api.body, sheet };
}

const namesAndAges = [
  ['name', 'age'],
  ['Ann', 31],
  ['Kim', 40],
  ['Lee', 22],
  ['Joan', 45],
  ['Max', 50],
];

/**
 * A tab of five people by name and age, connected as a sheet: its copy is read now and trusted
 * for an hour, so that only the check before a push sees a person's edits. `emptyDeleteFails`
 * chooses the emulator's answer to a delete of developer metadata that matches nothing.
 */
export async function editedPeople(
  t: TestContext,
  settings: Partial<GoogleSettings>,
  emptyDeleteFails = false,
): Promise<{ google: Setup; id: string }> {
  const google = await setup(t, { rows: namesAndAges, settings });
  google.emulator.rules.emptyDeleteFails = emptyDeleteFails;
  const id = await connect(google, { freshnessSeconds: 3600 });
  return { google, id };
}

/**
 * The spreadsheet's rows as [name, age], after checking that the copy holds the same without
 * reading the tab again: a write planned again took the tab as Google applied the batch.
 */
export async function inStep(google: Setup, id: string): Promise<unknown[][]> {
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet, 'the copy Sheetport serves differs from the spreadsheet');
  return sheet.map((row) => [row.name, row.age]);
}

/**
 * Anchors every row of the People tab, and the row after, as a write that chose them would
 * have: for tests of a push's attempts, which then see no write of anchors before the batch.
 */
export function anchorEveryRow({ emulator, spreadsheetId }: Setup): void {
  const rows = emulator.rows(spreadsheetId, 'People').length;
  for (let row = 1; row <= rows; row++) {
    emulator.addRowMetadata(spreadsheetId, 'People', row, 'sheetport.row');
  }
}

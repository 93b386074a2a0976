import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AppOptions } from '../src/app.ts';
import { defaultLimits } from '../src/access/limits.ts';
import { googleIdentity } from '../src/providers/google/google-auth.ts';
import { GoogleProvider } from '../src/providers/google/google-provider.ts';
import { startGoogleSheetsEmulator, type TabInput } from './google-emulator/index.ts';
import { build, call } from './helpers/build.ts';

/** A server reaching an emulated spreadsheet "CRM" with these tabs, shared with it. */
async function setup(t: TestContext, tabs: TabInput[], options: Partial<AppOptions> = {}) {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const account = emulator.serviceAccount();
  const spreadsheetId = emulator.createSpreadsheet({
    title: 'CRM',
    tabs,
    sharedWith: [account.client_email],
  });
  const settings = {
    credentials: JSON.stringify(account),
    apiKey: undefined,
    apiUrl: `${emulator.url}/`,
    tokenUrl: emulator.tokenUrl,
    deadlineMs: 10_000,
    writesPerMinute: 1000,
  };
  const identity = googleIdentity(settings);
  assert.ok(identity !== null);
  const google = new GoogleProvider(identity, settings, { baseMs: 20, maxMs: 200 });
  const { url } = await build(t, options, { google });
  return { emulator, url, spreadsheetId };
}

const tabs: TabInput[] = [
  {
    title: 'People',
    rows: [
      ['name', 'age'],
      ['Ann', 31],
    ],
  },
  { title: 'Empty', rows: [] },
  {
    title: 'Notes',
    rows: [
      ['note', 'note'],
      ['x', 'y'],
    ],
  },
  {
    title: 'Budget',
    rows: [
      ['item', 'amount'],
      ['Rent', 1200],
      ['Food', 350.5],
    ],
  },
];

interface Described {
  id: string;
  name: string;
  rowCount: number;
  source: { provider: string; spreadsheetId: string; tab: string; tabId: number };
}

test('"tab":"*" connects every tab of a spreadsheet as a sheet of its own, naming the tabs skipped', async (t) => {
  const { emulator, url, spreadsheetId } = await setup(t, tabs);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId, tab: '*' } },
  });
  assert.equal(created.status, 201, created.text);
  const { sheets, skipped } = created.body as { sheets: Described[]; skipped: unknown[] };
  assert.deepEqual(
    sheets.map((sheet) => [sheet.name, sheet.source.tab, sheet.rowCount]),
    [
      ['CRM / People', 'People', 1],
      ['CRM / Budget', 'Budget', 2],
    ],
  );
  assert.deepEqual(skipped, [
    {
      tab: 'Empty',
      reason: 'The header row is not usable: A1 is empty: the first row must name the columns.',
    },
    {
      tab: 'Notes',
      reason: 'The header row is not usable: B1 repeats "note", already the name of A1.',
    },
  ]);
  const [people, budget] = sheets;
  assert.notEqual(people?.source.tabId, budget?.source.tabId);
  assert.deepEqual((await call(`${url}/api/v1/${budget?.id}`)).body, [
    { item: 'Rent', amount: 1200 },
    { item: 'Food', amount: 350.5 },
  ]);

  // Each is a mirrored sheet like any other: a write goes to its own tab.
  const added = await call(`${url}/api/v1/${people?.id}`, {
    method: 'POST',
    body: { name: 'Bob', age: 27 },
  });
  assert.equal(added.status, 201, added.text);
  assert.deepEqual(emulator.rows(spreadsheetId, 'People'), [
    ['name', 'age'],
    ['Ann', 31],
    ['Bob', 27],
  ]);
  assert.equal(emulator.rows(spreadsheetId, 'Budget').length, 3);
});

test('"tab":"*" with a name names the sheets "<name> / <tab>"', async (t) => {
  const { url, spreadsheetId } = await setup(t, tabs);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'crm', source: { provider: 'google', spreadsheetId, tab: '*' } },
  });
  assert.equal(created.status, 201, created.text);
  assert.deepEqual(
    (created.body as { sheets: Described[] }).sheets.map((sheet) => sheet.name),
    ['crm / People', 'crm / Budget'],
  );
});

test('"tab":"*" on a spreadsheet with no usable tab answers 400 and connects nothing', async (t) => {
  const { url, spreadsheetId } = await setup(t, tabs.slice(1, 3));
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId, tab: '*' } },
  });
  assert.equal(created.status, 400, created.text);
  const problem = created.body as { code: string; skipped: { tab: string }[] };
  assert.equal(problem.code, 'invalid-header');
  assert.deepEqual(
    problem.skipped.map((s) => s.tab),
    ['Empty', 'Notes'],
  );
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, []);
});

test('"tab":"*" where one tab is over a limit connects none of them', async (t) => {
  const wide = {
    title: 'Wide',
    rows: [
      ['a', 'b', 'c'],
      [1, 2, 3],
    ],
  };
  const { url, spreadsheetId } = await setup(t, [...tabs, wide], {
    limits: { ...defaultLimits, columnsPerSheet: 2 },
  });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId, tab: '*' } },
  });
  assert.equal(created.status, 400, created.text);
  assert.equal((created.body as { code: string }).code, 'limit-exceeded');
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, []);
});

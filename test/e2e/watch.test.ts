import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { call } from '../helpers/build.ts';
import { setup } from '../helpers/google.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const adminToken = 'console-watch-token-0123456789';
const headers = { authorization: `Bearer ${adminToken}` };

describe('console: a watched Google sheet', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test("a person's edit in Google shows up in the rows grid without a click, on a private sheet", async (t) => {
    const google = await setup(t, {
      app: { adminToken, watch: { intervalMs: 200, tickMs: 50, minReadGapMs: 200 } },
      probe: true,
    });
    const created = await call(`${google.url}/admin/v1/sheets`, {
      method: 'POST',
      headers,
      body: {
        name: 'crm',
        source: { provider: 'google', spreadsheetId: google.spreadsheetId, tab: 'People' },
        freshnessSeconds: 3600,
      },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body as { id: string }).id;
    const patched = await call(`${google.url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      headers,
      body: { access: 'private' },
    });
    assert.equal(patched.status, 200, patched.text);
    const page = await openConsole(t, browser, `${google.url}/#/sheets/${id}`);
    await page.getByLabel('Administrator token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'crm' }).waitFor();
    await page.getByRole('cell', { name: 'Bob', exact: true }).waitFor();

    // Nobody presses anything: the console's stream (opened with the token) makes the tab
    // watched, and the watcher's events make the grid read its rows again.
    google.emulator.editCell(google.spreadsheetId, 'People', 'A3', 'Robert');
    await page.getByRole('cell', { name: 'Robert', exact: true }).waitFor({ timeout: 10_000 });

    await page.goto(`${google.url}/#/sheets/${id}/settings`);
    await page.getByText('Watch the spreadsheet for changes').waitFor();
    await page.getByRole('radio', { name: /^Always/ }).check();
    await page.getByRole('button', { name: 'Save watching' }).click();
    await page.getByText(/^Watched:/).waitFor();
    const sheet = await call(`${google.url}/admin/v1/sheets/${id}`, { headers });
    assert.equal((sheet.body as { settings: { watch?: boolean } }).settings.watch, true);
  });
});

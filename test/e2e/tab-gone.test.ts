import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { call } from '../helpers/build.ts';
import { setup } from '../helpers/google.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

describe('console: a Google sheet whose tab is gone', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('the sheet and the list say the tab is gone, and the last rows still show', async (t) => {
    const google = await setup(t);
    const created = await call(`${google.url}/admin/v1/sheets`, {
      method: 'POST',
      body: {
        name: 'crm',
        source: { provider: 'google', spreadsheetId: google.spreadsheetId, tab: 'People' },
        freshnessSeconds: 3600,
      },
    });
    assert.equal(created.status, 201, created.text);
    const id = (created.body as { id: string }).id;
    google.emulator.deleteTab(google.spreadsheetId, 'People');
    const refreshed = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
    assert.equal(refreshed.status, 200, refreshed.text);
    const page = await openConsole(t, browser, `${google.url}/#/sheets/${id}`);
    await page.getByRole('heading', { level: 1, name: 'crm' }).waitFor();
    await page.getByRole('alert').filter({ hasText: 'is gone from its spreadsheet' }).waitFor();
    await page.getByRole('cell', { name: 'Bob', exact: true }).waitFor();
    await page.goto(`${google.url}/#/`);
    await page.getByRole('cell', { name: /\(tab gone\)/ }).waitFor();
  });
});

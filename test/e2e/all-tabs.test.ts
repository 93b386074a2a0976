import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { googleIdentity } from '../../src/providers/google/google-auth.ts';
import { GoogleProvider } from '../../src/providers/google/google-provider.ts';
import * as expected from '../fixtures/expected-rows.ts';
import { startGoogleSheetsEmulator } from '../google-emulator/index.ts';
import { build, call } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

async function sheetNames(url: string): Promise<string[]> {
  const { body } = await call(`${url}/admin/v1/sheets`);
  return (body as { name: string }[]).map((sheet) => sheet.name).sort();
}

describe('console: every tab at once', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('"All tabs" of a workbook makes a sheet of each, lists them, and names the tabs skipped', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new/upload`);
    await page.locator('#upload-file').setInputFiles(fixture('libreoffice.xlsx'));
    const tab = page.getByLabel('Worksheet');
    await tab.waitFor();
    assert.deepEqual(await tab.locator('option').allInnerTexts(), [
      'Times',
      'Kept',
      'Notes',
      'All tabs (a sheet each)',
    ]);
    await tab.selectOption({ label: 'All tabs (a sheet each)' });
    await page.getByText('Each sheet is named "<name> / <tab>".').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('lo');
    await page.getByRole('button', { name: 'Upload' }).click();

    const made = page.getByRole('status').filter({ hasText: 'Created 2 sheets' });
    await made.waitFor();
    assert.deepEqual(
      await made.getByRole('list', { name: 'Sheets created' }).innerText(),
      [
        `lo / Times (${expected.times.rows.length} rows)`,
        `lo / Kept (${expected.kept.rows.length} rows)`,
      ].join('\n'),
    );
    assert.deepEqual(
      await made.getByRole('list', { name: 'Tabs skipped' }).innerText(),
      `Notes: ${expected.notesReason}`,
    );
    assert.deepEqual(await sheetNames(url), ['lo / Kept', 'lo / Times']);

    await made.getByRole('link', { name: 'lo / Times' }).click();
    await page.getByRole('heading', { level: 1, name: 'lo / Times' }).waitFor();
    await page.getByRole('cell', { name: '09:30:00' }).waitFor();
  });

  test('"All tabs" of a Google spreadsheet connects each tab as a sheet', async (t) => {
    const emulator = await startGoogleSheetsEmulator();
    t.after(() => emulator.close());
    const account = emulator.serviceAccount();
    const spreadsheetId = emulator.createSpreadsheet({
      title: 'CRM',
      tabs: [
        { title: 'Leads', rows: [['company'], ['Acme']] },
        { title: 'Scratchpad', rows: [] },
        {
          title: 'People',
          rows: [
            ['name', 'age'],
            ['Ann', 31],
          ],
        },
      ],
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
    const { url } = await build(t, {}, { google: new GoogleProvider(identity, settings) });

    const page = await openConsole(t, browser, `${url}/#/new/google`);
    await page.getByLabel('Spreadsheet address or id').fill(spreadsheetId);
    await page.getByRole('button', { name: 'Find tabs' }).click();
    const tab = page.getByRole('combobox', { name: 'Tab' });
    await tab.waitFor();
    await tab.selectOption({ label: 'All tabs (a sheet each)' });
    await page.getByRole('button', { name: 'Connect' }).click();

    const made = page.getByRole('status').filter({ hasText: 'Created 2 sheets' });
    await made.waitFor();
    assert.equal(
      await made.getByRole('list', { name: 'Sheets created' }).innerText(),
      'CRM / Leads (1 row)\nCRM / People (1 row)',
    );
    assert.match(
      await made.getByRole('list', { name: 'Tabs skipped' }).innerText(),
      /^Scratchpad: The header row is not usable/,
    );
    assert.deepEqual(await sheetNames(url), ['CRM / Leads', 'CRM / People']);
  });
});

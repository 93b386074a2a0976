import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { googleIdentity } from '../../src/providers/google/google-auth.ts';
import { GoogleProvider } from '../../src/providers/google/google-provider.ts';
import { startGoogleSheetsEmulator } from '../google-emulator/index.ts';
import * as expected from '../fixtures/expected-rows.ts';
import { build, call } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

interface SheetInfo {
  id: string;
  name: string;
  columns: string[];
  rowCount: number;
  source: { provider: string; tab?: string };
}

async function sheetsOn(url: string, token?: string): Promise<SheetInfo[]> {
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  const { status, body } = await call(`${url}/admin/v1/sheets`, { headers });
  assert.equal(status, 200);
  return body as SheetInfo[];
}

describe('console: sheets list and new sheets', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('a sheet created from scratch appears in the list with its counts', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, url);
    await page.getByRole('heading', { level: 1, name: 'Sheets' }).waitFor();
    await page.getByText('No sheets yet.').waitFor();

    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'New sheet' })
      .click();
    await page.getByLabel('Name', { exact: true }).fill('contacts');
    await page.getByLabel('Columns').fill('name, email, age');
    await page.getByRole('button', { name: 'Create sheet' }).click();
    await page.getByRole('heading', { level: 1, name: 'contacts' }).waitFor();

    const [sheet] = await sheetsOn(url);
    assert.deepEqual(sheet?.columns, ['name', 'email', 'age']);
    assert.equal(sheet?.source.provider, 'scratch');
    assert.ok(page.url().endsWith(`#/sheets/${sheet?.id}`), 'the address names the sheet');

    await page.getByRole('link', { name: 'Sheets', exact: true }).click();
    const row = page.getByRole('row', { name: /contacts/ });
    await row.waitFor();
    assert.deepEqual(await row.locator('th, td').allInnerTexts(), [
      'contacts',
      sheet?.id,
      'Scratch',
      'Open',
      '3',
      '0',
      await row.locator('time').innerText(),
    ]);
  });

  test('a name in use is warned about as it is typed, and two sheets of one name are told apart in the list', async (t) => {
    const { url } = await build(t);
    const first = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'contacts', columns: ['name'] },
    });
    const { id } = first.body as { id: string };
    await call(`${url}/admin/v1/sheets/${id}`, { method: 'PATCH', body: { access: 'private' } });
    const page = await openConsole(t, browser, `${url}/#/new`);
    const name = page.getByLabel('Name', { exact: true });
    await name.fill('contacts');
    const warning = page.getByText('A sheet named “contacts” exists already');
    await warning.waitFor();
    assert.match(await warning.innerText(), new RegExp(`\\(${id}\\)`));
    await name.fill('contacts 2');
    await warning.waitFor({ state: 'detached' });
    // Made all the same: the list shows each one's id, source and access.
    await name.fill('contacts');
    await page.getByLabel('Columns').fill('name');
    await page.getByRole('button', { name: 'Create sheet' }).click();
    await page.getByRole('heading', { level: 1, name: 'contacts' }).waitFor();
    await page.getByRole('link', { name: 'Sheets', exact: true }).click();
    const rows = page.getByRole('row', { name: /contacts/ });
    await rows.nth(1).waitFor();
    const shown = await Promise.all(
      [0, 1].map(async (i) => (await rows.nth(i).locator('th, td').allInnerTexts()).slice(0, 4)),
    );
    const second = (await sheetsOn(url)).find((sheet) => sheet.id !== id);
    assert.deepEqual(
      shown.sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
      [
        ['contacts', id, 'Scratch', 'Private'],
        ['contacts', second?.id, 'Scratch', 'Open'],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    );
  });

  test('header problems of a new sheet are listed cell by cell, naming what was typed', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new`);
    await page.getByLabel('Name', { exact: true }).fill('broken');
    await page.getByLabel('Columns').fill('name, , name');
    await page.getByRole('button', { name: 'Create sheet' }).click();
    const cells = page.getByRole('list', { name: 'Cells to fix' }).getByRole('listitem');
    await cells.first().waitFor();
    const items = await cells.allInnerTexts();
    assert.equal(items.length, 2);
    assert.match(items[0] ?? '', /^B1 \(column 2, blank\) is empty/);
    assert.match(items[1] ?? '', /^C1 \("name"\) repeats "name"/);
    assert.deepEqual(await sheetsOn(url), [], 'no sheet was created');
  });

  test('an XLSX upload shows its tabs before sending, with progress, and imports the tab chosen', async (t) => {
    const adminToken = 'e2e-administrator-token-0123456789';
    const { url } = await build(t, { adminToken });
    const page = await openConsole(t, browser, `${url}/#/new`);
    await page.getByLabel('Administrator token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Upload a file' }).click();
    await page.locator('#upload-file').setInputFiles(fixture('workbook.xlsx'));
    const tab = page.getByLabel('Worksheet');
    await tab.waitFor();
    assert.deepEqual(await tab.locator('option').allInnerTexts(), [
      'Staff',
      'Budget',
      'All tabs (a sheet each)',
    ]);
    await tab.selectOption('Budget');
    await page.getByLabel('Name', { exact: true }).fill('budget');

    // Hold the upload at the server's door, to see the progress the page shows meanwhile.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/admin/v1/sheets', async (route) => {
      if (route.request().method() === 'POST') await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.locator('progress').waitFor();
    assert.match(await page.locator('.progress').innerText(), /Uploading… \d+%|Importing…/);
    release();

    await page.getByRole('heading', { level: 1, name: 'budget' }).waitFor();
    const [sheet] = await sheetsOn(url, adminToken);
    assert.equal(sheet?.source.tab, 'Budget');
    assert.deepEqual(sheet?.columns, ['item', 'amount', 'paid']);
  });

  test('a text file is read with the decimal mark chosen, as an upload with decimal="," is', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new/upload`);
    await page.locator('#upload-file').setInputFiles(fixture('prices-de.csv'));
    await page.getByLabel('Numbers in the file').selectOption(',');
    await page.getByLabel('Name', { exact: true }).fill('Preise');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'Preise' }).waitFor();
    const [sheet] = await sheetsOn(url);
    const { body } = await call(`${url}/api/v1/${sheet?.id}`);
    assert.deepEqual(body, expected.pricesDecimalComma.rows);
    // A workbook keeps its cells' types: no decimal mark is asked for.
    await page.goto(`${url}/#/new/upload`);
    await page.locator('#upload-file').setInputFiles(fixture('workbook.xlsx'));
    await page.getByLabel('Worksheet').waitFor();
    assert.equal(await page.getByLabel('Numbers in the file').count(), 0);
  });

  test('the upload form preselects the decimal mark the file shows, and the server reads it so, code columns as text', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new/upload`);
    const decimal = page.getByLabel('Numbers in the file');
    await page.locator('#upload-file').setInputFiles(fixture('european.csv'));
    await page.waitForFunction(
      () => (document.querySelector('#upload-decimal') as HTMLSelectElement | null)?.value === ',',
    );
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'european' }).waitFor();
    // A file whose numbers use the point, with a code column.
    await page.goto(`${url}/#/new/upload`);
    await page.locator('#upload-file').setInputFiles(fixture('skus.csv'));
    await page.getByText('skus.csv').waitFor();
    assert.equal(await decimal.inputValue(), '.');
    await page.getByRole('button', { name: 'Upload' }).click();
    await page.getByRole('heading', { level: 1, name: 'skus' }).waitFor();
    const sheets = await sheetsOn(url);
    const made = new Map(sheets.map((sheet) => [sheet.name, sheet]));
    const european = made.get('european') as SheetInfo & { source: { decimal?: string } };
    assert.equal(european.source.decimal, ',');
    assert.deepEqual((await call(`${url}/api/v1/${european.id}`)).body, expected.european.rows);
    const skus = made.get('skus') as SheetInfo & { settings: { textColumns?: string[] } };
    assert.deepEqual(skus.settings.textColumns, ['sku']);
    assert.deepEqual((await call(`${url}/api/v1/${skus.id}`)).body, expected.skus.rows);
  });

  test('a CSV dropped on the page with a bad header is refused, cell by cell', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new/upload`);
    const text = await readFile(fixture('bad-header-duplicate.csv'), 'utf8');
    const drop = await page.evaluateHandle((csv) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([csv], 'people.csv', { type: 'text/csv' }));
      return transfer;
    }, text);
    await page.locator('.dropzone').dispatchEvent('dragover', { dataTransfer: drop });
    await page.locator('.dropzone').dispatchEvent('drop', { dataTransfer: drop });
    await page.getByText('people.csv').waitFor();
    await page.getByRole('button', { name: 'Upload' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Invalid header\./);
    assert.deepEqual(await alert.getByRole('listitem').allInnerTexts(), [
      'C1 repeats "name", already the name of A1',
    ]);
    assert.deepEqual(await sheetsOn(url), []);
  });

  test('a Google spreadsheet is connected by its address, with the tab picked from its tabs', async (t) => {
    const emulator = await startGoogleSheetsEmulator();
    t.after(() => emulator.close());
    const account = emulator.serviceAccount();
    const spreadsheetId = emulator.createSpreadsheet({
      title: 'CRM',
      tabs: [
        { title: 'Leads', rows: [['company'], ['Acme']] },
        {
          title: 'People',
          rows: [
            ['name', 'age'],
            ['Ann', 31],
            ['Bob', 27],
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
    await page.getByText(account.client_email).waitFor();
    await page
      .getByLabel('Spreadsheet address or id')
      .fill(`https://docs.google.com/spreadsheets/d/${spreadsheetId}/edit#gid=0`);
    await page.getByRole('button', { name: 'Find tabs' }).click();
    const tab = page.getByRole('combobox', { name: 'Tab' });
    await tab.waitFor();
    assert.deepEqual(await tab.locator('option').allInnerTexts(), [
      'Leads',
      'People',
      'All tabs (a sheet each)',
    ]);
    assert.deepEqual(await sheetsOn(url), [], 'finding the tabs connects nothing');
    await tab.selectOption('People');
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('heading', { level: 1, name: 'People' }).waitFor();
    const [sheet] = await sheetsOn(url);
    assert.equal(sheet?.source.provider, 'google');
    assert.equal(sheet?.rowCount, 2);
    assert.match(await page.locator('.facts').innerText(), /Google: People/);

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Freshness window, in seconds').fill('30');
    await page.getByRole('button', { name: 'Save freshness' }).click();
    await page.getByText('Saved.').waitFor();
    const described = await call(`${url}/admin/v1/sheets/${sheet?.id}`);
    assert.equal(
      (described.body as { settings: { freshnessSeconds: number } }).settings.freshnessSeconds,
      30,
    );
  });

  test('without Google access configured, the Google form says what to set', async (t) => {
    const { url } = await build(t);
    const page = await openConsole(t, browser, `${url}/#/new/google`);
    await page.getByText('This server has no Google access yet.').waitFor();
    await page
      .getByLabel('Spreadsheet address or id')
      .fill('1abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG');
    await page.getByRole('button', { name: 'Connect' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /provider-not-configured/);
  });
});

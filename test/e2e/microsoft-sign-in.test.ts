import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { signInServer } from '../helpers/excel.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

/** A server with a Microsoft app (delegated only) registered in a Graph emulator. */
async function setup(t: TestContext) {
  const server = await signInServer(t);
  const signIn = server.microsoft.signIn;
  assert.ok(signIn != null);
  return { ...server, signIn };
}

describe('console: Excel workbooks and the Microsoft sign-in', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('"Sign in with Microsoft" shows the code and the page, and follows the sign-in to its end', async (t) => {
    const { emulator, url, store } = await setup(t);
    const page = await openConsole(t, browser, `${url}/#/new/excel`);
    await page.getByRole('heading', { level: 2, name: 'Connect an Excel workbook' }).waitFor();
    await page.getByText('Register Sheetport with Microsoft, and give it a workbook').click();
    await page.getByText('delegated Microsoft Graph permission').waitFor();

    await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
    const code = page.getByLabel('Code to enter');
    await code.waitFor();
    const userCode = await code.innerText();
    const link = page.getByRole('link', { name: 'https://microsoft.com/devicelogin' });
    assert.equal(await link.getAttribute('href'), 'https://microsoft.com/devicelogin');
    await page.getByText('Waiting for the sign-in').waitFor();

    emulator.approveDeviceCode(userCode, 'adele@contoso.com');
    await page.getByText(/^Signed in/).waitFor();
    assert.ok((await store.credentials.get('microsoft')) !== null);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with Microsoft' }).waitFor();
    assert.equal(await store.credentials.get('microsoft'), null);

    await page.getByRole('button', { name: 'Sign in with Microsoft' }).click();
    const second = await page.getByLabel('Code to enter').innerText();
    emulator.declineDeviceCode(second);
    await page.getByText('The sign-in was declined.').waitFor();
    await page.getByRole('button', { name: 'Sign in with Microsoft' }).waitFor();
  });

  test('the Excel form connects a worksheet by sharing link, as the signed-in user', async (t) => {
    const { emulator, url, tenant, signIn } = await setup(t);
    const ref = emulator.createWorkbook({
      tenant,
      name: 'Budget.xlsx',
      worksheets: [{ name: 'Sheet1', rows: [['name'], ['Ann']] }],
    });
    const code = await signIn.start();
    emulator.approveDeviceCode(code.userCode, 'adele@contoso.com');
    await signIn.completion();

    const page = await openConsole(t, browser, `${url}/#/new/excel`);
    await page.getByText(/^Signed in as adele@contoso.com|^Signed in/).waitFor();
    const connect = page.getByRole('button', { name: 'Connect' });
    assert.equal(await connect.isDisabled(), true, 'nothing to connect yet');
    const link = emulator.shareLink(ref);
    await page.getByLabel('Sharing link').fill(link);
    assert.equal(await page.getByLabel('Drive id').isDisabled(), true, 'a link or ids, not both');
    await page.getByLabel('Worksheet').fill('Sheet1');
    await page.getByLabel('Name', { exact: true }).fill('budget');
    const [sent] = await Promise.all([
      page.waitForRequest(
        (request) => request.method() === 'POST' && request.url().endsWith('/admin/v1/sheets'),
      ),
      connect.click(),
    ]);
    assert.deepEqual(sent.postDataJSON(), {
      name: 'budget',
      source: { provider: 'excel', link, tab: 'Sheet1' },
    });
    await page.getByRole('heading', { level: 1, name: 'budget' }).waitFor();
    await page.getByRole('cell', { name: 'Ann' }).waitFor();
  });
});

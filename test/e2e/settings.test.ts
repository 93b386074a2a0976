import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { AppOptions } from '../../src/app.ts';
import { build, call } from '../helpers/build.ts';
import { receiver } from '../helpers/webhook-receiver.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const adminToken = 'e2e-administrator-token-0123456789';
const asAdmin = { authorization: `Bearer ${adminToken}` };

/** A server (with the administrator token, if asked) holding one sheet of three rows. */
async function serverWithSheet(
  t: TestContext,
  options: { token?: boolean; app?: Partial<AppOptions> } = {},
) {
  const { url } = await build(t, { ...(options.token ? { adminToken } : {}), ...options.app });
  const headers = options.token ? asAdmin : {};
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: {
      name: 'people',
      columns: ['name', 'age'],
      rows: [
        { name: 'Ann', age: 31 },
        { name: 'Bob', age: 27 },
        { name: 'Joan', age: 45 },
      ],
    },
  });
  assert.equal(created.status, 201);
  const id = (created.body as { id: string }).id;
  const describe = async () =>
    (await call(`${url}/admin/v1/sheets/${id}`, { headers })).body as {
      name: string;
      rowCount: number;
      settings: { deleteEnabled: boolean; access?: string; allowedOrigins?: string[] };
    };
  return { url, id, describe };
}

async function signIn(page: Page, token: string) {
  await page.getByLabel('Administrator token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

describe('console: sign-in and settings', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('signs in with the administrator token, kept for the tab and never in the address', async (t) => {
    const { url } = await serverWithSheet(t, { token: true });
    const page = await openConsole(t, browser, url);
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();

    await signIn(page, 'not-the-token');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /needs the administrator token/);

    await signIn(page, adminToken);
    await page.getByRole('link', { name: 'people' }).waitFor();
    assert.ok(!page.url().includes(adminToken), 'the token is not in the address');
    const held = await page.evaluate(() => ({
      session: sessionStorage.getItem('sheetport.adminToken'),
      local: localStorage.length,
      cookies: document.cookie,
    }));
    assert.deepEqual(held, { session: adminToken, local: 0, cookies: '' });

    await page.reload();
    await page.getByRole('link', { name: 'people' }).waitFor();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
  });

  test('with DELETE switched off, the API refuses deletes and the grid shows why', async (t) => {
    const { url, id, describe } = await serverWithSheet(t);
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    const toggle = page.getByRole('switch', { name: 'DELETE on the row API' });
    assert.ok(await toggle.isChecked());
    await toggle.click();
    await page.getByText('Off: DELETE requests are refused').waitFor();
    assert.equal((await describe()).settings.deleteEnabled, false);

    const refused = await call(`${url}/api/v1/${id}?_id=0`, { method: 'DELETE' });
    assert.equal(refused.status, 405);
    assert.equal((refused.body as { code: string }).code, 'delete-disabled');

    await page.getByRole('link', { name: '← people' }).click();
    await page.getByText('DELETE is switched off for this sheet').waitFor();
    await page.getByRole('button', { name: 'Delete row 0' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    const alert = page.getByRole('row').getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /DELETE is switched off for sheet "people"/);
    assert.equal((await describe()).rowCount, 3, 'nothing was deleted');
  });

  test('a column declared text in the settings has its numbers made text, and the rows say so', async (t) => {
    const { url, id, describe } = await serverWithSheet(t);
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    const age = page.getByRole('group', { name: 'Text columns' }).getByRole('checkbox', {
      name: 'age',
    });
    assert.equal(await age.isChecked(), false);
    await age.check();
    await page.getByRole('button', { name: 'Save text columns' }).click();
    await page.getByText('Saved.', { exact: true }).waitFor();
    assert.deepEqual(((await describe()).settings as { textColumns?: string[] }).textColumns, [
      'age',
    ]);
    const rows = await call(`${url}/api/v1/${id}`);
    assert.deepEqual(
      (rows.body as { age: unknown }[]).map((row) => row.age),
      ['31', '27', '45'],
    );
  });

  test('an API key is created with scopes, shown once, works within them, and is revoked', async (t) => {
    const { url, id, describe } = await serverWithSheet(t, { token: true });
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    await signIn(page, adminToken);
    await page.getByRole('heading', { level: 1, name: 'Settings of people' }).waitFor();

    await page.getByRole('radio', { name: /Private/ }).check();
    await page.getByRole('button', { name: 'Save access' }).click();
    await page.getByText('Saved.').waitFor();
    assert.equal((await describe()).settings.access, 'private');
    assert.equal((await call(`${url}/api/v1/${id}`)).status, 401);

    await page.getByLabel('Key name').fill('website');
    const keys = page.getByRole('region', { name: 'API keys' });
    await keys.getByRole('checkbox', { name: /create/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('.key-secret code');
    await secret.waitFor();
    const key = await secret.innerText();
    await page.getByRole('button', { name: 'Copy the new API key' }).click();
    await page.getByText('Copied').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);

    const withKey = { 'x-api-key': key };
    assert.equal((await call(`${url}/api/v1/${id}`, { headers: withKey })).status, 200);
    const posted = await call(`${url}/api/v1/${id}`, {
      method: 'POST',
      headers: withKey,
      body: { name: 'Eva', age: 38 },
    });
    assert.equal(posted.status, 201);
    const deleted = await call(`${url}/api/v1/${id}?_id=0`, { method: 'DELETE', headers: withKey });
    assert.equal(deleted.status, 403, 'the key has no delete scope');

    const row = page.getByRole('row', { name: /website/ });
    assert.match(await row.innerText(), /read, create/);
    await page.getByRole('button', { name: 'Done' }).click();
    await secret.waitFor({ state: 'detached' });
    await page.reload();
    await row.waitFor();
    assert.equal(await page.getByText(key).count(), 0, 'the key is not shown again');

    await page.getByRole('button', { name: 'Revoke key website' }).click();
    await page.getByRole('button', { name: 'Yes, revoke' }).click();
    await page.getByText('No keys yet.').waitFor();
    assert.equal((await call(`${url}/api/v1/${id}`, { headers: withKey })).status, 401);
  });

  test('a webhook is added with its secret shown once, its deliveries listed, and removed', async (t) => {
    const { url, id } = await serverWithSheet(t, {
      app: { webhooks: { allowPrivate: true, pollMs: 50 } },
    });
    const hook = await receiver(t);
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    await page.getByRole('heading', { level: 1, name: 'Settings of people' }).waitFor();
    const panel = page.getByRole('region', { name: 'Webhooks' });
    await panel.getByText('No webhooks yet.').waitFor();

    await panel.getByLabel('Webhook URL').fill(hook.url);
    await panel.getByRole('checkbox', { name: 'rows.deleted' }).uncheck();
    await panel.getByRole('button', { name: 'Add webhook' }).click();
    const secret = panel.locator('.key-secret code');
    await secret.waitFor();
    assert.match(await secret.innerText(), /^whsec_[A-Za-z0-9+/]{43}=$/);
    await panel.getByText(hook.url).waitFor();
    assert.match(await panel.locator('.webhook').innerText(), /rows\.created, rows\.updated/);

    const posted = await call(`${url}/api/v1/${id}`, { method: 'POST', body: { name: 'Eva' } });
    assert.equal(posted.status, 201);
    await hook.until(1);
    await panel.getByRole('button', { name: 'Recent deliveries' }).click();
    const delivery = panel.getByRole('row', { name: /rows\.created/ });
    await delivery.waitFor();
    assert.match(await delivery.innerText(), /200/);

    await panel.getByRole('button', { name: 'Done' }).click();
    await secret.waitFor({ state: 'detached' });
    await page.reload();
    await panel.getByText(hook.url).waitFor();
    assert.equal(await page.locator('.key-secret').count(), 0, 'the secret is not shown again');
    await panel.getByRole('button', { name: `Remove webhook ${hook.url}` }).click();
    await panel.getByRole('button', { name: 'Yes, remove' }).click();
    await panel.getByText('No webhooks yet.').waitFor();
    assert.deepEqual((await call(`${url}/admin/v1/sheets/${id}/webhooks`)).body, []);
  });

  test('a key is rotated in the console: the new one is shown once, the old one works until the expiry listed', async (t) => {
    const { url, id } = await serverWithSheet(t, { token: true });
    const made = await call(`${url}/admin/v1/sheets/${id}/keys`, {
      method: 'POST',
      headers: asAdmin,
      body: { scopes: ['read'], name: 'website' },
    });
    const old = (made.body as { key: string }).key;
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    await signIn(page, adminToken);
    const keys = page.getByRole('region', { name: 'API keys' });
    const row = keys.getByRole('row', { name: /website/ });
    await row.waitFor();
    assert.match(await row.innerText(), /never/);

    await keys.getByRole('button', { name: 'Rotate key website' }).click();
    await keys.getByLabel('“website” goes on working for').selectOption({ label: 'an hour' });
    await keys.getByRole('button', { name: 'Yes, rotate' }).click();
    const secret = keys.locator('.key-secret code');
    await secret.waitFor();
    const key = await secret.innerText();
    assert.notEqual(key, old);
    await keys.getByRole('row', { name: /replaced/ }).waitFor();
    const listed = (await call(`${url}/admin/v1/sheets/${id}/keys`, { headers: asAdmin })).body as {
      expiresAt: string | null;
      rotatedTo: string | null;
    }[];
    const hour = Date.parse(listed[0]?.expiresAt ?? '') - Date.now();
    assert.ok(hour > 3_500_000 && hour <= 3_600_000, `the old key works ${hour} ms more`);
    for (const each of [old, key]) {
      const read = await call(`${url}/api/v1/${id}`, { headers: { 'x-api-key': each } });
      assert.equal(read.status, 200);
    }
    assert.equal(
      await keys.getByRole('button', { name: 'Rotate key website' }).count(),
      1,
      'only the new key offers a rotation',
    );
  });

  test('a webhook secret is rotated in the console: the new one is shown once, the old one signs until the time shown', async (t) => {
    const { url, id } = await serverWithSheet(t, {
      app: { webhooks: { allowPrivate: true, pollMs: 50 } },
    });
    const hook = await receiver(t);
    const made = await call(`${url}/admin/v1/sheets/${id}/webhooks`, {
      method: 'POST',
      body: { url: hook.url },
    });
    const old = (made.body as { secret: string }).secret;
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    const panel = page.getByRole('region', { name: 'Webhooks' });
    await panel.getByText(hook.url).waitFor();

    await panel.getByRole('button', { name: `Rotate the secret of webhook ${hook.url}` }).click();
    await panel.getByRole('button', { name: 'Yes, rotate' }).click();
    const secret = panel.locator('.key-secret code');
    await secret.waitFor();
    const fresh = await secret.innerText();
    assert.match(fresh, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.notEqual(fresh, old);
    await panel.getByText('The previous secret signs too until').waitFor();
  });

  test('renames the sheet, sets allowed origins, and removes it after a confirmation naming it', async (t) => {
    const { url, id, describe } = await serverWithSheet(t);
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}/settings`);
    await page.getByText('This server has no administrator token').waitFor();

    await page.getByLabel('Name', { exact: true }).fill('crm');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { level: 1, name: 'Settings of crm' }).waitFor();
    assert.equal((await describe()).name, 'crm');

    await page
      .getByLabel('Allowed origins')
      .fill('https://shop.example.com\n\nhttps://admin.example.com');
    await page.getByRole('button', { name: 'Save origins' }).click();
    const originsForm = page.locator('form', { has: page.getByLabel('Allowed origins') });
    await originsForm.getByText('Saved.').waitFor();
    assert.deepEqual((await describe()).settings.allowedOrigins, [
      'https://shop.example.com',
      'https://admin.example.com',
    ]);

    await page.getByLabel('Allowed origins').fill('not an origin');
    await page.getByRole('button', { name: 'Save origins' }).click();
    const problem = page.locator('#setting-origins-problem');
    await problem.waitFor();
    assert.match(await problem.innerText(), /invalid-body/);

    await page.getByRole('button', { name: 'Remove sheet…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove “crm”?' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /“crm” and its 3 rows/);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    assert.equal((await call(`${url}/admin/v1/sheets/${id}`)).status, 200);

    await page.getByRole('button', { name: 'Remove sheet…' }).click();
    await dialog.getByRole('button', { name: 'Remove “crm”' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sheets' }).waitFor();
    await page.getByText('No sheets yet.').waitFor();
    assert.equal((await call(`${url}/admin/v1/sheets/${id}`)).status, 404);
  });
});

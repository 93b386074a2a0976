import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { build, call } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const uuidKey = /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/;

describe('console: writes carry an Idempotency-Key', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('a row added whose answer is lost on the way is sent again with its key, and added once', async (t) => {
    const { url } = await build(t);
    const created = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'people', columns: ['name'], rows: [{ name: 'Ann' }] },
    });
    const id = (created.body as { id: string }).id;
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}`);
    await page.getByRole('heading', { level: 1, name: 'people' }).waitFor();

    const sent: { method: string; key: string | undefined }[] = [];
    let lost = false;
    await page.route(`**/api/v1/${id}**`, async (route) => {
      const request = route.request();
      if (request.method() === 'GET') return route.continue();
      sent.push({ method: request.method(), key: request.headers()['idempotency-key'] });
      if (!lost) {
        // The server applies the write; its answer never reaches the page.
        lost = true;
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    await page.getByLabel('name', { exact: true }).fill('Eva');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('Added the row “Eva” at the end.').waitFor();
    assert.deepEqual((await call(`${url}/api/v1/${id}`)).body, [{ name: 'Ann' }, { name: 'Eva' }]);
    assert.equal(sent.length, 2);
    assert.match(sent[0]?.key ?? '', uuidKey);
    assert.equal(sent[1]?.key, sent[0]?.key, 'the retry carries the same key');

    await page.getByRole('button', { name: 'Delete row 0' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Deleted the row “Ann”.').waitFor();
    assert.equal(sent.length, 3);
    assert.match(sent[2]?.key ?? '', uuidKey);
    assert.notEqual(sent[2]?.key, sent[0]?.key, 'another action, another key');
  });
});

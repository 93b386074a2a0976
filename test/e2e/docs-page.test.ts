import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { build } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

describe('/docs in a browser', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('Swagger UI renders under its policy, logging no refusal, and reads the API document', async (t) => {
    const { url } = await build(t);
    // Errors the page logs, a policy's refusals among them, fail the test.
    const page = await openConsole(t, browser, `${url}/docs/`);
    await page.getByText('Sheetport', { exact: false }).first().waitFor();
    await page.locator('.opblock').first().waitFor();
    assert.ok((await page.locator('.opblock').count()) > 10, 'the operations are listed');
  });
});

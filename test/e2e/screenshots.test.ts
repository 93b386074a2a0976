import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { seedDemoSheet } from '../../src/demo/demo-sheet.ts';
import { build, call } from '../helpers/build.ts';
import { desktop, launchChromium, openConsole, phone, skipReason } from './browser.ts';

/**
 * The main screens, on a desktop (1280x800) and on a phone (390x844). `npm run screenshots`
 * writes them to docs/screenshots for the README; in the test run they go to a temporary folder.
 */
const folder = process.env.SHEETPORT_SCREENSHOTS;

async function shoot(page: Page, dir: string, name: string, fullPage = false) {
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/** On a phone, nothing may push the page sideways: wide tables scroll inside their own box. */
async function assertNoSidewaysScroll(page: Page, screen: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= phone.width, `${screen} is ${width}px wide on a ${phone.width}px screen`);
}

describe('console: screenshots of the main screens', { skip: skipReason }, () => {
  let browser: Browser;
  let dir: string;
  before(async () => {
    browser = await launchChromium();
    dir = folder ?? (await mkdtemp(join(tmpdir(), 'sheetport-screens-')));
    await mkdir(dir, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    if (folder === undefined && dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  for (const viewport of [desktop, phone]) {
    const size = viewport === phone ? 'phone' : 'desktop';
    test(`sheets list, one sheet and its settings, on a ${size} screen`, async (t) => {
      const { url, store } = await build(t);
      const people = await seedDemoSheet(store);
      assert.ok(people !== null);
      const created = await call(`${url}/admin/v1/sheets`, {
        method: 'POST',
        body: { name: 'orders', columns: ['order', 'customer', 'total', 'shipped'] },
      });
      assert.equal(created.status, 201);
      await call(`${url}/admin/v1/sheets/${people.id}/keys`, {
        method: 'POST',
        body: { name: 'website', scopes: ['read', 'create'] },
      });

      const page = await openConsole(t, browser, url, viewport);
      await page.getByRole('link', { name: 'people' }).waitFor();
      if (size === 'phone') await assertNoSidewaysScroll(page, 'the sheets list');
      else await shoot(page, dir, 'sheets');

      await page.getByRole('link', { name: 'people' }).click();
      await page.getByRole('cell', { name: 'ann@example.com' }).waitFor();
      if (size === 'phone') await assertNoSidewaysScroll(page, 'the sheet');
      await shoot(page, dir, size === 'phone' ? 'sheet-phone' : 'sheet');

      await page.getByRole('button', { name: 'Add filter' }).click();
      await page.getByLabel('Column of filter 1').selectOption('city');
      await page.getByLabel('Value of filter 1').fill('Lisbon');
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.getByRole('cell', { name: 'bob@example.com' }).waitFor({ state: 'detached' });
      await page.getByText('Example requests').click();
      await page.getByText("curl -s 'http").first().waitFor();
      if (size === 'desktop') await shoot(page, dir, 'sheet-filtered', true);

      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('cell', { name: 'website' }).waitFor();
      if (size === 'phone') await assertNoSidewaysScroll(page, 'the settings');
      else await shoot(page, dir, 'settings', true);
    });
  }
});

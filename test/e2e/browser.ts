import { existsSync } from 'node:fs';
import type { TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';

/**
 * Debian's Chromium (a test tool's own browser download cannot work on these machines);
 * SHEETPORT_CHROMIUM points elsewhere.
 */
export const chromiumPath = process.env.SHEETPORT_CHROMIUM ?? '/usr/bin/chromium';

/** Why the browser tests cannot run here, or false when they can. */
export const skipReason: string | false = existsSync(chromiumPath)
  ? false
  : `${chromiumPath} is not installed, so the console's browser tests are skipped (install it with: apt-get update && apt-get install -y chromium; .ci/run does)`;

if (skipReason) console.log(`Browser tests SKIPPED: ${skipReason}`);

export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-gpu',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export const desktop = { width: 1280, height: 800 };
export const phone = { width: 390, height: 844 };

/**
 * Opens the console at `url` in a fresh browser context (its own sessionStorage), closed when
 * the test ends. Errors the page throws fail the test.
 */
export async function openConsole(
  t: TestContext,
  browser: Browser,
  url: string,
  viewport = desktop,
  /** Runs before the console loads, e.g. to route some of its requests. */
  beforeOpen?: (page: Page) => Promise<void>,
): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-GB', timezoneId: 'UTC' });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A failed request is also logged by the browser; the console shows those on the page.
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) {
      errors.push(message.text());
    }
  });
  t.after(async () => {
    await context.close();
    if (errors.length > 0) throw new Error(`The page logged errors:\n${errors.join('\n')}`);
  });
  await beforeOpen?.(page);
  await page.goto(url);
  return page;
}

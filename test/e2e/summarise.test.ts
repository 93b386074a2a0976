import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { build, call } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const sales = [
  { city: 'Lisbon', price: 10, kind: 'a' },
  { city: 'Porto', price: 4, kind: 'b' },
  { city: 'Lisbon', price: 30, kind: 'b' },
  { city: 'Faro', price: 'n/a', kind: 'a' },
];

describe('console: the summarise view', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('groups the rows the filter bar chooses, charts the first aggregate and shows the request', async (t) => {
    const { url } = await build(t);
    const created = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'sales', columns: ['city', 'price', 'kind'], rows: sales },
    });
    assert.equal(created.status, 201);
    const id = (created.body as { id: string }).id;
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}`);
    await page.getByRole('heading', { level: 1, name: 'sales' }).waitFor();

    const panel = page.getByRole('region', { name: 'Summarise' });
    await panel.getByLabel('Group by city').check();
    await panel.getByLabel('Function of aggregate 1').selectOption('sum');
    await panel.getByLabel('Column of aggregate 1').selectOption('price');
    await panel.getByRole('button', { name: 'Add aggregate' }).click();
    await panel.getByRole('button', { name: 'Summarise' }).click();

    const table = panel.locator('table.summary');
    await table.getByText('3 groups').waitFor();
    assert.deepEqual(await table.locator('thead th').allInnerTexts(), [
      'city',
      'sum(price)',
      'count()',
    ]);
    assert.deepEqual(await table.locator('tbody tr').allInnerTexts(), [
      'Lisbon\t40\t2',
      'Porto\t4\t1',
      'Faro\t\t1',
    ]);
    const chart = panel.getByRole('list', { name: 'sum(price) per group' });
    assert.deepEqual(await chart.locator('.bar-value').allInnerTexts(), ['40', '4', '—']);
    const widths = await chart
      .locator('.bar')
      .evaluateAll((bars) => bars.map((bar) => (bar as HTMLElement).style.width));
    assert.deepEqual(widths, ['100%', '10%', '0%']);

    const request = await panel.locator('.request code').innerText();
    assert.equal(request, `GET ${url}/api/v1/${id}?_group=city&_agg=sum%28price%29%2Ccount%28%29`);
    // The request shown is the one a client can send: it answers what the view shows.
    const again = await call(request.slice('GET '.length));
    assert.deepEqual(again.body, [
      { city: 'Lisbon', 'sum(price)': 40, 'count()': 2 },
      { city: 'Porto', 'sum(price)': 4, 'count()': 1 },
      { city: 'Faro', 'sum(price)': null, 'count()': 1 },
    ]);

    // With a filter in the bar, only the rows it chooses are summarised.
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Column of filter 1').selectOption('kind');
    await page.getByLabel('Value of filter 1').fill('b');
    await page.getByLabel('Value of filter 1').press('Enter');
    await panel.getByRole('button', { name: 'Summarise' }).click();
    await table.getByText('2 groups').waitFor();
    assert.deepEqual(await table.locator('tbody tr').allInnerTexts(), [
      'Porto\t4\t1',
      'Lisbon\t30\t1',
    ]);
  });

  test('a summary the API refuses shows its problem', async (t) => {
    const { url } = await build(t);
    const created = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'sales', columns: ['city', 'price', 'kind'], rows: sales },
    });
    const id = (created.body as { id: string }).id;
    const page = await openConsole(t, browser, `${url}/#/sheets/${id}`);
    const panel = page.getByRole('region', { name: 'Summarise' });
    await panel.getByLabel('Function of aggregate 1').selectOption('sum');
    // Two equal aggregates are asked once, which the API answers.
    await panel.getByRole('button', { name: 'Add aggregate' }).click();
    await panel.getByLabel('Function of aggregate 2').selectOption('sum');
    await panel.getByRole('button', { name: 'Summarise' }).click();
    await panel.locator('table.summary').getByText('1 group').waitFor();
    // The sheet is removed behind the console's back: the API's 404 is shown.
    assert.equal((await call(`${url}/admin/v1/sheets/${id}`, { method: 'DELETE' })).status, 204);
    await panel.getByRole('button', { name: 'Summarise' }).click();
    await panel.getByRole('alert').getByText('(sheet-not-found)').waitFor();
  });
});

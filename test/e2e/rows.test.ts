import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { build, call } from '../helpers/build.ts';
import { launchChromium, openConsole, skipReason } from './browser.ts';

const people = [
  { name: 'Ann', city: 'Lisbon', age: 31 },
  { name: 'Bob', city: 'Porto', age: 27 },
  { name: 'Joan', city: 'Lisbon', age: 45 },
  { name: 'Ivo', city: 'Faro', age: 52 },
];

const adminToken = 'e2e-administrator-token-0123456789';

/**
 * A server with one sheet, and the console open on it. With `token`, the server has an
 * administrator token and the sheet is private: the console reads and writes its rows with the
 * token it signed in with.
 */
async function sheetPage(
  t: TestContext,
  browser: Browser,
  { rows = people, token = false }: { rows?: object[]; token?: boolean } = {},
) {
  const { url } = await build(t, token ? { adminToken } : {});
  const headers: Record<string, string> = token ? { authorization: `Bearer ${adminToken}` } : {};
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: { name: 'people', columns: ['name', 'city', 'age'], rows },
  });
  assert.equal(created.status, 201);
  const id = (created.body as { id: string }).id;
  if (token) {
    const patched = await call(`${url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      headers,
      body: { access: 'private' },
    });
    assert.equal(patched.status, 200);
  }
  const page = await openConsole(t, browser, `${url}/#/sheets/${id}`);
  if (token) {
    await page.getByLabel('Administrator token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { level: 1, name: 'people' }).waitFor();
  const rowsNow = async () => (await call(`${url}/api/v1/${id}`, { headers })).body;
  return { url, id, page, rowsNow };
}

/** The grid's cells in the given column, once it has loaded and shows `count` rows. */
async function column(page: Page, index: number, count: number): Promise<string[]> {
  await page.locator('table.grid[aria-busy="false"]').waitFor();
  const rows = page.locator('table.grid tbody tr');
  await rows.nth(count - 1).waitFor();
  await rows.nth(count).waitFor({ state: 'detached' });
  return rows.locator(`td:nth-of-type(${index})`).allInnerTexts();
}

describe('console: the grid of rows', { skip: skipReason }, () => {
  let browser: Browser;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());

  test('filters typed into the bar show their query string and narrow the grid', async (t) => {
    const { page } = await sheetPage(t, browser);
    assert.deepEqual(await column(page, 1, 4), ['Ann', 'Bob', 'Joan', 'Ivo']);

    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Column of filter 1').selectOption('city');
    await page.getByLabel('Value of filter 1').fill('Lisbon');
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Column of filter 2').selectOption('age');
    await page.getByLabel('Comparison of filter 2').selectOption('gt');
    await page.getByLabel('Value of filter 2').fill('40');
    const query = page.locator('.query-string code');
    assert.equal(await query.innerText(), '?city=Lisbon&age=__gt(40)');

    await page.getByLabel('Value of filter 2').press('Enter');
    assert.deepEqual(await column(page, 1, 1), ['Joan']);
    await page.getByText('Example requests').click();
    await page.getByText(/curl -s '.*\?city=Lisbon&age=__gt\(40\)'/).waitFor();
    // A filtered row keeps its sheet position, and can be edited where it stands.
    assert.deepEqual(await page.locator('table.grid tbody th').allInnerTexts(), ['2']);
    await page.getByRole('button', { name: 'Edit row 2' }).waitFor();

    await page.getByRole('button', { name: 'Remove filter 2' }).click();
    await page.getByRole('button', { name: 'Apply' }).click();
    assert.deepEqual(await column(page, 1, 2), ['Ann', 'Joan']);

    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    assert.deepEqual(await column(page, 1, 4), ['Ann', 'Bob', 'Joan', 'Ivo']);
  });

  test('a filter the API refuses shows its problem above the grid', async (t) => {
    const { page } = await sheetPage(t, browser);
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Comparison of filter 1').selectOption('matches');
    await page.getByLabel('Value of filter 1').fill('__between(1,2)');
    await page.getByRole('button', { name: 'Apply' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /Unknown operator "__between"/);
  });

  test('clicking a column header sorts by it, then the other way, then not at all', async (t) => {
    const { page } = await sheetPage(t, browser);
    const age = page.getByRole('columnheader', { name: 'age' });
    await age.getByRole('button').click();
    await page.locator('th[aria-sort="ascending"]').waitFor();
    assert.deepEqual(await column(page, 3, 4), ['27', '31', '45', '52']);
    await age.getByRole('button').click();
    await page.locator('th[aria-sort="descending"]').waitFor();
    assert.deepEqual(await column(page, 3, 4), ['52', '45', '31', '27']);
    await age.getByRole('button').click();
    await page.locator('th[aria-sort]').waitFor({ state: 'detached' });
    assert.deepEqual(await column(page, 1, 4), ['Ann', 'Bob', 'Joan', 'Ivo']);
  });

  test('a row of a private sheet is added, edited in place with the keyboard, and deleted', async (t) => {
    const { page, rowsNow } = await sheetPage(t, browser, { token: true });

    await page.getByLabel('name', { exact: true }).fill('Eva');
    await page.getByLabel('city', { exact: true }).fill('Braga');
    await page.getByLabel('age', { exact: true }).fill('38');
    await page.getByRole('button', { name: 'Add row' }).click();
    await page.getByText('Row 4 added at the end.').waitFor();
    assert.deepEqual((await rowsNow()) as object[], [
      ...people,
      { name: 'Eva', city: 'Braga', age: 38 },
    ]);

    // Edit: Enter on the button opens the row, Tab moves between cells, Enter saves.
    await page.getByRole('button', { name: 'Edit row 1' }).focus();
    await page.keyboard.press('Enter');
    await page.locator('input[aria-label="name, row 1"]:focus').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('28');
    await page.keyboard.press('Enter');
    await page.getByText('Row 1 saved.').waitFor();
    assert.deepEqual(((await rowsNow()) as object[])[1], { name: 'Bob', city: 'Porto', age: 28 });

    // Escape leaves a row as it was.
    await page.getByRole('button', { name: 'Edit row 0' }).click();
    await page.getByLabel('name, row 0').fill('Anna');
    await page.keyboard.press('Escape');
    await page.locator('button[aria-label="Edit row 0"]:focus').waitFor();
    assert.equal(((await rowsNow()) as { name: string }[])[0]?.name, 'Ann');

    await page.getByRole('button', { name: 'Delete row 0' }).click();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Row 0 deleted.').waitFor();
    assert.deepEqual(
      ((await rowsNow()) as { name: string }[]).map((row) => row.name),
      ['Bob', 'Joan', 'Ivo', 'Eva'],
    );
    assert.deepEqual(await column(page, 1, 4), ['Bob', 'Joan', 'Ivo', 'Eva']);
    await page.getByText('4 rows', { exact: true }).waitFor();
  });

  test('pages through a long sheet, counting rows', async (t) => {
    const many = Array.from({ length: 30 }, (_, i) => ({ name: `n${i}`, city: 'X', age: i }));
    const { page } = await sheetPage(t, browser, { rows: many });
    await page.getByText('Rows 1–25 of 30').waitFor();
    assert.equal((await column(page, 1, 25))[24], 'n24');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.getByText('Rows 26–30 of 30').waitFor();
    assert.deepEqual(await column(page, 1, 5), ['n25', 'n26', 'n27', 'n28', 'n29']);
    assert.ok(await page.getByRole('button', { name: 'Next page' }).isDisabled());
    await page.getByRole('button', { name: 'Edit row 29' }).waitFor();
    await page.getByLabel('Rows per page').selectOption('50');
    await page.getByText('Rows 1–30 of 30').waitFor();
  });
});

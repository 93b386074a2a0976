import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import Excel from 'exceljs';
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
  {
    rows = people,
    columns = ['name', 'city', 'age'],
    token = false,
    live = true,
  }: {
    rows?: object[];
    columns?: string[];
    token?: boolean;
    /** false: the grid hears nothing of the sheet's events, and changes only when it acts. */
    live?: boolean;
  } = {},
) {
  const { url } = await build(t, token ? { adminToken } : {});
  const headers: Record<string, string> = token ? { authorization: `Bearer ${adminToken}` } : {};
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: { name: 'people', columns, rows },
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
  const page = await openConsole(t, browser, `${url}/#/sheets/${id}`, undefined, async (page) => {
    // The sheet's event stream answers 404, as for a caller who may not follow it.
    if (!live) await page.route('**/events', (route) => route.fulfill({ status: 404 }));
  });
  if (token) {
    await page.getByLabel('Administrator token').fill(adminToken);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await page.getByRole('heading', { level: 1, name: 'people' }).waitFor();
  const rowsNow = async () => (await call(`${url}/api/v1/${id}`, { headers })).body;
  return { url, id, page, rowsNow };
}

const rowsNowNames = (rows: unknown) => (rows as { name: string }[]).map((row) => row.name);

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

  test("the endpoints panel links the sheet's typed OpenAPI document", async (t) => {
    const { url, id, page } = await sheetPage(t, browser);
    const link = page.getByRole('link', { name: `${url}/api/v1/${id}/openapi.json` });
    const document = await call((await link.getAttribute('href')) ?? '');
    assert.equal(document.status, 200);
    const row = (document.body as { components: { schemas: { Row: { required: string[] } } } })
      .components.schemas.Row;
    assert.deepEqual(row.required, ['name', 'city', 'age']);
  });

  test('the "Add a row" example sends a row of the sheet, numbers as numbers, and wraps inside its panel', async (t) => {
    // A long value makes a line longer than the panel is wide.
    const city = `Lisbon ${'and its suburbs '.repeat(20)}`.trim();
    const { page } = await sheetPage(t, browser, { rows: [{ name: 'Ann', city, age: 31 }] });
    await page.getByText('Example requests').click();
    const example = page.locator('figure.example', { hasText: 'Add a row' }).locator('pre');
    await example.waitFor();
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll('figure.example pre')).some((pre) =>
        /"age":\d/.test(pre.textContent ?? ''),
      ),
    );
    const text = await example.innerText();
    const body = /-d '(.*)'/s.exec(text)?.[1] ?? '';
    const sent = JSON.parse(body.replace(/\s*\n\s*/g, '')) as Record<string, unknown>;
    assert.equal(typeof sent.age, 'number', text);
    assert.equal(typeof sent.name, 'string', text);
    const fits = await example.evaluate((pre) => {
      const panel = pre.closest('.panel') as HTMLElement;
      return pre.scrollWidth <= pre.clientWidth && panel.scrollWidth <= panel.clientWidth;
    });
    assert.ok(fits, 'the example fits its panel');
  });

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
    await page.getByText('Added the row “Eva, Braga” at the end.').waitFor();
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
    await page.getByText('Saved the row “Bob, Porto”.').waitFor();
    assert.deepEqual(((await rowsNow()) as object[])[1], { name: 'Bob', city: 'Porto', age: 28 });

    // Escape leaves a row as it was.
    await page.getByRole('button', { name: 'Edit row 0' }).click();
    await page.getByLabel('name, row 0').fill('Anna');
    await page.keyboard.press('Escape');
    await page.locator('button[aria-label="Edit row 0"]:focus').waitFor();
    assert.equal(((await rowsNow()) as { name: string }[])[0]?.name, 'Ann');

    await page.getByRole('button', { name: 'Delete row 0' }).click();
    await page.getByText('Delete the row “Ann, Lisbon”?').waitFor();
    await page.getByRole('button', { name: 'Yes, delete' }).click();
    await page.getByText('Deleted the row “Ann, Lisbon”.').waitFor();
    assert.deepEqual(
      ((await rowsNow()) as { name: string }[]).map((row) => row.name),
      ['Bob', 'Joan', 'Ivo', 'Eva'],
    );
    assert.deepEqual(await column(page, 1, 4), ['Bob', 'Joan', 'Ivo', 'Eva']);
    await page.getByText('4 rows', { exact: true }).waitFor();
  });

  test('an edit made after rows moved behind the grid lands on the row shown, and one made after that row changed or went changes nothing', async (t) => {
    // Without the event stream, which would read the rows again before the edit could meet them.
    const { url, id, page, rowsNow } = await sheetPage(t, browser, { live: false });
    assert.deepEqual(await column(page, 1, 4), ['Ann', 'Bob', 'Joan', 'Ivo']);
    // Someone else deletes Ann: Bob is row 0 now, and the grid still shows him as row 1.
    const enable = await call(`${url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      body: { deleteEnabled: true },
    });
    assert.equal(enable.status, 200, enable.text);
    const deleted = await call(`${url}/api/v1/${id}?_id=0`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);

    // The grid writes by the row's key, which moved with Bob: the edit lands on Bob.
    await page.getByRole('button', { name: 'Edit row 1' }).click();
    await page.getByLabel('city, row 1').fill('Braga');
    await page.keyboard.press('Enter');
    await page.getByText('Saved the row “Bob, Braga”.').waitFor();
    assert.deepEqual(rowsNowNames(await rowsNow()), ['Bob', 'Joan', 'Ivo']);
    assert.deepEqual(((await rowsNow()) as object[])[0], { name: 'Bob', city: 'Braga', age: 27 });
    // The save reads the rows again: Joan is row 1 once the grid shows them.
    assert.deepEqual(await column(page, 1, 3), ['Bob', 'Joan', 'Ivo']);

    // Someone changes Joan while her edit is open: the save is refused, and the grid says so.
    await page.getByRole('button', { name: 'Edit row 1' }).click();
    await page.getByLabel('age, row 1').fill('46');
    const patched = await call(`${url}/api/v1/${id}?_id=1`, { method: 'PATCH', body: { age: 53 } });
    assert.equal(patched.status, 200, patched.text);
    await page.keyboard.press('Enter');
    await page
      .getByText(/Nothing was changed: someone changed the row “Joan, Lisbon” since you opened it/)
      .waitFor();
    assert.deepEqual(((await rowsNow()) as object[])[1], { name: 'Joan', city: 'Lisbon', age: 53 });
    assert.deepEqual(await column(page, 3, 3), ['27', '53', '52']);

    // Someone deletes Ivo behind the grid: deleting him from the grid finds him gone.
    const gone = await call(`${url}/api/v1/${id}?_id=2`, { method: 'DELETE' });
    assert.equal(gone.status, 200, gone.text);
    await page.getByRole('button', { name: 'Delete row 2' }).click();
    await page
      .getByText(/Nothing was changed: the row “Ivo, Faro” was deleted by someone else/)
      .waitFor();
    assert.deepEqual(rowsNowNames(await rowsNow()), ['Bob', 'Joan']);
    assert.deepEqual(await column(page, 1, 2), ['Bob', 'Joan']);
  });

  test('an edit in progress stays open on its row while rows above it are deleted and added', async (t) => {
    const { url, id, page, rowsNow } = await sheetPage(t, browser);
    const enable = await call(`${url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      body: { deleteEnabled: true },
    });
    assert.equal(enable.status, 200, enable.text);
    await page.getByRole('button', { name: 'Edit row 2' }).click();
    await page.getByLabel('city, row 2').fill('Coimbra');

    // Ann goes: the stream tells the grid, which reads again, and Joan is row 1 now.
    const deleted = await call(`${url}/api/v1/${id}?_id=0`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    await page.locator('table.grid tbody tr.active th', { hasText: /^1$/ }).waitFor();
    assert.equal(await page.getByLabel('city, row 1').inputValue(), 'Coimbra');
    assert.equal(await page.getByLabel('name, row 1').inputValue(), 'Joan');

    await page.getByLabel('city, row 1').press('Enter');
    await page.getByText('Saved the row “Joan, Coimbra”.').waitFor();
    assert.deepEqual(rowsNowNames(await rowsNow()), ['Bob', 'Joan', 'Ivo']);
    assert.deepEqual(((await rowsNow()) as object[])[1], {
      name: 'Joan',
      city: 'Coimbra',
      age: 45,
    });
  });

  test("a sheet with a column named _key is edited by position, guarded by the sheet's ETag", async (t) => {
    const { url, id, page, rowsNow } = await sheetPage(t, browser, {
      live: false,
      rows: [
        { name: 'Ann', city: 'Lisbon', age: 31 },
        { name: 'Bob', city: 'Porto', age: 27 },
      ],
      columns: ['name', 'city', 'age', '_key'],
    });
    await page.getByRole('button', { name: 'Edit row 1' }).click();
    await page.getByLabel('city, row 1').fill('Braga');
    await page.keyboard.press('Enter');
    await page.getByText('Saved the row “Bob, Braga”.').waitFor();
    assert.equal(((await rowsNow()) as { city: string }[])[1]?.city, 'Braga');
    // The grid has read the rows again (and their ETag) before anyone else writes.
    await page.locator('table.grid tbody tr').nth(1).getByRole('cell', { name: 'Braga' }).waitFor();
    assert.deepEqual(await column(page, 2, 2), ['Lisbon', 'Braga']);

    const added = await call(`${url}/api/v1/${id}`, { method: 'POST', body: { name: 'Eva' } });
    assert.equal(added.status, 201, added.text);
    await page.getByRole('button', { name: 'Edit row 0' }).click();
    await page.getByLabel('city, row 0').fill('Faro');
    await page.keyboard.press('Enter');
    await page
      .getByText(/Nothing was changed: the sheet changed since these rows were read/)
      .waitFor();
    assert.equal(((await rowsNow()) as { city: string }[])[0]?.city, 'Lisbon');
  });

  test('Download CSV and Download XLSX save the rows the filters choose', async (t) => {
    const { url, id, page } = await sheetPage(t, browser, { token: true });
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.getByLabel('Column of filter 1').selectOption('city');
    await page.getByLabel('Value of filter 1').fill('Lisbon');
    await page.getByRole('button', { name: 'Apply' }).click();
    assert.deepEqual(await column(page, 1, 2), ['Ann', 'Joan']);

    const [csv] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    assert.equal(csv.suggestedFilename(), 'people.csv');
    const csvText = await readFile(await csv.path(), 'utf8');
    const api = await call(`${url}/api/v1/${id}?city=Lisbon`, {
      headers: { accept: 'text/csv', authorization: `Bearer ${adminToken}` },
    });
    assert.equal(csvText, api.text);
    assert.equal(csvText, 'name,city,age\nAnn,Lisbon,31\nJoan,Lisbon,45\n');

    const [xlsx] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download XLSX' }).click(),
    ]);
    assert.equal(xlsx.suggestedFilename(), 'people.xlsx');
    const book = new Excel.Workbook();
    await book.xlsx.readFile(await xlsx.path());
    const values: unknown[][] = [];
    book.worksheets[0]?.eachRow((row) => values.push([1, 2, 3].map((c) => row.getCell(c).value)));
    assert.deepEqual(values, [
      ['name', 'city', 'age'],
      ['Ann', 'Lisbon', 31],
      ['Joan', 'Lisbon', 45],
    ]);
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

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import * as expected from './fixtures/expected-rows.ts';
import type { ExpectedFile } from './fixtures/expected-rows.ts';
import { call } from './helpers/build.ts';
import { runCli } from './helpers/cli.ts';
import { startServer } from './helpers/server-process.ts';
import { storeSettings } from './helpers/stores.ts';

const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

/** Runs `sheetport import` as a user would, into the store, and answers what it printed. */
function sheetportImport(store: Record<string, string>, args: string[]) {
  return runCli(['import', ...args], store);
}

/** A fresh store of the suite's backend (see stores.ts), as settings for `sheetport`. */
async function freshStore(t: TestContext): Promise<Record<string, string>> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-cli-import-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return storeSettings(t, dir);
}

/** Serves the store, once the imports are done, to read the sheets back. */
async function serveData(t: TestContext, store: Record<string, string>): Promise<string> {
  const kills: (() => Promise<void>)[] = [];
  t.after(() => Promise.all(kills.map((kill) => kill())));
  const { url } = await startServer(store, (kill) => kills.push(kill));
  return url;
}

async function assertSheet(url: string, id: string, want: ExpectedFile): Promise<void> {
  const sheet = await call(`${url}/admin/v1/sheets/${id}`);
  const { columns, source } = sheet.body as { columns: string[]; source: Record<string, string> };
  assert.deepEqual(columns, want.columns);
  assert.equal(source.delimiter, want.delimiter);
  assert.equal(source.encoding, want.encoding);
  if (want.decimal !== undefined) assert.equal(source.decimal, want.decimal);
  assert.deepEqual((await call(`${url}/api/v1/${id}`)).body, want.rows);
}

test('`sheetport import` takes --delimiter, --encoding and --decimal as the upload takes its parts', async (t) => {
  const store = await freshStore(t);
  const table: [string, string[], ExpectedFile][] = [
    ['names.txt', ['--delimiter', '\t'], expected.namesOneColumn],
    ['names.txt', [], expected.namesDetected],
    ['iso-8859-15.csv', ['--encoding', 'iso-8859-15'], expected.iso885915],
    ['iso-8859-15.csv', [], expected.iso885915AsWindows1252],
    ['excel-de.csv', ['--decimal', ','], expected.excelGermanDecimalComma],
    ['excel-de.csv', ['--decimal', '.'], expected.excelGerman],
    // The same rules as an upload: the decimal mark and the code columns decided from the file.
    ['excel-de.csv', [], expected.excelGermanDecimalComma],
    ['european.csv', [], expected.european],
    ['skus.csv', [], expected.skus],
    // The same rule as an upload: amounts with trailing zeros are numbers, codes stay text.
    ['prices.csv', [], expected.prices],
    ['prices-de.csv', ['--decimal', ','], expected.pricesDecimalComma],
    ['excel-unicode-text.txt', [], expected.excelUnicodeText],
    ['excel-windows-1252.csv', ['--encoding', 'windows-1252'], expected.excelWindows1252],
  ];
  const ids: string[] = [];
  for (const [file, options, want] of table) {
    const run = await sheetportImport(store, [fixture(file), ...options]);
    assert.equal(run.code, 0, `${file} ${options.join(' ')}: ${run.stderr}`);
    const printed = JSON.parse(run.stdout) as { id: string; rowCount: number };
    assert.equal(printed.rowCount, want.rows.length);
    ids.push(printed.id);
  }
  const url = await serveData(t, store);
  for (const [i, [file, options, want]] of table.entries()) {
    await t.test(`${file} ${options.join(' ')}`, () => assertSheet(url, ids[i] ?? '', want));
  }
});

test('`sheetport import` refuses a bad option, or bytes the named encoding cannot read, and imports nothing', async (t) => {
  const store = await freshStore(t);
  const table: [string, string[], RegExp][] = [
    ['names.txt', ['--delimiter', 'ab'], /delimiter "ab" is not one character/],
    ['names.txt', ['--encoding', 'klingon'], /encoding "klingon" is not one this server knows/],
    ['names.txt', ['--decimal', ';'], /decimal mark ";" is neither/],
    ['excel-windows-1252.csv', ['--encoding', 'utf-8'], /^sheetport: Line 2 of the file/m],
    ['libreoffice.xlsx', ['--decimal', ','], /apply to CSV files only/],
  ];
  for (const [file, options, message] of table) {
    const run = await sheetportImport(store, [fixture(file), ...options]);
    assert.equal(run.code, 1, `${file} ${options.join(' ')}`);
    assert.match(run.stderr, message);
    assert.equal(run.stdout, '');
  }
  const url = await serveData(t, store);
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, []);
});

test("`sheetport import --tab '*'` imports every worksheet and prints the sheets and the tabs skipped", async (t) => {
  const store = await freshStore(t);
  const run = await sheetportImport(store, [fixture('libreoffice.xlsx'), '--tab', '*']);
  assert.equal(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as {
    sheets: { id: string; name: string; rowCount: number }[];
    skipped: unknown[];
  };
  assert.deepEqual(
    printed.sheets.map((sheet) => [sheet.name, sheet.rowCount]),
    [
      ['libreoffice / Times', expected.times.rows.length],
      ['libreoffice / Kept', expected.kept.rows.length],
    ],
  );
  assert.deepEqual(printed.skipped, [{ tab: 'Notes', reason: expected.notesReason }]);
  const url = await serveData(t, store);
  assert.deepEqual(
    (await call(`${url}/api/v1/${printed.sheets[0]?.id}`)).body,
    expected.times.rows,
  );
});

test('`sheetport import` ends each progress message with a line break when its output is no terminal', async (t) => {
  const store = await freshStore(t);
  const run = await sheetportImport(store, [fixture('skus.csv')]);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.stderr, 'read 3 rows\nimported 3 rows\n');
  const printed = JSON.parse(run.stdout) as { decimal?: string; textColumns?: string[] };
  assert.deepEqual([printed.decimal, printed.textColumns], ['.', ['sku']]);
});

test('`sheetport import` refuses, saying why, a data directory a running server holds, and imports once it stops', async (t) => {
  const store = await freshStore(t);
  const kills: (() => Promise<void>)[] = [];
  t.after(() => Promise.all(kills.map((kill) => kill())));
  const server = await startServer(store, (kill) => kills.push(kill));
  const beside = await sheetportImport(store, [fixture('skus.csv')]);
  const listed = async () =>
    ((await call(`${server.url}/admin/v1/sheets`)).body as { name: string }[]).map((s) => s.name);
  if (store.SHEETPORT_DATABASE_URL !== undefined) {
    // Servers sharing PostgreSQL see every write: an import may run beside them.
    assert.equal(beside.code, 0, beside.stderr);
    assert.deepEqual(await listed(), ['skus']);
    return;
  }
  assert.equal(beside.code, 1);
  assert.match(
    beside.stderr,
    /^sheetport: a server \(process \d+ on .+\) is running on the data directory .+; stop it first, or upload the file to it/,
  );
  assert.deepEqual(await listed(), []);
  // Stopped as a person at its terminal stops it, the server gives up its hold.
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGINT');
  await exited;
  const after = await sheetportImport(store, [fixture('skus.csv')]);
  assert.equal(after.code, 0, after.stderr);
});

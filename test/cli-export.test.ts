import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import Excel from 'exceljs';
import { call } from './helpers/build.ts';
import { runCli } from './helpers/cli.ts';
import { startServer } from './helpers/server-process.ts';
import { backend, storeSettings } from './helpers/stores.ts';

async function scratch(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-cli-export-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A server process over `store`, killed when the test ends. */
async function serve(t: TestContext, store: Record<string, string>): Promise<string> {
  const kills: (() => Promise<void>)[] = [];
  t.after(() => Promise.all(kills.map((kill) => kill())));
  return (await startServer(store, (kill) => kills.push(kill))).url;
}

async function createSheet(url: string, rows: unknown[]): Promise<string> {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'Orders', columns: ['item', 'qty', 'paid'], rows },
  });
  assert.equal(created.status, 201, created.text);
  return (created.body as { id: string }).id;
}

test('`sheetport export` writes a sheet as CSV and as XLSX, as the API answers them, while the server runs', async (t) => {
  const dir = await scratch(t);
  const env = await storeSettings(t, dir);
  const url = await serve(t, env);
  const rows = [
    { item: 'pen', qty: 3, paid: true },
    { item: '=SUM(A1)', qty: 1.5, paid: false },
    { item: 'ink, blue', qty: null, paid: true },
  ];
  const id = await createSheet(url, rows);

  const csvFile = join(dir, 'orders.csv');
  const csv = await runCli(['export', id, csvFile], env);
  assert.equal(csv.code, 0, csv.stderr);
  assert.match(csv.stderr, /exported 3 rows/);
  const api = await call(`${url}/api/v1/${id}`, { headers: { accept: 'text/csv' } });
  assert.equal(await readFile(csvFile, 'utf8'), api.text);

  const xlsxFile = join(dir, 'orders.xlsx');
  const xlsx = await runCli(['export', id, xlsxFile], env);
  assert.equal(xlsx.code, 0, xlsx.stderr);
  const book = new Excel.Workbook();
  await book.xlsx.readFile(xlsxFile);
  const values: unknown[][] = [];
  book.worksheets[0]?.eachRow({ includeEmpty: true }, (row) =>
    values.push([1, 2, 3].map((c) => row.getCell(c).value ?? null)),
  );
  assert.deepEqual(values, [
    ['item', 'qty', 'paid'],
    ['pen', 3, true],
    ['=SUM(A1)', 1.5, false],
    ['ink, blue', null, true],
  ]);
});

test('`sheetport export` refuses an unknown sheet and a file type it cannot write, writing nothing', async (t) => {
  const dir = await scratch(t);
  const env = await storeSettings(t, dir);
  const unknown = await runCli(['export', 'nosuchsheet', join(dir, 'x.csv')], env);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /No sheet with id "nosuchsheet"/);
  // Sheet ids are base64url: one may begin with "-", and is still an id, not an option.
  const dashed = await runCli(['export', '-sNoSuchSheet', join(dir, 'x.csv')], env);
  assert.equal(dashed.code, 1);
  assert.match(dashed.stderr, /No sheet with id "-sNoSuchSheet"/);
  const url = await serve(t, env);
  const id = await createSheet(url, [{ item: 'pen', qty: 1, paid: true }]);
  const wrongType = await runCli(['export', id, join(dir, 'x.json')], env);
  assert.equal(wrongType.code, 1);
  assert.match(wrongType.stderr, /\.csv or \.xlsx/);
  await assert.rejects(readFile(join(dir, 'x.json')), { code: 'ENOENT' });
});

// On PostgreSQL, `sheetport backup` refuses and points to pg_dump: tested below on either backend.
test(
  '`sheetport backup` copies the store consistently while the server writes to it',
  { skip: backend === 'postgres' && 'a backup of SQLite only' },
  async (t) => {
    const dir = await scratch(t);
    const url = await serve(t, { SHEETPORT_DATA_DIR: dir });
    const id = await createSheet(url, []);
    // Rows go in one after another, so any consistent copy holds the first n of them, in order.
    let written = 0;
    let writing = true;
    /** The key each POST answered, by the row's qty. */
    const keys: string[] = [];
    const writer = (async () => {
      while (writing) {
        const posted = await call(`${url}/api/v1/${id}`, {
          method: 'POST',
          body: { item: `row ${written}`, qty: written, paid: false },
        });
        assert.equal(posted.status, 201, posted.text);
        keys.push(...(posted.body as { keys: string[] }).keys);
        written++;
      }
    })();
    while (written < 20) await new Promise((resolve) => setTimeout(resolve, 5));
    const backupFile = join(dir, 'copy.db');
    const backup = await runCli(['backup', backupFile], { SHEETPORT_DATA_DIR: dir });
    const writtenAfterBackup = written;
    writing = false;
    await writer;
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stderr, /copied .*sheetport\.db to .*copy\.db/);

    const copy = new Database(backupFile, { readonly: true });
    assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
    copy.close();

    // Restored as the README says: the copy becomes sheetport.db of a data directory.
    const restored = await scratch(t);
    await copyFile(backupFile, join(restored, 'sheetport.db'));
    const restoredUrl = await serve(t, { SHEETPORT_DATA_DIR: restored });
    const rows = (await call(`${restoredUrl}/api/v1/${id}?_with_key=true`)).body as {
      qty: number;
      _key: string;
    }[];
    assert.ok(rows.length >= 20 && rows.length <= writtenAfterBackup, `${rows.length} rows`);
    assert.deepEqual(
      rows.map((row) => row.qty),
      rows.map((_, i) => i),
    );
    // The restored rows keep the keys their writes answered, and a new row gets one never given.
    assert.deepEqual(
      rows.map((row) => row._key),
      keys.slice(0, rows.length),
    );
    const next = await call(`${restoredUrl}/api/v1/${id}`, { method: 'POST', body: { item: 'x' } });
    const [made] = (next.body as { keys: string[] }).keys;
    assert.ok(!rows.some((row) => row._key === made), `${made} was given before`);
  },
);

test('`sheetport backup` on PostgreSQL points to pg_dump and writes nothing', async (t) => {
  const dir = await scratch(t);
  const file = join(dir, 'copy.db');
  const run = await runCli(['backup', file], {
    SHEETPORT_DATA_DIR: dir,
    SHEETPORT_DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /pg_dump/);
  await assert.rejects(readFile(file), { code: 'ENOENT' });
});

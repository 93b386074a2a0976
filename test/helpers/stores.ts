import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import pg from 'pg';
import { openPostgresStore, openSqliteStore } from '../../src/store/open-store.ts';
import type { RowStoreOptions } from '../../src/store/row-store.ts';
import type { Cell } from '../../src/cells/cell.ts';
import type { Sheet } from '../../src/model/sheet.ts';
import type { ReadPlan } from '../../src/query/plan.ts';
import type { NewSheet, SheetStore } from '../../src/store/store.ts';
import type { Dialect } from '../../src/store/dialect.ts';

/**
 * The store the suite runs against: SQLite by default; PostgreSQL when `npm test` runs the
 * suite again with SHEETPORT_TEST_DATABASE_URL pointing at a throwaway server
 * (see run-on-postgres.ts). Every store gets a fresh file or database of its own.
 */
export const backend =
  process.env.SHEETPORT_TEST_DATABASE_URL === undefined ? 'sqlite' : 'postgres';

export interface OpenedStore {
  store: SheetStore;
  /** For servers started as processes on the same data: a data dir, or a database URL. */
  env: Record<string, string>;
  dispose(): Promise<void>;
}

/**
 * Sheets with more rows than this get the cell index. SHEETPORT_TEST_INDEX_THRESHOLD=0 runs the
 * suite with every sheet indexed, so that both ways of filtering answer every test.
 */
const defaultThreshold =
  process.env.SHEETPORT_TEST_INDEX_THRESHOLD === undefined
    ? undefined
    : Number(process.env.SHEETPORT_TEST_INDEX_THRESHOLD);

export async function openTestStore(options: RowStoreOptions = {}): Promise<OpenedStore> {
  const indexThreshold = options.indexThreshold ?? defaultThreshold;
  const adminUrl = process.env.SHEETPORT_TEST_DATABASE_URL;
  if (adminUrl === undefined) {
    const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-test-'));
    const store = openSqliteStore({
      path: join(dataDir, 'sheetport.db'),
      synchronous: 'normal',
      ...options,
      indexThreshold,
    });
    return {
      store,
      env: { SHEETPORT_DATA_DIR: dataDir },
      dispose: async () => {
        await store.database.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const database = `sheetport_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${database}`);
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  const store = await openPostgresStore({
    connectionString: url.href,
    poolSize: 5,
    ...options,
    indexThreshold,
  });
  return {
    store,
    env: { SHEETPORT_DATABASE_URL: url.href },
    dispose: async () => {
      await store.database.close();
      await adminQuery(adminUrl, `DROP DATABASE ${database} WITH (FORCE)`);
    },
  };
}

/**
 * Settings for `sheetport` processes (a server, a CLI command) over a fresh store of the
 * suite's backend: the data directory `dataDir`, and on PostgreSQL a new empty database of
 * its own, dropped when the test ends. On SQLite the store is `dataDir`'s sheetport.db.
 */
export async function storeSettings(
  t: TestContext,
  dataDir: string,
): Promise<Record<string, string>> {
  const adminUrl = process.env.SHEETPORT_TEST_DATABASE_URL;
  if (adminUrl === undefined) return { SHEETPORT_DATA_DIR: dataDir };
  const database = `sheetport_${randomBytes(6).toString('hex')}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${database}`);
  // WITH (FORCE): a server the test killed may not have closed its connections yet.
  t.after(() => adminQuery(adminUrl, `DROP DATABASE ${database} WITH (FORCE)`));
  const url = new URL(adminUrl);
  url.pathname = `/${database}`;
  return { SHEETPORT_DATA_DIR: dataDir, SHEETPORT_DATABASE_URL: url.href };
}

/**
 * Ends the database sessions that hold an advisory lock in the database of `url` (the sheet
 * locks of the servers on it), as a network fault would; answers how many it ended.
 */
export async function endLockConnections(url: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const ended = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_locks
       WHERE locktype = 'advisory' AND granted
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    return ended.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** A sheet made from scratch, with deletes switched on, as the store suites create them. */
export function scratchSheet(id: string, columns: string[], name = id): NewSheet {
  return { id, name, columns, source: { provider: 'scratch' }, settings: { deleteEnabled: true } };
}

/** The rows a plan reads, as cells, whether the store answers in one piece or several. */
export async function readRows(store: SheetStore, sheet: Sheet, plan: ReadPlan): Promise<Cell[][]> {
  const answer = await store.readCells(sheet, plan);
  const rows: Cell[][] = [];
  for await (const chunk of answer.chunks) rows.push(...chunk.rows);
  return rows;
}

/**
 * The keys of a sheet's rows in order: their row ids as text, read from the database past every
 * cache of the store.
 */
export async function rowKeys(store: SheetStore, id: string): Promise<string[]> {
  const db = store.database as Dialect;
  const rows = await db.read(function* () {
    const sheet = yield* db.sheets.sheetById(id);
    if (sheet === null) throw new Error(`no sheet ${id}`);
    return yield* db.rows.rowsBetween(sheet.key, 0, sheet.rowCount);
  });
  return rows.map((row) => String(row.rid));
}

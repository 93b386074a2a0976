import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { people } from './data.ts';
import type { Database } from './database.ts';
import { directoryBytes } from '../cases/import-case.ts';
import type { Storage } from '../reports/many-sheets-report.ts';
import { log } from './output.ts';
import { startEmptySheetport, type Server } from './servers.ts';

/**
 * Case j's stores: small sheets, made through the admin API in a SQLite data directory or a
 * PostgreSQL database of their own, and the room they take.
 */

const smallColumns = ['id', 'name', 'email', 'age', 'city'] as const;
export const smallSheetRows = 20;

/** The rows of the i-th small sheet: 20 people of a seed of their own. */
export function rowsOf(i: number): Record<string, string | number>[] {
  return [...people(smallSheetRows, 10_000 + i)].map((person) =>
    Object.fromEntries(smallColumns.map((column) => [column, person[column]])),
  );
}

/** Creates `count` sheets, 8 at a time; their ids, and the times they completed, in order. */
async function createSheets(
  server: Server,
  count: number,
  rows: (i: number) => Record<string, string | number>[],
  log: (line: string) => void,
): Promise<{ ids: string[]; doneMs: number[] }> {
  const inFlight = 8;
  const ids: string[] = new Array<string>(count);
  const doneMs: number[] = [];
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const response = await fetch(`${server.url}/admin/v1/sheets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: `small-${i}`, columns: smallColumns, rows: rows(i) }),
      });
      const text = await response.text();
      if (response.status !== 201) {
        throw new Error(`creating sheet ${i} on ${server.name}: ${response.status} ${text}`);
      }
      ids[i] = (JSON.parse(text) as { id: string }).id;
      doneMs.push(performance.now() - started);
      if (doneMs.length % Math.max(1, Math.floor(count / 10)) === 0) {
        log(`    ${doneMs.length.toLocaleString('en')} sheets`);
      }
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { ids, doneMs };
}

export interface Store {
  name: 'SQLite' | 'PostgreSQL';
  /** The data directory, or, on PostgreSQL, the database, for each of the case's stores. */
  settingsFor(purpose: Purpose): Promise<Record<string, string>>;
  dataDir(purpose: Purpose): string;
  /** The store's bytes: after the server stopped on SQLite, while it runs on PostgreSQL. */
  bytes(purpose: Purpose): Promise<number>;
  measuredWhile: 'stopped' | 'running';
}

export type Purpose = 'many' | 'empty' | 'one' | 'fresh';

export function stores(database: Database, dir: string): Store[] {
  const databases = new Map<Purpose, string>();
  return [
    {
      name: 'SQLite',
      settingsFor: async () => ({}),
      dataDir: (purpose) => join(dir, `sqlite-${purpose}`),
      bytes: (purpose) => directoryBytes(join(dir, `sqlite-${purpose}`)),
      measuredWhile: 'stopped',
    },
    {
      name: 'PostgreSQL',
      async settingsFor(purpose) {
        let url = databases.get(purpose);
        if (url === undefined) {
          url = await database.create(`sheets_${purpose}`);
          databases.set(purpose, url);
        }
        return { SHEETPORT_DATABASE_URL: url };
      },
      dataDir: (purpose) => join(dir, `postgres-${purpose}`),
      bytes: (purpose) => database.sizeOf(`sheets_${purpose}`),
      measuredWhile: 'running',
    },
  ];
}

/**
 * Fills one of a store's stores with `count` sheets and measures its growth: on SQLite the data
 * directory of a server that has stopped (so its log is checkpointed) against that of a store
 * holding no sheet; on PostgreSQL the database's size before and after, while the server runs.
 */
export async function fill(
  store: Store,
  purpose: 'many' | 'empty' | 'one',
  count: number,
  rows: (i: number) => Record<string, string | number>[],
): Promise<{ ids: string[]; doneMs: number[]; storage: Storage }> {
  const settings = await store.settingsFor(purpose);
  const server = await startEmptySheetport(
    `sheetport, ${store.name}`,
    store.dataDir(purpose),
    settings,
  );
  let before: number;
  let created: { ids: string[]; doneMs: number[] };
  try {
    before = store.measuredWhile === 'running' ? await store.bytes(purpose) : 0;
    log(`  ${store.name}: creating ${count.toLocaleString('en')} sheets (${purpose})`);
    created = await createSheets(server, count, rows, log);
    if (store.measuredWhile === 'running') {
      const after = await store.bytes(purpose);
      await server.stop();
      return { ...created, storage: storage(store, purpose, count, rows(0).length, before, after) };
    }
  } finally {
    await server.stop();
  }
  // SQLite: against a store that was opened and closed with no sheet in it.
  const fresh = await startEmptySheetport('fresh', store.dataDir('fresh'), settings);
  await fresh.stop();
  before = await store.bytes('fresh');
  await rm(store.dataDir('fresh'), { recursive: true, force: true });
  const after = await store.bytes(purpose);
  return { ...created, storage: storage(store, purpose, count, rows(0).length, before, after) };
}

function storage(
  store: Store,
  purpose: string,
  sheets: number,
  rowsEach: number,
  before: number,
  after: number,
): Storage {
  return {
    store: store.name,
    purpose,
    sheets,
    rowsEach,
    beforeBytes: before,
    afterBytes: after,
    perSheetBytes: (after - before) / sheets,
  };
}

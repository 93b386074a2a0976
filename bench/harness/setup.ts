import { cp, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runImport, type ImportResult } from './cli-import.ts';
import type { Database } from './database.ts';
import { filterNames, rowsNamed, writeCsv, writeJsonServerDb } from './data.ts';
import { work } from './paths.ts';
import { startBareServer, startJsonServer, startSheetport, type Server } from './servers.ts';

/** The two sheets every server holds: the same seeded rows, loaded each server's own way. */
export const large = { rows: 100_000, seed: 1, collection: 'people_100k' } as const;
export const small = { rows: 10_000, seed: 2, collection: 'people_10k' } as const;
const dashboardName = 'dashboard';

export interface Fleet {
  sheetport: Server;
  /** The same data in a copy of the data directory, served with SHEETPORT_CACHE_SIZE=0. */
  sheetportNoCache: Server;
  /** The same data imported into PostgreSQL, served with default settings. */
  sheetportPostgres: Server;
  /** A second server on that PostgreSQL database, with SHEETPORT_CACHE_SIZE=0. */
  sheetportPostgresNoCache: Server;
  /** json-server holding the 100,000-row collection. */
  jsonServerLarge: Server;
  /** json-server holding the 10,000-row collection, in its own db.json (see below). */
  jsonServerSmall: Server;
  /** Another json-server with a copy of that db.json, for the case that reads and writes at once. */
  jsonServerDashboard: Server;
  bare: Server;
  largeSheetId: string;
  smallSheetId: string;
  /** The two sheets' ids in PostgreSQL. */
  postgresLargeSheetId: string;
  postgresSmallSheetId: string;
  /** The 10,000 rows imported once more, as the sheet of the case that reads and writes at once. */
  dashboardSheetId: string;
  postgresDashboardSheetId: string;
  /** How long `sheetport import` took to load each sheet into each store. */
  loads: { store: 'SQLite' | 'PostgreSQL'; rows: number; result: ImportResult }[];
  /** Names to filter the large sheet on; each matches at least one row. */
  names: string[];
  /** What the bare server answers: the rows that the first name matches, as JSON. */
  bareBody: string;
  dir: string;
  /** The CSV file of the 10,000-row sheet. */
  smallCsv: string;
  /** The PostgreSQL the two PostgreSQL servers share; started and stopped by the caller. */
  database: Database;
}

/**
 * Generates the data, loads it into each server and starts them all. json-server gets one db.json
 * per collection: it rewrites its whole file on every write, so a POST to the small collection
 * would otherwise pay for serializing the large one too, an unfair handicap. Sheetport gets the
 * CSV files through `sheetport import`, once into SQLite and once into `database`.
 */
export async function startFleet(database: Database, log: (line: string) => void): Promise<Fleet> {
  const dir = join(work, 'run');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const started: Server[] = [];
  try {
    const sheetIds: string[] = [];
    const postgresSheetIds: string[] = [];
    const loads: Fleet['loads'] = [];
    const postgres = { SHEETPORT_DATABASE_URL: database.url };
    for (const sheet of [large, small]) {
      log(`generating ${sheet.rows.toLocaleString('en')} rows (seed ${sheet.seed})`);
      const csv = join(dir, `${sheet.collection}.csv`);
      await writeCsv(csv, sheet.rows, sheet.seed);
      await writeJsonServerDb(
        join(dir, `${sheet.collection}.json`),
        sheet.collection,
        sheet.rows,
        sheet.seed,
      );
      const imported = await runImport(join(dir, 'sheetport'), csv, sheet.collection);
      sheetIds.push(imported.id);
      loads.push({ store: 'SQLite', rows: sheet.rows, result: imported });
      log(`importing ${sheet.collection} into PostgreSQL`);
      const intoPostgres = await runImport(dir, csv, sheet.collection, postgres);
      postgresSheetIds.push(intoPostgres.id);
      loads.push({ store: 'PostgreSQL', rows: sheet.rows, result: intoPostgres });
    }
    const smallCsv = join(dir, `${small.collection}.csv`);
    const dashboard = await runImport(join(dir, 'sheetport'), smallCsv, dashboardName);
    const postgresDashboard = await runImport(dir, smallCsv, dashboardName, postgres);
    await cp(join(dir, `${small.collection}.json`), join(dir, `${dashboardName}.json`));
    const [largeSheetId = '', smallSheetId = ''] = sheetIds;
    const [postgresLargeSheetId = '', postgresSmallSheetId = ''] = postgresSheetIds;
    // A copy, not a second server on one file: a Sheetport process expects to be its file's only writer.
    await cp(join(dir, 'sheetport'), join(dir, 'sheetport-no-cache'), { recursive: true });
    const names = filterNames(large.rows, large.seed, 5000);
    const bareBody = JSON.stringify(rowsNamed(large.rows, large.seed, names[0] ?? ''));
    log('starting servers');
    const start = async (server: Promise<Server>) => {
      const running = await server;
      started.push(running);
      return running;
    };
    return {
      sheetport: await start(startSheetport('sheetport', join(dir, 'sheetport'), largeSheetId)),
      sheetportNoCache: await start(
        startSheetport('sheetport, cache off', join(dir, 'sheetport-no-cache'), largeSheetId, {
          SHEETPORT_CACHE_SIZE: '0',
        }),
      ),
      // SHEETPORT_DATA_DIR does not apply on PostgreSQL; each gets an empty directory all the same.
      sheetportPostgres: await start(
        startSheetport(
          'sheetport, PostgreSQL',
          join(dir, 'postgres-1'),
          postgresLargeSheetId,
          postgres,
        ),
      ),
      sheetportPostgresNoCache: await start(
        startSheetport(
          'sheetport, PostgreSQL, cache off',
          join(dir, 'postgres-2'),
          postgresLargeSheetId,
          { ...postgres, SHEETPORT_CACHE_SIZE: '0' },
        ),
      ),
      jsonServerLarge: await start(
        startJsonServer('json-server', join(dir, `${large.collection}.json`), large.collection),
      ),
      jsonServerSmall: await start(
        startJsonServer('json-server', join(dir, `${small.collection}.json`), small.collection),
      ),
      jsonServerDashboard: await start(
        startJsonServer('json-server', join(dir, `${dashboardName}.json`), small.collection),
      ),
      bare: await start(startBareServer(bareBody)),
      largeSheetId,
      smallSheetId,
      postgresLargeSheetId,
      postgresSmallSheetId,
      dashboardSheetId: dashboard.id,
      postgresDashboardSheetId: postgresDashboard.id,
      loads,
      names,
      bareBody,
      dir,
      smallCsv,
      database,
    };
  } catch (error) {
    await Promise.all(started.map((server) => server.stop()));
    throw error;
  }
}

export function servers(fleet: Fleet): Server[] {
  return [
    fleet.sheetport,
    fleet.sheetportNoCache,
    fleet.sheetportPostgres,
    fleet.sheetportPostgresNoCache,
    fleet.jsonServerLarge,
    fleet.jsonServerSmall,
    fleet.jsonServerDashboard,
    fleet.bare,
  ];
}

export async function stopFleet(fleet: Fleet): Promise<void> {
  await Promise.all(servers(fleet).map((server) => server.stop()));
}

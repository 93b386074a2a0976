import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Timing } from '../reports/load-report.ts';
import { sameAnswers } from '../harness/checks.ts';
import type { Database } from '../harness/database.ts';
import { measure, median, single, type Measurement } from '../harness/load.ts';
import { cycling, posting, type Body } from '../harness/wrk-scripts.ts';
import {
  printManySheets,
  type Creation,
  type StartUps,
  type Storage,
} from '../reports/many-sheets-report.ts';
import { log } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startSheetport, type Server } from '../harness/servers.ts';
import { fill, rowsOf, smallSheetRows, stores, type Store } from '../harness/sheet-stores.ts';
import { timeStartUp, type StartUp } from '../harness/start-up.ts';
import { rateTarget, target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case j: many small sheets in one store. Sheets of 5 columns and 20 rows are created one after
 * another through the admin API, 8 at a time, on SQLite and on PostgreSQL: does creating the
 * last ones cost what creating the first ones did, how much room does each take (and an empty
 * one, in a store of its own), how long does a server take to start over them all, and is a small
 * sheet among them as fast to filter and append to as the same sheet alone in its store?
 */

export interface ManySheetsPlan {
  sheets: number;
  /** Start-up must take less than this. */
  startUpGoalMs: number;
  timing: Timing;
}

export interface ManySheetsResult {
  creation: Creation[];
  storage: Storage[];
  startUps: StartUps[];
  filter: Measurement[];
  post: Measurement[];
  targets: TargetOutcome[];
}

/** Milliseconds per sheet in each tenth of the creation, by the times sheets completed. */
function windows(doneMs: number[]): Creation['windows'] {
  const size = Math.max(1, Math.floor(doneMs.length / 10));
  const result: Creation['windows'] = [];
  for (let from = 0; from + size <= doneMs.length; from += size) {
    const startMs = from === 0 ? 0 : (doneMs[from - 1] ?? 0);
    const endMs = doneMs[from + size - 1] ?? startMs;
    result.push({ from, to: from + size, msPerSheet: (endMs - startMs) / size });
  }
  return result;
}

export async function manySheetsCase(
  plan: ManySheetsPlan,
  database: Database,
): Promise<ManySheetsResult> {
  const count = plan.sheets;
  log(`\nj. ${count.toLocaleString('en')} sheets`);
  const dir = join(work, 'sheets');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const creation: Creation[] = [];
  const storages: Storage[] = [];
  const startUps: StartUps[] = [];
  const probe = Math.floor(count / 2);
  const probeIds = new Map<string, { many: string; one: string }>();
  const all = stores(database, dir);
  try {
    for (const store of all) {
      const many = await fill(store, 'many', count, rowsOf);
      creation.push({ store: store.name, sheets: count, windows: windows(many.doneMs) });
      storages.push(many.storage);
      // Fewer empty sheets: they only measure room, and a fifth is plenty for that.
      const empty = await fill(store, 'empty', Math.ceil(count / 5), () => []);
      storages.push(empty.storage);
      // The store with one sheet holds the very sheet the filter and the POSTs go to among many.
      const one = await fill(store, 'one', 1, () => rowsOf(probe));
      const ids = { many: many.ids[probe] ?? '', one: one.ids[0] ?? '' };
      probeIds.set(store.name, ids);
      const times = { many: [] as StartUp[], one: [] as StartUp[] };
      for (let run = 0; run < 3; run++) {
        for (const purpose of ['one', 'many'] as const) {
          log(`  ${store.name}: start-up ${run + 1}/3, ${purpose === 'one' ? 1 : count} sheets`);
          const settings = await store.settingsFor(purpose);
          times[purpose].push(await timeStartUp(store.dataDir(purpose), ids[purpose], settings));
        }
      }
      for (const [purpose, sheets] of [
        ['one', 1],
        ['many', count],
      ] as const) {
        startUps.push({
          store: store.name,
          sheets,
          ms: times[purpose].map((start) => start.readyMs),
          answeringMs: times[purpose].map((start) => start.answeringMs),
        });
      }
    }
    const { filter, post } = await speeds(all, probeIds, count, plan.timing, database);
    const result = { creation, storage: storages, startUps, filter, post };
    const targets = manySheetsTargets(result, plan);
    printManySheets({ ...result, plan: { sheets: count, probe, timing: plan.timing } });
    return { ...result, targets };
  } finally {
    await rm(dir, { recursive: true, force: true });
    for (const purpose of ['many', 'empty', 'one']) await database.drop(`sheets_${purpose}`);
  }
}

/**
 * The small sheet alone in its store against the same sheet among the many, cache off: equality
 * filters on its 20 names, then single-row POSTs to it, each in interleaved runs.
 */
async function speeds(
  all: Store[],
  probeIds: Map<string, { many: string; one: string }>,
  count: number,
  timing: Timing,
  database: Database,
): Promise<{ filter: Measurement[]; post: Measurement[] }> {
  const servers: { server: Server; sheetId: string }[] = [];
  try {
    for (const store of all) {
      const ids = probeIds.get(store.name);
      if (ids === undefined) continue;
      for (const purpose of ['one', 'many'] as const) {
        const name = `${purpose === 'one' ? '1 sheet' : `${count.toLocaleString('en')} sheets`}, ${store.name}`;
        const server = await startSheetport(name, store.dataDir(purpose), ids[purpose], {
          ...(await store.settingsFor(purpose)),
          SHEETPORT_CACHE_SIZE: '0',
        });
        servers.push({ server, sheetId: ids[purpose] });
      }
    }
    const names = rowsOf(Math.floor(count / 2)).map((row) => String(row.name));
    const filterPaths = (sheetId: string) =>
      names.map((name) => `/api/v1/${sheetId}?name=${encodeURIComponent(name)}`);
    await sameAnswers(
      servers.map(({ server, sheetId }) => `${server.url}${filterPaths(sheetId)[0]}`),
      null,
    );
    const plan = { ...timing, connections: 20 };
    log('  equality filter on the 20-row sheet');
    const filter = await measure(
      servers.map(({ server, sheetId }) => single(server, cycling(filterPaths(sheetId)))),
      plan,
      log,
      database,
    );
    log('  single-row POST to it');
    const post = await measure(
      servers.map(({ server, sheetId }) => single(server, appending(`/api/v1/${sheetId}`))),
      plan,
      log,
      database,
    );
    return { filter, post };
  } finally {
    await Promise.all(servers.map(({ server }) => server.stop()));
  }
}

/** Single-row POSTs of new rows with the small sheets' columns, ids from 100,000. */
function appending(path: string) {
  const body: Body = {
    format: '{"id":%d,"name":"Bench Writer","email":"w.%d@example.com","age":40,"city":"Oslo"}',
    values: ['100000 + n', '100000 + n'],
  };
  return posting(path, body);
}

function manySheetsTargets(
  result: Omit<ManySheetsResult, 'targets'>,
  plan: ManySheetsPlan,
): TargetOutcome[] {
  const count = plan.sheets.toLocaleString('en');
  const outcomes: TargetOutcome[] = [];
  for (const store of ['SQLite', 'PostgreSQL'] as const) {
    const windows = result.creation.find((c) => c.store === store)?.windows ?? [];
    const first = windows[0];
    const last = windows.at(-1);
    if (first !== undefined && last !== undefined) {
      const size = (last.to - last.from).toLocaleString('en');
      outcomes.push(
        target(
          `j. ${store}: creating ${count} sheets, time per sheet, last ${size} ÷ first ${size}`,
          '<=',
          1.5,
          last.msPerSheet / first.msPerSheet,
          'times',
          { detail: `${last.msPerSheet.toFixed(2)} ÷ ${first.msPerSheet.toFixed(2)} ms` },
        ),
      );
    }
    for (const [purpose, goal, label] of [
      ['empty', 2048, 'an empty sheet (5 columns), all it costs'],
      ['many', 4096, `a ${smallSheetRows}-row sheet (5 columns), all included`],
    ] as const) {
      const stored = result.storage.find((s) => s.store === store && s.purpose === purpose);
      if (stored === undefined) continue;
      outcomes.push(
        target(
          `j. ${store}: bytes per sheet, ${label}`,
          '<=',
          goal,
          stored.perSheetBytes,
          'bytes',
          {
            detail: `${stored.sheets.toLocaleString('en')} sheets`,
          },
        ),
      );
    }
    const starts = result.startUps.find((s) => s.store === store && s.sheets === plan.sheets);
    if (starts !== undefined) {
      outcomes.push(
        target(
          `j. ${store}: start-up with ${count} sheets to the first 200 of GET /api/v1/<id>, median of ${starts.ms.length}`,
          '<',
          plan.startUpGoalMs,
          median(starts.ms),
          'ms',
        ),
      );
    }
    const one = `1 sheet, ${store}`;
    const many = `${count} sheets, ${store}`;
    outcomes.push(
      rateTarget(
        `j. ${store}: equality filter on a ${smallSheetRows}-row sheet, cache off, among ${count} sheets ÷ alone`,
        result.filter,
        many,
        one,
        0.9,
        'times',
      ),
      rateTarget(
        `j. ${store}: single-row POST to a ${smallSheetRows}-row sheet, among ${count} sheets ÷ alone`,
        result.post,
        many,
        one,
        0.9,
        'times',
      ),
    );
  }
  return outcomes;
}

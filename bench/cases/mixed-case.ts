import { sameAnswers } from '../harness/checks.ts';
import { measureRuns, single } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import type { Server } from '../harness/servers.ts';
import { small, type Fleet } from '../harness/setup.ts';
import { checkLines, checkWrites, postedBy, type WriteCheck } from '../harness/write-check.ts';
import { readsThenPost, type Body } from '../harness/wrk-scripts.ts';
import { cpuLegend, describePlan, type CaseResult, type Timing } from '../reports/load-report.ts';
import { errorLines, loadTable } from '../reports/report.ts';

/**
 * Case g: a dashboard and a form on one sheet at once: nine GETs of the whole sheet for each
 * single-row POST. Each POST's row is added to the whole-sheet answer Sheetport keeps (rows appended
 * extend it), so the GETs are answered from memory. Afterwards every acknowledged row is looked for.
 */

export interface MixedResult extends CaseResult {
  checks: { name: string; check: WriteCheck }[];
}

/** GETs of the whole sheet per POST. */
export const readsPerWrite = 9;
/** Ids of posted rows start here, above the generated ones. */
const firstId = 3_000_000;

/** A new row for wrk's request number n, its id above the generated ones. */
export const formRow: Body = {
  format:
    '{"id":%d,"name":"Form Writer","email":"form.%d@example.com","age":%d,"city":"Oslo","active":"yes"}',
  id: `${firstId} + n`,
  values: ['id', 'id', '20 + id % 50'],
};
export interface Leg {
  server: Server;
  /** Where the rows are read and written. */
  path: string;
  /** Deletes the rows posted (ids from `firstId`), as the server's API allows. */
  deletePosted(ids: unknown[]): Promise<void>;
}

async function allRows(server: Server, path: string): Promise<{ id: unknown }[]> {
  const response = await fetch(`${server.url}${path}`);
  if (response.status !== 200)
    throw new Error(`GET ${path} from ${server.name}: ${response.status}`);
  return (await response.json()) as { id: unknown }[];
}

async function deleted(server: Server, path: string): Promise<void> {
  const response = await fetch(`${server.url}${path}`, { method: 'DELETE' });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`DELETE ${path} from ${server.name}: ${response.status}`);
}

/** Sheetport deletes the posted rows with one filtered DELETE. */
export function sheetportLeg(server: Server, path: string): Leg {
  return { server, path, deletePosted: () => deleted(server, `${path}?id=__ge(${firstId})`) };
}

/** json-server deletes the posted rows one by one, as its API allows. */
export function jsonServerLeg(server: Server, collection: string): Leg {
  return {
    server,
    path: collection,
    deletePosted: async (ids) => {
      for (const id of ids) await deleted(server, `${collection}/${String(id)}`);
    },
  };
}

/**
 * Brings a leg's sheet back to its first rows, keeping the rows taken out for the write check.
 * Each server is posted rows at its own pace: without this, the faster server's GETs would answer
 * ever larger sheets (Sheetport's grew by 40% over the runs, json-server's by 1%).
 */
export async function takeOutPosted(leg: Leg, takenOut: { id: unknown }[]): Promise<void> {
  const posted = (await allRows(leg.server, leg.path)).filter((row) => Number(row.id) >= firstId);
  takenOut.push(...posted);
  if (posted.length > 0) await leg.deletePosted(posted.map((row) => row.id));
  const left = (await allRows(leg.server, leg.path)).length;
  if (left !== small.rows) {
    throw new Error(`${leg.server.name} holds ${left} rows after the posted ones were deleted`);
  }
}

export async function mixedCase(fleet: Fleet, timing: Timing): Promise<MixedResult> {
  const title = `g. A dashboard and a form: ${readsPerWrite} GETs of all rows for each single-row POST`;
  log(`\n${title}`);
  const plan = { ...timing, connections: 16 };
  const jsonServer = fleet.jsonServerDashboard;
  const collection = `/${small.collection}`;
  const legs: Leg[] = [
    sheetportLeg(fleet.sheetport, `/api/v1/${fleet.dashboardSheetId}`),
    sheetportLeg(fleet.sheetportPostgres, `/api/v1/${fleet.postgresDashboardSheetId}`),
    jsonServerLeg(jsonServer, collection),
  ];
  await sameAnswers(
    legs.map(({ server, path }) => `${server.url}${path}`),
    small.rows,
  );
  const measured = legs.map((leg) => {
    const takenOut: { id: unknown }[] = [];
    const target = {
      ...single(leg.server, readsThenPost(leg.path, readsPerWrite, formRow)),
      beforeRun: () => takeOutPosted(leg, takenOut),
    };
    return { leg, takenOut, target };
  });
  const { measurements, runs } = await measureRuns(
    measured.map(({ target }) => target),
    plan,
    log,
    fleet.database,
  );
  const checks: MixedResult['checks'] = [];
  for (const { leg, takenOut, target } of measured) {
    const posted = postedBy(runs.get(target) ?? []);
    // Every row posted is read once: taken out before a run, or still in the sheet.
    const everyRow = async () => [...takenOut, ...(await allRows(leg.server, leg.path))];
    const check = await checkWrites([everyRow], small.rows, firstId, posted);
    checks.push({ name: leg.server.name, check });
  }

  print(`\n== ${title} ==`);
  for (const line of [
    `One sheet of ${small.rows.toLocaleString('en')} rows (imported for this case; json-server: its own copy of db.json) on each server,`,
    `default settings (read cache on). Of every ${readsPerWrite + 1} requests, ${readsPerWrite} GET all rows (sheetport GET /api/v1/<id>,`,
    `json-server GET /${small.collection}) and 1 POSTs one new row (json-server POST /${small.collection}), counted over all`,
    "connections and runs. Sheetport adds a POST's row to the whole-sheet answer it keeps, so GETs are read from memory.",
    'req/s counts GETs and POSTs together. Before each run the rows posted so far are read and deleted, so that every',
    `run of every server starts from the same ${small.rows.toLocaleString('en')} rows: a faster server is posted more rows, and its GETs' answers`,
    "would otherwise grow faster than a slower one's.",
    'Afterwards the sheet is read back through each server, with the rows deleted between runs: every row',
    'acknowledged must be there once, and rows not acknowledged may number no more than the requests in flight when',
    "a run stopped. wrk's script notes a POST as",
    "acknowledged once its answer is complete (wrk's delay() hook) without reading it: a response function would copy",
    'each 1 MB answer into Lua. So it cannot tell which answer was refused: a run with any answer above 399 fails the',
    'check.',
    describePlan(plan),
    'ratios: the first sheetport row divided by each row (req/s ratio > 1 and p99 ratio < 1 favour it);',
    ...cpuLegend,
  ]) {
    print(line);
  }
  print();
  print(loadTable(measurements));
  for (const line of errorLines(measurements)) print(line);
  for (const { name, check } of checks) {
    print(`-- ${name} --`);
    for (const line of checkLines(check, [name])) print(line);
  }
  return { title, connections: plan.connections, measurements, checks };
}

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
const readsPerWrite = 9;
/** Ids of posted rows start here, above the generated ones. */
const firstId = 3_000_000;

/** A new row for wrk's request number n, its id above the generated ones. */
const formRow: Body = {
  format:
    '{"id":%d,"name":"Form Writer","email":"form.%d@example.com","age":%d,"city":"Oslo","active":"yes"}',
  id: `${firstId} + n`,
  values: ['id', 'id', '20 + id % 50'],
};
interface Leg {
  server: Server;
  /** Where the rows are read and written. */
  path: string;
}

async function allRows(server: Server, path: string): Promise<{ id: unknown }[]> {
  const response = await fetch(`${server.url}${path}`);
  if (response.status !== 200)
    throw new Error(`GET ${path} from ${server.name}: ${response.status}`);
  return (await response.json()) as { id: unknown }[];
}

export async function mixedCase(fleet: Fleet, timing: Timing): Promise<MixedResult> {
  const title = `g. A dashboard and a form: ${readsPerWrite} GETs of all rows for each single-row POST`;
  log(`\n${title}`);
  const plan = { ...timing, connections: 16 };
  const legs: Leg[] = [
    { server: fleet.sheetport, path: `/api/v1/${fleet.dashboardSheetId}` },
    { server: fleet.sheetportPostgres, path: `/api/v1/${fleet.postgresDashboardSheetId}` },
    { server: fleet.jsonServerDashboard, path: `/${small.collection}` },
  ];
  await sameAnswers(
    legs.map(({ server, path }) => `${server.url}${path}`),
    small.rows,
  );
  const targets = legs.map(({ server, path }) =>
    single(server, readsThenPost(path, readsPerWrite, formRow)),
  );
  const { measurements, runs } = await measureRuns(targets, plan, log, fleet.database);
  const checks: MixedResult['checks'] = [];
  for (const [i, { server, path }] of legs.entries()) {
    const posted = postedBy(runs.get(targets[i] as (typeof targets)[number]) ?? []);
    const check = await checkWrites([() => allRows(server, path)], small.rows, firstId, posted);
    checks.push({ name: server.name, check });
  }

  print(`\n== ${title} ==`);
  for (const line of [
    `One sheet of ${small.rows.toLocaleString('en')} rows (imported for this case; json-server: its own copy of db.json) on each server,`,
    `default settings (read cache on). Of every ${readsPerWrite + 1} requests, ${readsPerWrite} GET all rows (sheetport GET /api/v1/<id>,`,
    `json-server GET /${small.collection}) and 1 POSTs one new row (json-server POST /${small.collection}), counted over all`,
    "connections and runs. Sheetport adds a POST's row to the whole-sheet answer it keeps, so GETs are read from memory.",
    'req/s counts GETs and POSTs together.',
    'Afterwards the sheet is read back through each server: every row acknowledged must be there once, and rows not',
    "acknowledged may number no more than the requests in flight when a run stopped. wrk's script notes a POST as",
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

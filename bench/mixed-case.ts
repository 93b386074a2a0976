import type { Request } from 'autocannon';
import { describePlan, cpuLegend, type CaseResult, type Timing } from './cases.ts';
import { sameAnswers } from './checks.ts';
import { measure, type Target } from './load.ts';
import { log, print } from './output.ts';
import { errorLines, loadTable } from './report.ts';
import type { Server } from './servers.ts';
import { small, type Fleet } from './setup.ts';
import {
  checkLines,
  checkWrites,
  trackedWrites,
  type WriteCheck,
  type Writes,
} from './write-check.ts';

/**
 * Case g: a dashboard and a form on one sheet at once: nine GETs of the whole sheet for each
 * single-row POST. Every POST makes the cached answer stale, so the read cache helps only between
 * writes. Afterwards every acknowledged row is looked for.
 */

export interface MixedResult extends CaseResult {
  checks: { name: string; check: WriteCheck }[];
}

/** GETs of the whole sheet per POST. */
const readsPerWrite = 9;
/** Ids of posted rows start here, above the generated ones. */
const firstId = 3_000_000;

const formRow = (id: number) => ({
  id,
  name: 'Form Writer',
  email: `form.${id}@example.com`,
  age: 20 + (id % 50),
  city: 'Oslo',
  active: 'yes',
});

interface Leg {
  server: Server;
  /** Where the rows are read and written. */
  path: string;
}

/**
 * GETs of `path` and, every `readsPerWrite + 1`-th request, a POST of a new row. The count runs
 * over all connections and runs: each new autocannon run starts every connection afresh, so a
 * sequence per connection would favour GETs on a server too slow to get through it in a run.
 */
function readsThenWrite(path: string, writes: Writes): Request[] {
  let next = 0;
  const { post } = writes;
  return [
    {
      method: 'GET',
      path,
      setupRequest: (request, context) => {
        if (next++ % (readsPerWrite + 1) === readsPerWrite && post.setupRequest !== undefined) {
          return post.setupRequest({ ...request, ...post, body: '' }, context);
        }
        delete context.id;
        return { ...request, method: 'GET', path, body: undefined };
      },
      onResponse: (status, body, context) => {
        if (context.id !== undefined) post.onResponse?.(status, body, context);
      },
    },
  ];
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
  const plan = { ...timing, connections: 10 };
  const legs: Leg[] = [
    { server: fleet.sheetport, path: `/api/v1/${fleet.dashboardSheetId}` },
    { server: fleet.sheetportPostgres, path: `/api/v1/${fleet.postgresDashboardSheetId}` },
    { server: fleet.jsonServerDashboard, path: `/${small.collection}` },
  ];
  await sameAnswers(
    legs.map(({ server, path }) => `${server.url}${path}`),
    small.rows,
  );
  const writes = legs.map(({ path }) => trackedWrites(path, firstId, formRow));
  const targets: Target[] = legs.map(({ server, path }, i) => ({
    name: server.name,
    legs: [{ server, requests: readsThenWrite(path, writes[i] as Writes) }],
  }));
  const measurements = await measure(targets, plan, log, fleet.database);
  const checks: MixedResult['checks'] = [];
  for (const [i, { server, path }] of legs.entries()) {
    const tracked = writes[i];
    if (tracked === undefined) continue;
    const check = await checkWrites([() => allRows(server, path)], small.rows, firstId, tracked);
    checks.push({ name: server.name, check });
  }

  print(`\n== ${title} ==`);
  for (const line of [
    `One sheet of ${small.rows.toLocaleString('en')} rows (imported for this case; json-server: its own copy of db.json) on each server,`,
    `default settings (read cache on). Of every ${readsPerWrite + 1} requests, ${readsPerWrite} GET all rows (sheetport GET /api/v1/<id>,`,
    `json-server GET /${small.collection}) and 1 POSTs one new row (json-server POST /${small.collection}), counted over all`,
    'connections and runs. A POST makes every cached answer of the sheet stale, so the next GET reads the sheet again.',
    'req/s counts GETs and POSTs together.',
    'Afterwards the sheet is read back through each server and every acknowledged row is looked for; rows of requests',
    'that were in flight when a run stopped may be there too.',
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

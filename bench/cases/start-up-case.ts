import { mkdir, rm } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { writeJsonServerDb } from '../harness/data.ts';
import { median } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { cleanEnv, cli, root, work } from '../harness/paths.ts';
import { freePort } from '../harness/servers.ts';
import { small } from '../harness/setup.ts';
import { timeFirstAnswer } from '../harness/start-up.ts';
import { target, targetLine, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case r, time to the first answer: from spawning a server to its first 200, beside json-server
 * 0.17 holding 10,000 rows (the seeded rows of case b), in the same run, one start of each in
 * turn. Sheetport is `node dist/cli.js serve` over an empty store with default settings, asked
 * `GET /admin/v1/sheets`; json-server is asked for its first row. Each is asked every 2 ms from
 * the moment it is spawned. Besides the wall-clock time, the CPU time the server used until then
 * (user and system, from /proc; null elsewhere), which other work on the machine distorts less.
 * Run alone: `node --import tsx bench/cases/start-up-case.ts` (after `npm run build`);
 * START_UP_RUNS sets the starts of each (7 by default, 3 with BENCH_QUICK=1).
 */

export interface StartUpTimes {
  name: string;
  wallMs: number[];
  cpuMs: (number | null)[];
}

export interface StartUpResult {
  runs: number;
  sheetport: StartUpTimes;
  jsonServer: StartUpTimes;
  targets: TargetOutcome[];
}

export async function startUpCase(runs: number): Promise<StartUpResult> {
  log('\nr. start-up');
  const dir = join(work, 'start-up');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  try {
    const db = join(dir, 'db.json');
    await writeJsonServerDb(db, small.collection, small.rows, small.seed);
    const jsonServerBin = realpathSync(join(root, 'node_modules/.bin/json-server'));
    const sheetport: StartUpTimes = { name: 'sheetport serve, empty store', wallMs: [], cpuMs: [] };
    const jsonServer: StartUpTimes = { name: 'json-server, 10,000 rows', wallMs: [], cpuMs: [] };
    const timeoutMs = 60_000;
    for (let run = 0; run < runs; run++) {
      const data = join(dir, `data-${run}`);
      let port = await freePort();
      const settings = {
        SHEETPORT_DATA_DIR: data,
        SHEETPORT_PORT: String(port),
        SHEETPORT_HOST: '127.0.0.1',
        SHEETPORT_DEMO: 'false',
      };
      record(
        sheetport,
        await timeFirstAnswer([cli, 'serve'], cleanEnv(settings), {
          url: `http://127.0.0.1:${port}/admin/v1/sheets`,
          timeoutMs,
        }),
      );
      port = await freePort();
      record(
        jsonServer,
        await timeFirstAnswer(
          [jsonServerBin, '--quiet', '--port', String(port), db],
          cleanEnv({}),
          { url: `http://127.0.0.1:${port}/${small.collection}/1`, timeoutMs },
        ),
      );
    }
    const result = { runs, sheetport, jsonServer };
    for (const line of startUpLines(result)) print(line);
    return { ...result, targets: startUpTargets(result) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function record(
  times: StartUpTimes,
  { readyMs, cpuMs }: { readyMs: number; cpuMs: number | null },
) {
  times.wallMs.push(readyMs);
  times.cpuMs.push(cpuMs);
}

function startUpTargets(result: Omit<StartUpResult, 'targets'>): TargetOutcome[] {
  const sheetportMs = median(result.sheetport.wallMs);
  const jsonServerMs = median(result.jsonServer.wallMs);
  const cpu = (times: StartUpTimes) =>
    median(times.cpuMs.filter((ms): ms is number => ms !== null)).toFixed(0);
  // The goal is json-server's own time with 10,000 rows, measured in the same run, in turn.
  return [
    target(
      `r. start-up of sheetport serve to its first 200, median of ${result.runs}, against json-server's with 10,000 rows`,
      '<=',
      jsonServerMs,
      sheetportMs,
      'ms',
      {
        detail: `${(sheetportMs / jsonServerMs).toFixed(2)}x; CPU ${cpu(result.sheetport)} ms against ${cpu(result.jsonServer)} ms`,
      },
    ),
  ];
}

/** The result as lines of text: medians, the ratio, and every start. */
function startUpLines(result: Omit<StartUpResult, 'targets'>): string[] {
  const line = (times: StartUpTimes) => {
    const cpu = times.cpuMs.filter((ms): ms is number => ms !== null);
    return `${times.name.padEnd(30)} median ${median(times.wallMs).toFixed(0).padStart(5)} ms wall, ${
      cpu.length === 0 ? 'n/a' : `${median(cpu).toFixed(0)} ms`
    } CPU   (runs: ${times.wallMs.map((ms) => ms.toFixed(0)).join(' ')})`;
  };
  const ratio = median(result.sheetport.wallMs) / median(result.jsonServer.wallMs);
  return [
    `\n== r. Start-up: spawn to first 200, median of ${result.runs} starts each, in turn ==`,
    line(result.sheetport),
    line(result.jsonServer),
    `sheetport / json-server: ${ratio.toFixed(2)}x; goal: json-server's time or less`,
  ];
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const runs = Number(process.env.START_UP_RUNS ?? (process.env.BENCH_QUICK === '1' ? 3 : 7));
  const { targets } = await startUpCase(runs);
  print();
  for (const outcome of targets) print(targetLine(outcome));
}

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  machineBusySeconds,
  median,
  type CpuSource,
  type LoadPlan,
  type Measurement,
} from './load.ts';
import { work } from './paths.ts';
import type { Server } from './servers.ts';

/**
 * wrk, when the machine has it (Debian's package `wrk`), as the load generator of the cases whose
 * answers are large. autocannon runs in this process and parses every answer in JavaScript: on
 * two cores it tops out near 200 answers of a megabyte per second, well below what the servers
 * can give, so a ratio of two servers would be a ratio of what the client could take. wrk is C
 * and only counts bytes.
 */
export const wrkPath = '/usr/bin/wrk';

export function hasWrk(): boolean {
  return existsSync(wrkPath);
}

/** One server and what wrk asks it: `path`, or what a Lua script makes of it. */
export interface WrkTarget {
  name: string;
  server: Server;
  path: string;
  /**
   * A wrk Lua script. It is given the run's number (0 for the warm-up, then 1, 2, ...) as its
   * one argument, so that what it numbers can differ from run to run.
   */
  script?: string;
}

export const wrkThreads = 2;

/**
 * Lua that gives each wrk thread its number (`offset`, from 1) and the run's number (`run`), and
 * reports what each thread counted in `counters` once the run is done, as lines
 * `counted <name> <thread> <value>`.
 */
export function luaPrelude(counters: string[]): string {
  const report = counters
    .map(
      (name) => `    io.write(string.format("counted ${name} %d %d\\n", i, thread:get("${name}")))`,
    )
    .join('\n');
  return [
    'local threads = {}',
    'function setup(thread) table.insert(threads, thread); thread:set("offset", #threads) end',
    `function init(args) run = tonumber(args[1]) or 0; ${counters.map((c) => `${c} = 0`).join('; ')} end`,
    'function done(summary, latency, requests)',
    '  for i, thread in ipairs(threads) do',
    report,
    '  end',
    'end',
    '',
  ].join('\n');
}

/** Sums of the counters a `luaPrelude` script reported, by name. */
export function countersOf(output: string): Map<string, number[]> {
  const counted = new Map<string, number[]>();
  for (const [, name = '', thread, value] of output.matchAll(/^counted (\w+) (\d+) (\d+)$/gm)) {
    const values = counted.get(name) ?? [];
    values[Number(thread) - 1] = Number(value);
    counted.set(name, values);
  }
  return counted;
}

/**
 * Lua that numbers requests, so that no two ask the same URL (and no cache can answer): each
 * appends a number to `path` above `base`, different for each thread and run.
 */
export function countingScript(path: string, base: number): string {
  return [
    luaPrelude(['count']),
    'function request()',
    '  count = count + 1',
    `  return wrk.format("GET", "${path}" .. (${base} + run * 10000000 + count * ${wrkThreads} + offset))`,
    'end',
    '',
  ].join('\n');
}

interface WrkRun {
  requests: number;
  seconds: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  p50Ms: number;
  p99Ms: number;
  clientSeconds: number;
  /** wrk's whole report, with what a script wrote. */
  output: string;
}

function milliseconds(text: string): number {
  const match = /^([\d.]+)(us|ms|s|m)$/.exec(text);
  if (match === null) return Number.NaN;
  const value = Number(match[1]);
  const scale: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };
  return value * (scale[match[2] ?? 'ms'] ?? Number.NaN);
}

/** Reads wrk's report, and the CPU the shell's children used from `times`. */
export function parseWrk(output: string): Omit<WrkRun, 'output'> {
  const number = (pattern: RegExp) => Number(pattern.exec(output)?.[1] ?? 0);
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m)/.exec(output);
  if (done === null) throw new Error(`wrk said:\n${output}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    output,
  );
  const latency = (p: string) =>
    milliseconds(new RegExp(`^\\s+${p}%\\s+(\\S+)`, 'm').exec(output)?.[1] ?? '');
  const times = [...output.matchAll(/(\d+)m([\d.]+)s (\d+)m([\d.]+)s/g)].at(-1);
  const clientSeconds =
    times === undefined
      ? Number.NaN
      : Number(times[1]) * 60 + Number(times[2]) + Number(times[3]) * 60 + Number(times[4]);
  return {
    requests: Number(done[1]),
    seconds: milliseconds(`${done[2]}${done[3]}`) / 1000,
    non2xx: number(/Non-2xx or 3xx responses: (\d+)/),
    errors: socket === null ? 0 : Number(socket[1]) + Number(socket[2]) + Number(socket[3]),
    timeouts: socket === null ? 0 : Number(socket[4]),
    p50Ms: latency('50'),
    p99Ms: latency('99'),
    clientSeconds,
  };
}

async function runWrk(
  target: WrkTarget,
  plan: LoadPlan,
  seconds: number,
  run: number,
): Promise<WrkRun> {
  const url = `${target.server.url}${target.path}`;
  const args = [`-t${wrkThreads}`, `-c${plan.connections}`, `-d${seconds}s`, '--latency'];
  if (target.script !== undefined) {
    const script = join(work, `wrk-${target.name.replace(/\W+/g, '-')}.lua`);
    await writeFile(script, target.script);
    args.push('-s', script, url, '--', String(run));
  } else {
    args.push(url);
  }
  const command = `${wrkPath} ${args.map((arg) => `'${arg}'`).join(' ')}; times`;
  const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return { ...parseWrk(output), output };
}

/** The same plan as autocannon's `measure`: a warm-up each, then runs with servers interleaved. */
export async function measureWithWrk(
  targets: WrkTarget[],
  plan: LoadPlan,
  log: (line: string) => void,
  database: CpuSource | null,
): Promise<Measurement[]> {
  return (await measureWithWrkRuns(targets, plan, log, database)).measurements;
}

/** `measureWithWrk`, with wrk's own reports of every run, warm-up first, by target. */
export async function measureWithWrkRuns(
  targets: WrkTarget[],
  plan: LoadPlan,
  log: (line: string) => void,
  database: CpuSource | null,
): Promise<{ measurements: Measurement[]; outputs: Map<WrkTarget, string[]> }> {
  const warmups = new Map<WrkTarget, WrkRun>();
  const runs = new Map<WrkTarget, (WrkRun & Cores)[]>(targets.map((target) => [target, []]));
  for (const target of targets) {
    log(`  warm-up ${target.name} (${plan.warmupSeconds} s, wrk)`);
    warmups.set(target, await runWrk(target, plan, plan.warmupSeconds, 0));
  }
  for (let round = 1; round <= plan.runs; round++) {
    for (const target of targets) {
      const run = await withCores(target.server, database, () =>
        runWrk(target, plan, plan.runSeconds, round),
      );
      runs.get(target)?.push(run);
      log(
        `  run ${round}/${plan.runs} ${target.name}: ${Math.round(run.requests / run.seconds)} req/s (wrk), ` +
          `p99 ${run.p99Ms.toFixed(2)} ms, non-2xx ${run.non2xx}, errors ${run.errors + run.timeouts}`,
      );
    }
  }
  const outputs = new Map(
    targets.map((target) => [
      target,
      [warmups.get(target), ...(runs.get(target) ?? [])].map((run) => run?.output ?? ''),
    ]),
  );
  const measurements = targets.map((target) => summarize(target.name, runs.get(target) ?? []));
  return { measurements, outputs };
}

interface Cores {
  serverCores: number | null;
  databaseCores: number | null;
  clientCores: number;
  otherCores: number | null;
}

async function withCores(
  server: Server,
  database: CpuSource | null,
  run: () => Promise<WrkRun>,
): Promise<WrkRun & Cores> {
  const machine = machineBusySeconds();
  const serverBefore = server.cpuSeconds();
  const databaseBefore = database?.cpuSeconds() ?? null;
  const result = await run();
  const per = (before: number | null, after: number | null) =>
    before === null || after === null ? null : (after - before) / result.seconds;
  const serverCores = per(serverBefore, server.cpuSeconds());
  const databaseCores = per(databaseBefore, database?.cpuSeconds() ?? null);
  const clientCores = result.clientSeconds / result.seconds;
  const machineCores = per(machine, machineBusySeconds());
  const otherCores =
    machineCores === null || serverCores === null
      ? null
      : Math.max(0, machineCores - serverCores - (databaseCores ?? 0) - clientCores);
  return { ...result, serverCores, databaseCores, clientCores, otherCores };
}

function summarize(name: string, runs: (WrkRun & Cores)[]): Measurement {
  const rates = runs.map((run) => run.requests / run.seconds);
  const sum = (value: (run: WrkRun) => number) =>
    runs.reduce((total, run) => total + value(run), 0);
  const nullable = (values: (number | null)[]) =>
    values.some((value) => value === null) ? null : median(values as number[]);
  return {
    name,
    requestsPerSecond: median(rates),
    runs: rates,
    perServer: [median(rates)],
    p50Ms: median(runs.map((run) => run.p50Ms)),
    p99Ms: median(runs.map((run) => run.p99Ms)),
    serverCores: nullable(runs.map((run) => run.serverCores)),
    databaseCores: nullable(runs.map((run) => run.databaseCores)),
    clientCores: median(runs.map((run) => run.clientCores)),
    otherCores: nullable(runs.map((run) => run.otherCores)),
    requests: sum((run) => run.requests),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    statusCodes: {},
    ok2xxWithWarmup: sum((run) => run.requests - run.non2xx),
  };
}

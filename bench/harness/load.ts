import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { work } from './paths.ts';
import type { Server } from './servers.ts';
import { parseWrk, type WrkReport } from './wrk-output.ts';
import { wrkThreads, type Script } from './wrk-scripts.ts';

/**
 * The load driver of every case: wrk (Debian's package `wrk`), a C program that only counts
 * bytes, so that a ratio of two servers is not a ratio of what the client could take (a load
 * generator in this Node process tops out near 200 answers of a megabyte a second on two cores).
 * What each request asks is a Lua script (wrk-scripts.ts).
 */
export const wrkPath = '/usr/bin/wrk';

/** Fails early, with what to do, where wrk is missing. */
export function requireWrk(): void {
  if (!existsSync(wrkPath)) {
    throw new Error(`the benchmark needs wrk at ${wrkPath}: apt-get install wrk`);
  }
}

/** One server and what it is asked during a case. */
export interface Leg {
  server: Server;
  script: Script;
}

/** One row of a case's table: one server, or several taking an even share of the load at once. */
export interface Target {
  name: string;
  /** One wrk each, started together, with the connections split evenly. */
  legs: Leg[];
  /** Run before each measured run (not the warm-up), out of the timed window. */
  beforeRun?: () => Promise<void>;
  /** Its own number of connections, where it differs from the plan's. */
  connections?: number;
}

/** Something whose CPU time can be read, such as PostgreSQL's processes. */
export interface CpuSource {
  cpuSeconds(): number | null;
}

export function single(server: Server, script: Script): Target {
  return { name: server.name, legs: [{ server, script }] };
}

export interface LoadPlan {
  /** In all, split evenly over a target's legs. */
  connections: number;
  /** wrk threads per leg, at most (`wrkThreads` unless given); paired scripts use one per connection. */
  threads?: number;
  warmupSeconds: number;
  runSeconds: number;
  runs: number;
}

export interface Measurement {
  name: string;
  /** Median over the measured runs. */
  requestsPerSecond: number;
  /** Requests per second of each measured run, in order. */
  runs: number[];
  /** Medians over the measured runs of each leg's requests per second: how the load was shared. */
  perServer: number[];
  /** Medians over the measured runs, in milliseconds (of several legs: the slowest leg's). */
  p50Ms: number;
  p99Ms: number;
  /** Medians over the measured runs of CPU used per second, in cores (1 = one core busy). */
  serverCores: number | null;
  /** The same for the database's processes (null when there is none). */
  databaseCores: number | null;
  /** The same for wrk, the load generator. */
  clientCores: number;
  /** The same for everything else: other processes and kernel threads (Linux only; else null). */
  otherCores: number | null;
  /** Totals over the measured runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Answers by status, over the measured runs, where the script tracks them (writes). */
  statusCodes: Record<string, number>;
  /** 2xx answers over warm-up and runs: how many writes a server acknowledged, for instance. */
  ok2xxWithWarmup: number;
}

/** One run of a target: every leg's wrk report, warm-up first. */
export interface Run {
  legs: WrkReport[];
  seconds: number;
  serverCores: number | null;
  databaseCores: number | null;
  clientCores: number;
  otherCores: number | null;
}

/** CPU time the whole machine has spent busy, in seconds, from /proc/stat (null elsewhere). */
export function machineBusySeconds(): number | null {
  try {
    const [cpu = ''] = readFileSync('/proc/stat', 'utf8').split('\n');
    const [user, nice, system, , , irq, softirq, steal] = cpu.split(/\s+/).slice(1).map(Number);
    return (
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) / 100
    );
  } catch {
    return null;
  }
}

/** CPU seconds used so far by all of `sources` together; null if any is unknown. */
function totalCpu(sources: CpuSource[]): number | null {
  let total = 0;
  for (const source of sources) {
    const seconds = source.cpuSeconds();
    if (seconds === null) return null;
    total += seconds;
  }
  return total;
}

/**
 * One wrk against one leg for `seconds`. `seq` numbers the invocation within the case, so that
 * a script's numbers differ from run to run (see wrk-scripts.ts).
 */
async function runLeg(
  leg: Leg,
  where: { index: number; count: number },
  connections: number,
  seconds: number,
  seq: number,
  maxThreads: number,
): Promise<WrkReport> {
  const threads = leg.script.paired === true ? connections : Math.min(maxThreads, connections);
  const url = `${leg.server.url}${leg.script.path}`;
  const args = [
    `-t${threads}`,
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '--timeout',
    '10s',
  ];
  if (leg.script.lua !== null) {
    const file = join(work, `wrk-${leg.server.name.replace(/\W+/g, '-')}-${where.index}.lua`);
    await writeFile(file, leg.script.lua);
    args.push('-s', file, url, '--', String(seq), String(where.index), String(where.count));
    args.push(String(threads));
  } else {
    args.push(url);
  }
  // `times` after wrk gives the CPU wrk used: the client's column.
  const command = `${wrkPath} ${args.map((arg) => `'${arg}'`).join(' ')}; times`;
  const child = spawn('bash', ['-c', command], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await new Promise((resolve) => child.on('close', resolve));
  return parseWrk(output);
}

/** One run of `target` for `seconds`, no warm-up: for a case that is one run. */
export function runOnce(
  target: Target,
  connections: number,
  seconds: number,
  threads?: number,
): Promise<Run> {
  requireWrk();
  return fire(target, { connections, runSeconds: seconds, threads }, 0, null);
}

async function fire(
  target: Target,
  plan: Pick<LoadPlan, 'connections' | 'threads' | 'runSeconds'>,
  seq: number,
  database: CpuSource | null,
): Promise<Run> {
  const { legs } = target;
  const connections = target.connections ?? plan.connections;
  const seconds = plan.runSeconds;
  if (connections % legs.length !== 0) {
    throw new Error(`${connections} connections do not split evenly over ${legs.length} servers`);
  }
  const servers = legs.map((leg) => leg.server);
  const machineBefore = machineBusySeconds();
  const serverBefore = totalCpu(servers);
  const databaseBefore = database?.cpuSeconds() ?? null;
  const reports = await Promise.all(
    legs.map((leg, index) =>
      runLeg(
        leg,
        { index, count: legs.length },
        connections / legs.length,
        seconds,
        seq,
        plan.threads ?? wrkThreads,
      ),
    ),
  );
  const longest = Math.max(...reports.map((report) => report.seconds));
  const per = (before: number | null, after: number | null) =>
    before === null || after === null ? null : (after - before) / longest;
  const serverCores = per(serverBefore, totalCpu(servers));
  const databaseCores = per(databaseBefore, database?.cpuSeconds() ?? null);
  const machineCores = per(machineBefore, machineBusySeconds());
  const clientCores = reports.reduce((sum, report) => sum + report.clientSeconds, 0) / longest;
  const otherCores =
    machineCores === null || serverCores === null
      ? null
      : Math.max(0, machineCores - serverCores - (databaseCores ?? 0) - clientCores);
  return { legs: reports, seconds: longest, serverCores, databaseCores, clientCores, otherCores };
}

/**
 * Warms every target up, then measures them in interleaved rounds (A, B, C, A, B, C, ...), so
 * that a noisy neighbour slowing the machine for a while hurts every server alike. `database`,
 * if given, is the PostgreSQL some of the servers use: its CPU gets a column of its own.
 */
export async function measure(
  targets: Target[],
  plan: LoadPlan,
  log: (line: string) => void,
  database: CpuSource | null = null,
): Promise<Measurement[]> {
  return (await measureRuns(targets, plan, log, database)).measurements;
}

/** `measure`, with every run's wrk reports by target, warm-up first: for write checks. */
export async function measureRuns(
  targets: Target[],
  plan: LoadPlan,
  log: (line: string) => void,
  database: CpuSource | null = null,
): Promise<{ measurements: Measurement[]; runs: Map<Target, Run[]> }> {
  requireWrk();
  const runs = new Map<Target, Run[]>(targets.map((target) => [target, []]));
  let seq = 0;
  for (const target of targets) {
    log(`  warm-up ${target.name} (${plan.warmupSeconds} s)`);
    const warmupPlan = { ...plan, runSeconds: plan.warmupSeconds };
    const warmup = await fire(target, warmupPlan, seq++, database);
    runs.get(target)?.push(warmup);
  }
  for (let round = 1; round <= plan.runs; round++) {
    for (const target of targets) {
      await target.beforeRun?.();
      const run = await fire(target, plan, seq++, database);
      runs.get(target)?.push(run);
      const requests = run.legs.reduce((sum, leg) => sum + leg.requests, 0);
      const shares =
        run.legs.length > 1
          ? ` (${run.legs.map((leg) => Math.round(leg.requests / leg.seconds)).join(' + ')})`
          : '';
      const notOk = run.legs.reduce((sum, leg) => sum + leg.non2xx, 0);
      const errors = run.legs.reduce((sum, leg) => sum + leg.errors + leg.timeouts, 0);
      log(
        `  run ${round}/${plan.runs} ${target.name}: ${Math.round(requests / run.seconds)} req/s${shares}, ` +
          `p99 ${Math.max(...run.legs.map((leg) => leg.p99Ms)).toFixed(2)} ms, non-2xx ${notOk}, ` +
          `errors ${errors}, CPU cores: server ${run.serverCores?.toFixed(2)}, ` +
          `${run.databaseCores === null ? '' : `db ${run.databaseCores.toFixed(2)}, `}` +
          `client ${run.clientCores.toFixed(2)}, other ${run.otherCores?.toFixed(2)}`,
      );
    }
  }
  const measurements = targets.map((target) => summarize(target.name, runs.get(target) ?? []));
  return { measurements, runs };
}

function summarize(name: string, [warmup, ...runs]: Run[]): Measurement {
  const total = (run: Run, value: (leg: WrkReport) => number) =>
    run.legs.reduce((sum, leg) => sum + value(leg), 0);
  const sum = (value: (leg: WrkReport) => number) =>
    runs.reduce((all, run) => all + total(run, value), 0);
  const statusCodes: Record<string, number> = {};
  for (const run of runs) {
    for (const leg of run.legs) {
      for (const [code, count] of leg.statuses) {
        statusCodes[code] = (statusCodes[code] ?? 0) + count;
      }
    }
  }
  const ok2xx = (run: Run) => total(run, (leg) => leg.requests - leg.non2xx);
  return {
    name,
    requestsPerSecond: median(runs.map((run) => total(run, (leg) => leg.requests) / run.seconds)),
    runs: runs.map((run) => total(run, (leg) => leg.requests) / run.seconds),
    perServer: (runs[0]?.legs ?? []).map((_, i) =>
      median(runs.map((run) => (run.legs[i]?.requests ?? 0) / (run.legs[i]?.seconds ?? 1))),
    ),
    p50Ms: median(runs.map((run) => Math.max(...run.legs.map((leg) => leg.p50Ms)))),
    p99Ms: median(runs.map((run) => Math.max(...run.legs.map((leg) => leg.p99Ms)))),
    serverCores: medianOrNull(runs.map((run) => run.serverCores)),
    databaseCores: medianOrNull(runs.map((run) => run.databaseCores)),
    clientCores: median(runs.map((run) => run.clientCores)),
    otherCores: medianOrNull(runs.map((run) => run.otherCores)),
    requests: sum((leg) => leg.requests),
    non2xx: sum((leg) => leg.non2xx),
    errors: sum((leg) => leg.errors),
    timeouts: sum((leg) => leg.timeouts),
    statusCodes,
    ok2xxWithWarmup: runs.reduce((all, run) => all + ok2xx(run), warmup ? ok2xx(warmup) : 0),
  };
}

/** The median over runs of a figure that may be unknown; null if it is unknown in any run. */
function medianOrNull(values: (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : median(values as number[]);
}

/** The value below which a share `p` of the values fall (nearest rank). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

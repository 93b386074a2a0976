import { readFileSync } from 'node:fs';
import autocannon, { type Request, type Result } from 'autocannon';
import type { Server } from './servers.ts';

/** One server and what it is asked, again and again, during a case. */
export interface Leg {
  server: Server;
  /** Created once per leg, so that state in `setupRequest` (counters) lasts across runs. */
  requests: Request[];
}

/** One row of a case's table: one server, or several taking an even share of the load at once. */
export interface Target {
  name: string;
  /** One autocannon instance each, started together, with the connections split evenly. */
  legs: Leg[];
  /**
   * Every request gets its answer: runs send a set number of requests (sized from the previous
   * run's rate to last about `runSeconds`) and wait for all of them, where a timed run would
   * drop the requests in flight at its end. A write case needs this to account for every row.
   */
  answerEvery?: boolean;
}

/** Something whose CPU time can be read, such as PostgreSQL's processes. */
export interface CpuSource {
  cpuSeconds(): number | null;
}

export function single(server: Server, requests: Request[]): Target {
  return { name: server.name, legs: [{ server, requests }] };
}

export interface LoadPlan {
  /** In all, split evenly over a target's legs. */
  connections: number;
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
  /** Medians over the measured runs, in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  /** Medians over the measured runs of CPU used per second, in cores (1 = one core busy). */
  serverCores: number | null;
  /** The same for the database's processes (null when there is none). */
  databaseCores: number | null;
  /** The same for this process, the load generator. */
  clientCores: number;
  /** The same for everything else: other processes and kernel threads (Linux only; else null). */
  otherCores: number | null;
  /** Totals over the measured runs. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** 2xx answers over warm-up and runs: how many writes a server acknowledged, for instance. */
  ok2xxWithWarmup: number;
}

/** One run of a target: its legs' autocannon results together, and the CPU every side used. */
interface Run {
  /** The longest leg's duration. */
  seconds: number;
  requests: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  perServer: number[];
  /** Latencies at full precision, every leg's. */
  latenciesMs: number[];
  serverCores: number | null;
  databaseCores: number | null;
  clientCores: number;
  otherCores: number | null;
}

/** How a run ends: after a duration, or once a number of requests are all answered. */
type Length = { seconds: number } | { amount: number };

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

/** GETs that cycle through `paths`, one after another across all connections. */
export function cycling(paths: string[]): Request[] {
  let next = 0;
  return [
    {
      method: 'GET',
      setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length] ?? '/' }),
    },
  ];
}

/** GETs of a new path for each request, `path(0)`, `path(1)`, ..., across all connections. */
export function numbered(path: (n: number) => string): Request[] {
  let next = 0;
  return [{ method: 'GET', setupRequest: (request) => ({ ...request, path: path(next++) }) }];
}

/** JSON POSTs to `path`, each body made from a fresh sequence number. */
export function posting(path: string, body: (n: number) => unknown): Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: JSON.stringify(body(next++)) }),
    },
  ];
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

/** `total` split into `parts` whole shares that differ by at most one. */
function share(total: number, parts: number, i: number): number {
  return Math.floor(total / parts) + (i < total % parts ? 1 : 0);
}

/**
 * One autocannon instance against one leg. A timed run lasts `result.duration`. A run of a set
 * number of requests lasts until its last answer: autocannon only notices that it is done at its
 * next once-a-second tick, so its own duration is rounded up to whole seconds.
 */
function runLeg(
  leg: Leg,
  connections: number,
  length: Length,
  latenciesMs: number[],
): Promise<{ result: Result; seconds: number }> {
  return new Promise((resolve, reject) => {
    const options = { url: leg.server.url, connections, timeout: 10, requests: leg.requests };
    const until = 'seconds' in length ? { duration: length.seconds } : { amount: length.amount };
    const started = performance.now();
    let lastAnswer = started;
    // autocannon's own histogram keeps whole milliseconds only; the 'response' event has more.
    autocannon({ ...options, ...until }, (error, result) => {
      if (error !== null) return reject(error);
      const seconds = 'seconds' in length ? result.duration : (lastAnswer - started) / 1000;
      resolve({ result, seconds });
    }).on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
      latenciesMs.push(ms);
      lastAnswer = performance.now();
    });
  });
}

async function fire(
  target: Target,
  connections: number,
  length: Length,
  database: CpuSource | null,
): Promise<Run> {
  const { legs } = target;
  if (connections % legs.length !== 0) {
    throw new Error(`${connections} connections do not split evenly over ${legs.length} servers`);
  }
  const servers = legs.map((leg) => leg.server);
  const latenciesMs: number[] = [];
  const machineBefore = machineBusySeconds();
  const serverBefore = totalCpu(servers);
  const databaseBefore = database?.cpuSeconds() ?? null;
  const clientBefore = process.cpuUsage();
  const legRuns = await Promise.all(
    legs.map((leg, i) => {
      const legLength =
        'seconds' in length ? length : { amount: share(length.amount, legs.length, i) };
      return runLeg(leg, connections / legs.length, legLength, latenciesMs);
    }),
  );
  const serverAfter = totalCpu(servers);
  const databaseAfter = database?.cpuSeconds() ?? null;
  const client = process.cpuUsage(clientBefore);
  const machineAfter = machineBusySeconds();
  const results = legRuns.map((run) => run.result);
  const seconds = Math.max(...legRuns.map((run) => run.seconds));
  const cores = (before: number | null, after: number | null) =>
    before === null || after === null ? null : (after - before) / seconds;
  const serverCores = cores(serverBefore, serverAfter);
  const databaseCores = cores(databaseBefore, databaseAfter);
  const clientCores = (client.user + client.system) / 1e6 / seconds;
  const machineCores = cores(machineBefore, machineAfter);
  const otherCores =
    machineCores === null || serverCores === null
      ? null
      : Math.max(0, machineCores - serverCores - (databaseCores ?? 0) - clientCores);
  const statusCodes: Record<string, number> = {};
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  const sum = (value: (result: Result) => number) =>
    results.reduce((total, result) => total + value(result), 0);
  return {
    seconds,
    requests: sum((result) => result.requests.total),
    ok2xx: sum((result) => result['2xx']),
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
    statusCodes,
    perServer: legRuns.map((run) => run.result.requests.total / run.seconds),
    latenciesMs,
    serverCores,
    databaseCores,
    clientCores,
    otherCores,
  };
}

/** Requests per connection in the warm-up of a target whose every request is answered. */
export const warmupRequestsPerConnection = 100;

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
  const warmups = new Map<Target, Run>();
  const runs = new Map<Target, Run[]>(targets.map((target) => [target, []]));
  const lengthOf = (target: Target, seconds: number): Length => {
    if (target.answerEvery !== true) return { seconds };
    const previous = runs.get(target)?.at(-1) ?? warmups.get(target);
    if (previous === undefined) {
      return { amount: plan.connections * warmupRequestsPerConnection };
    }
    const amount = Math.round((previous.requests / previous.seconds) * seconds);
    return { amount: Math.max(plan.connections, amount) };
  };
  for (const target of targets) {
    log(`  warm-up ${target.name} (${plan.warmupSeconds} s)`);
    const length = lengthOf(target, plan.warmupSeconds);
    warmups.set(target, await fire(target, plan.connections, length, database));
  }
  for (let round = 1; round <= plan.runs; round++) {
    for (const target of targets) {
      const length = lengthOf(target, plan.runSeconds);
      const run = await fire(target, plan.connections, length, database);
      runs.get(target)?.push(run);
      const shares =
        run.perServer.length > 1
          ? ` (${run.perServer.map((rate) => Math.round(rate)).join(' + ')})`
          : '';
      log(
        `  run ${round}/${plan.runs} ${target.name}: ${Math.round(run.requests / run.seconds)} req/s${shares}, ` +
          `p99 ${percentile(run.latenciesMs, 0.99).toFixed(2)} ms, non-2xx ${run.non2xx}, ` +
          `errors ${run.errors}, CPU cores: server ${run.serverCores?.toFixed(2)}, ` +
          `${run.databaseCores === null ? '' : `db ${run.databaseCores.toFixed(2)}, `}` +
          `client ${run.clientCores.toFixed(2)}, other ${run.otherCores?.toFixed(2)}`,
      );
    }
  }
  return targets.map((target) =>
    summarize(target.name, runs.get(target) ?? [], warmups.get(target)),
  );
}

/** The median over runs of a figure that may be unknown; null if it is unknown in any run. */
function medianOrNull(values: (number | null)[]): number | null {
  return values.some((value) => value === null) ? null : median(values as number[]);
}

function summarize(name: string, runs: Run[], warmup: Run | undefined): Measurement {
  const statusCodes: Record<string, number> = {};
  for (const run of runs) {
    for (const [code, count] of Object.entries(run.statusCodes)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  const sum = (value: (run: Run) => number) => runs.reduce((total, run) => total + value(run), 0);
  const rates = runs.map((run) => run.requests / run.seconds);
  const legs = runs[0]?.perServer.length ?? 0;
  return {
    name,
    requestsPerSecond: median(rates),
    runs: rates,
    perServer: Array.from({ length: legs }, (_, i) =>
      median(runs.map((run) => run.perServer[i] ?? Number.NaN)),
    ),
    p50Ms: median(runs.map((run) => percentile(run.latenciesMs, 0.5))),
    p99Ms: median(runs.map((run) => percentile(run.latenciesMs, 0.99))),
    serverCores: medianOrNull(runs.map((run) => run.serverCores)),
    databaseCores: medianOrNull(runs.map((run) => run.databaseCores)),
    clientCores: median(runs.map((run) => run.clientCores)),
    otherCores: medianOrNull(runs.map((run) => run.otherCores)),
    requests: sum((run) => run.requests),
    non2xx: sum((run) => run.non2xx),
    errors: sum((run) => run.errors),
    timeouts: sum((run) => run.timeouts),
    statusCodes,
    ok2xxWithWarmup: sum((run) => run.ok2xx) + (warmup?.ok2xx ?? 0),
  };
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

import { readFileSync } from 'node:fs';
import autocannon, { type Request, type Result } from 'autocannon';
import type { Server } from './servers.ts';

/** What one server is asked, again and again, during a case. */
export interface Target {
  server: Server;
  /** Created once per target, so that state in `setupRequest` (counters) lasts across runs. */
  requests: Request[];
}

export interface LoadPlan {
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
  /** Medians over the measured runs, in milliseconds. */
  p50Ms: number;
  p99Ms: number;
  /** Medians over the measured runs of CPU used per second, in cores (1 = one core busy). */
  serverCores: number | null;
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

/** One autocannon run, with latencies at full precision and the CPU both sides used. */
interface Run {
  result: Result;
  latenciesMs: number[];
  serverCores: number | null;
  clientCores: number;
  otherCores: number | null;
}

/** CPU time the whole machine has spent busy, in seconds, from /proc/stat (null elsewhere). */
function machineBusySeconds(): number | null {
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

async function fire(target: Target, connections: number, seconds: number): Promise<Run> {
  const { server, requests } = target;
  const latenciesMs: number[] = [];
  const machineBefore = machineBusySeconds();
  const serverBefore = server.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const result = await new Promise<Result>((resolve, reject) => {
    const options = { url: server.url, connections, duration: seconds, timeout: 10, requests };
    // autocannon's own histogram keeps whole milliseconds only; the 'response' event has more.
    autocannon(options, (error, result) => (error === null ? resolve(result) : reject(error))).on(
      'response',
      (_client: unknown, _status: number, _bytes: number, ms: number) => latenciesMs.push(ms),
    );
  });
  const serverAfter = server.cpuSeconds();
  const client = process.cpuUsage(clientBefore);
  const machineAfter = machineBusySeconds();
  const elapsed = result.duration;
  const serverCores =
    serverBefore === null || serverAfter === null ? null : (serverAfter - serverBefore) / elapsed;
  const clientCores = (client.user + client.system) / 1e6 / elapsed;
  const otherCores =
    machineBefore === null || machineAfter === null || serverCores === null
      ? null
      : Math.max(0, (machineAfter - machineBefore) / elapsed - serverCores - clientCores);
  return { result, latenciesMs, serverCores, clientCores, otherCores };
}

/**
 * Warms every target up, then measures them in interleaved rounds (A, B, C, A, B, C, ...), so
 * that a noisy neighbour slowing the machine for a while hurts every server alike.
 */
export async function measure(
  targets: Target[],
  plan: LoadPlan,
  log: (line: string) => void,
): Promise<Measurement[]> {
  const warmups = new Map<Target, Run>();
  for (const target of targets) {
    log(`  warm-up ${target.server.name} (${plan.warmupSeconds} s)`);
    warmups.set(target, await fire(target, plan.connections, plan.warmupSeconds));
  }
  const runs = new Map<Target, Run[]>(targets.map((target) => [target, []]));
  for (let round = 1; round <= plan.runs; round++) {
    for (const target of targets) {
      const run = await fire(target, plan.connections, plan.runSeconds);
      runs.get(target)?.push(run);
      const { result } = run;
      log(
        `  run ${round}/${plan.runs} ${target.server.name}: ${Math.round(perSecond(result))} req/s, ` +
          `p99 ${percentile(run.latenciesMs, 0.99).toFixed(2)} ms, non-2xx ${result.non2xx}, ` +
          `errors ${result.errors}, CPU cores: server ${run.serverCores?.toFixed(2)}, ` +
          `client ${run.clientCores.toFixed(2)}, other ${run.otherCores?.toFixed(2)}`,
      );
    }
  }
  return targets.map((target) =>
    summarize(target.server.name, runs.get(target) ?? [], warmups.get(target)),
  );
}

function perSecond(result: Result): number {
  return result.requests.total / result.duration;
}

function summarize(name: string, runs: Run[], warmup: Run | undefined): Measurement {
  const results = runs.map((run) => run.result);
  const statusCodes: Record<string, number> = {};
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats)) {
      statusCodes[code] = (statusCodes[code] ?? 0) + count;
    }
  }
  const sum = (value: (result: Result) => number) =>
    results.reduce((total, result) => total + value(result), 0);
  return {
    name,
    requestsPerSecond: median(results.map(perSecond)),
    runs: results.map(perSecond),
    p50Ms: median(runs.map((run) => percentile(run.latenciesMs, 0.5))),
    p99Ms: median(runs.map((run) => percentile(run.latenciesMs, 0.99))),
    serverCores: runs.some((run) => run.serverCores === null)
      ? null
      : median(runs.map((run) => run.serverCores ?? 0)),
    clientCores: median(runs.map((run) => run.clientCores)),
    otherCores: runs.some((run) => run.otherCores === null)
      ? null
      : median(runs.map((run) => run.otherCores ?? 0)),
    requests: sum((result) => result.requests.total),
    non2xx: sum((result) => result.non2xx),
    errors: sum((result) => result.errors),
    timeouts: sum((result) => result.timeouts),
    statusCodes,
    ok2xxWithWarmup: sum((result) => result['2xx']) + (warmup?.result['2xx'] ?? 0),
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

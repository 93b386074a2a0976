import { cpus } from 'node:os';
import type { LoadPlan, Measurement } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { errorLines, loadTable } from './report.ts';

/** How a load case's table is introduced: its plan and what its columns mean. */

/** What the CPU columns mean; shared with case f. */
export const cpuLegend = [
  `CPU: cores busy during the runs (of ${cpus().length}): the server (child process), db: PostgreSQL's`,
  'processes (which only the PostgreSQL rows use), the client (wrk, the load generator), and other:',
  'other processes (noise) plus kernel threads such as loopback networking and the disk journal,',
  'which the servers themselves cause in part.',
];

export interface CaseResult {
  title: string;
  connections: number;
  measurements: Measurement[];
}

export type Timing = Omit<LoadPlan, 'connections'>;

export function describePlan(plan: LoadPlan): string {
  const runs = `${plan.runs} run${plan.runs === 1 ? '' : 's'} of ${plan.runSeconds} s`;
  return `${plan.connections} connections, pipelining 1; per server ${plan.warmupSeconds} s warm-up, then ${runs}, servers interleaved; req/s and latencies are medians over the runs`;
}

const legend = [
  'ratios: the first sheetport row divided by each row (req/s ratio > 1 and p99 ratio < 1 favour it);',
  ...cpuLegend,
];

/**
 * Measures one load case and prints its table: the title, what the case does (`lines`), the
 * plan, the legend, then the figures.
 */
export async function runCase(
  title: string,
  lines: string[],
  plan: LoadPlan,
  load: () => Promise<Measurement[]>,
) {
  log(`\n${title}`);
  const measurements = await load();
  print(`\n== ${title} ==`);
  for (const line of [...lines, describePlan(plan), ...legend]) print(line);
  print();
  print(loadTable(measurements));
  for (const line of errorLines(measurements)) print(line);
  return { title, connections: plan.connections, measurements };
}

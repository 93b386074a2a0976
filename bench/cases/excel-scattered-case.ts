import type { CellInput } from '../../test/graph-emulator/index.ts';
import { withExcelBench } from '../harness/excel-bench.ts';
import { log, print } from '../harness/output.ts';
import { target, targetLine, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case u: one filtered DELETE of 300 rows lying in 60 runs of an Excel worksheet, under a burst
 * of 429s from Graph, with the default settings (a 30 s deadline, 120 writes a minute). The runs
 * go as chained `$batch` requests of up to 20; the case checks that the delete answers 200
 * within the deadline, and that afterwards the worksheet and the copy hold every other row once
 * and none of the deleted ones.
 *
 * Run alone (after `npm run build`): `node --import tsx bench/cases/excel-scattered-case.ts
 * [runs] [rows per run] [storm seconds]`.
 */
export interface ScatteredPlan {
  runs: number;
  rowsPerRun: number;
  /** How long every Graph request is answered 429 (Retry-After 1) once the delete starts. */
  stormSeconds: number;
}

export interface ScatteredResult {
  plan: ScatteredPlan;
  status: number;
  deleted: number;
  elapsedMs: number;
  upstream: { requests: number; batches: number; throttled: number; deletesApplied: number };
  verification: { lost: number; doubled: number; leftOver: number; copyDiffers: boolean };
}

const tab = 'Rows';
const deadlineMs = 30_000;

export async function excelScatteredRun(plan: ScatteredPlan): Promise<ScatteredResult> {
  // Runs of `rowsPerRun` rows to delete, each followed by as many to keep.
  const rows: CellInput[][] = [['name', 'gone']];
  for (let run = 0; run < plan.runs; run++) {
    for (let i = 0; i < plan.rowsPerRun; i++) rows.push([`d${run}-${i}`, true]);
    for (let i = 0; i < plan.rowsPerRun; i++) rows.push([`k${run}-${i}`, false]);
  }
  const worksheets = [{ name: tab, rows }];
  const workbook = { name: 'excel-scattered', workbook: 'Scattered.xlsx', worksheets };
  return withExcelBench(workbook, async (bench) => {
    const { emulator, ref } = bench;
    const server = await bench.startServer('sheetport');
    const id = await bench.connect(server, tab, 'scattered');
    emulator.resetRequests();
    emulator.failNext(1_000_000, { status: 429, retryAfterSeconds: 1 });
    const storm = setTimeout(() => emulator.clearFaults(), plan.stormSeconds * 1000);
    const started = performance.now();
    const answer = await fetch(`${server.url}/api/v1/${id}?gone=true`, { method: 'DELETE' });
    const elapsedMs = performance.now() - started;
    clearTimeout(storm);
    emulator.clearFaults();
    const body = (await answer.json()) as { deleted?: number };
    const traffic = emulator.requests();
    const left = emulator.values(ref, tab).slice(1);
    const copy = (await (await fetch(`${server.url}/api/v1/${id}`)).json()) as {
      name: string;
    }[];
    const names = left.map((row) => String(row[0]));
    const kept = rows.slice(1).filter((row) => row[1] === false);
    const count = (name: string) => names.filter((each) => each === name).length;
    return {
      plan,
      status: answer.status,
      deleted: body.deleted ?? 0,
      elapsedMs,
      upstream: {
        requests: traffic.filter((r) => r.batchRequestId === undefined).length,
        batches: traffic.filter((r) => r.kind === 'batch').length,
        throttled: traffic.filter((r) => r.status === 429).length,
        deletesApplied: traffic.filter((r) => r.path.endsWith('/delete') && r.applied).length,
      },
      verification: {
        lost: kept.filter((row) => count(String(row[0])) === 0).length,
        doubled: kept.filter((row) => count(String(row[0])) > 1).length,
        leftOver: names.filter((name) => name.startsWith('d')).length,
        copyDiffers: JSON.stringify(copy.map((row) => row.name)) !== JSON.stringify(names),
      },
    };
  });
}

/** The case as `npm run bench` runs it: its table printed, its targets answered. */
export async function excelScatteredCase(
  plan: ScatteredPlan,
): Promise<ScatteredResult & { targets: TargetOutcome[] }> {
  const rows = plan.runs * plan.rowsPerRun;
  const title = `u. Excel scattered delete: ${rows} rows in ${plan.runs} runs under a ${plan.stormSeconds} s 429 storm`;
  log(`\n${title}`);
  const result = await excelScatteredRun(plan);
  const { upstream, verification } = result;
  print(`\n== ${title} ==`);
  print(
    `answer ${result.status}, ${result.deleted} deleted, in ${Math.round(result.elapsedMs)} ms`,
  );
  print(
    `Graph: ${upstream.requests} HTTP requests (${upstream.batches} $batch), ${upstream.throttled} answers 429 (inside batches too), ${upstream.deletesApplied} range deletes applied`,
  );
  print(
    `worksheet: ${verification.lost} kept rows lost, ${verification.doubled} doubled, ${verification.leftOver} deleted rows left; copy ${verification.copyDiffers ? 'DIFFERS from' : 'equals'} the worksheet`,
  );
  const wrong = verification.lost + verification.doubled + verification.leftOver;
  const targets = [
    target('scattered delete answered 200 (status)', '=', 200, result.status, 'count'),
    target('scattered delete within the default deadline', '<', deadlineMs, result.elapsedMs, 'ms'),
    target(
      'rows lost, doubled or left after the scattered delete',
      '=',
      0,
      wrong + (verification.copyDiffers ? 1 : 0),
      'count',
    ),
  ];
  return { ...result, targets };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [runs = 60, rowsPerRun = 5, stormSeconds = 3] = process.argv.slice(2).map(Number);
  const { targets } = await excelScatteredCase({ runs, rowsPerRun, stormSeconds });
  print();
  for (const outcome of targets) print(targetLine(outcome));
}

import type { RequestRecord } from '../../test/graph-emulator/index.ts';
import { withExcelBench } from '../harness/excel-bench.ts';
import { percentile } from '../harness/load.ts';
import { log, print } from '../harness/output.ts';
import { refusalCounts, runWriters, writerColumns, type Sent } from '../harness/writers.ts';
import { describeExcelPlan, excelLines, excelTargets } from '../reports/excel-report.ts';
import { targetLine, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case p, the Excel variant of case e: many clients writing to a sheet mirrored from an Excel
 * worksheet, through the Microsoft Graph emulator (in this process) with a per-application
 * throttling limit. Every answer is recorded, and afterwards the worksheet is checked row by row
 * against what was sent and acknowledged: no acknowledged row missing, none twice, none refused
 * but written.
 *
 * Run alone (after `npm run build`): `node --import tsx bench/cases/excel-case.ts [writers]
 * [seconds] [Graph requests per minute] [SHEETPORT_MICROSOFT_WRITES_PER_MINUTE]`.
 */

export interface ExcelPlan {
  writers: number;
  /** How long new requests are started; the ones in flight then are waited for. */
  seconds: number;
  /** Graph requests the emulator lets the application make per minute (each counts). */
  requestsPerMinute: number;
  /** SHEETPORT_ variables beyond the connection to the emulator. */
  settings: Record<string, string>;
  /** Acknowledged API writes per minute to reach. */
  targetPerMinute: number;
}

export interface ExcelResult {
  plan: ExcelPlan;
  /** From the first request to the last answer, in seconds. */
  elapsedSeconds: number;
  requests: number;
  acknowledged: number;
  acknowledgedPerMinute: number;
  /** Answers other than 201, by status and problem code. */
  refusals: Record<string, number>;
  latency: { p50Ms: number; p99Ms: number; maxMs: number };
  upstream: { requests: number; writes: number; throttled: number; rowsPerWrite: number };
  verification: {
    rows: number;
    missing: number;
    duplicated: number;
    refusedButWritten: number;
    ok: boolean;
  };
}

const tab = 'Writes';

export async function excelWriteCase(plan: ExcelPlan): Promise<ExcelResult> {
  const worksheets = [{ name: tab, rows: [writerColumns] }];
  return withExcelBench({ name: 'excel', workbook: 'Bench.xlsx', worksheets }, async (bench) => {
    const server = await bench.startServer('sheetport', plan.settings);
    const id = await bench.connect(server, tab);
    const { emulator, ref } = bench;
    emulator.throttle = { requestsPerWindow: plan.requestsPerMinute, windowMs: 60_000 };
    emulator.resetRequests();
    log(
      `  ${plan.writers} writers for ${plan.seconds} s, Graph limit ${plan.requestsPerMinute}/min`,
    );
    const sent = await runWriters(`${server.url}/api/v1/${id}`, plan);
    const rows = emulator.values(ref, tab).slice(1);
    return summarize(plan, sent, emulator.requests(), rows);
  });
}

function summarize(
  plan: ExcelPlan,
  sent: Sent[],
  upstream: RequestRecord[],
  rows: (string | number | boolean)[][],
): ExcelResult {
  const key = (writer: unknown, seq: unknown) => `${String(writer)}:${String(seq)}`;
  const copies = new Map<string, number>();
  for (const [writer, seq] of rows) {
    copies.set(key(writer, seq), (copies.get(key(writer, seq)) ?? 0) + 1);
  }
  const acknowledged = sent.filter((s) => s.status === 201);
  const missing = acknowledged.filter((s) => !copies.has(key(s.writer, s.seq))).length;
  const refusedButWritten = sent.filter(
    (s) => s.status !== 201 && s.status !== 0 && copies.has(key(s.writer, s.seq)),
  ).length;
  const duplicated = [...copies.values()].reduce((sum, count) => sum + count - 1, 0);
  const elapsedSeconds = Math.max(...sent.map((s) => s.endMs)) / 1000;
  const latencies = sent.map((s) => s.endMs - s.startMs);
  const writes = upstream.filter((r) => r.method === 'PATCH' && r.applied);
  return {
    plan,
    elapsedSeconds,
    requests: sent.length,
    acknowledged: acknowledged.length,
    acknowledgedPerMinute: (acknowledged.length / elapsedSeconds) * 60,
    refusals: refusalCounts(sent),
    latency: {
      p50Ms: percentile(latencies, 0.5),
      p99Ms: percentile(latencies, 0.99),
      maxMs: Math.max(...latencies),
    },
    upstream: {
      requests: upstream.length,
      writes: writes.length,
      throttled: upstream.filter((r) => r.status === 429).length,
      rowsPerWrite: writes.length === 0 ? 0 : rows.length / writes.length,
    },
    verification: {
      rows: rows.length,
      missing,
      duplicated,
      refusedButWritten,
      ok: missing + duplicated + refusedButWritten === 0,
    },
  };
}

/** The case as `npm run bench` runs it: its table printed, its targets answered. */
export async function excelCase(
  plan: ExcelPlan,
): Promise<ExcelResult & { targets: TargetOutcome[] }> {
  const title = `p. Excel, the Excel variant of case e: ${plan.writers} writers under a Graph throttling limit`;
  log(`\n${title}`);
  const result = await excelWriteCase(plan);
  print(`\n== ${title} ==`);
  for (const line of describeExcelPlan(plan)) print(line);
  print();
  for (const line of excelLines(result)) print(line);
  return { ...result, targets: excelTargets(result) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [writers = 50, seconds = 30, limit = 120, pushes] = process.argv.slice(2).map(Number);
  const settings: Record<string, string> =
    pushes === undefined ? {} : { SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: String(pushes) };
  const plan = { writers, seconds, requestsPerMinute: limit, settings, targetPerMinute: 1200 };
  const { targets } = await excelCase(plan);
  print();
  for (const outcome of targets) print(targetLine(outcome));
}

import type { ExcelPlan, ExcelResult } from '../cases/excel-case.ts';
import { formatRate } from './report.ts';
import { target, type TargetOutcome } from './targets.ts';

/** How case p, the Excel variant of case e, reads when printed. */

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

export function describeExcelPlan(plan: ExcelPlan): string[] {
  const settings = Object.entries(plan.settings).map(([name, value]) => `${name}=${value}`);
  return [
    `Sheetport (node dist/cli.js serve, a fresh data directory) mirrors one worksheet of a workbook in the Microsoft`,
    `Graph emulator (test/graph-emulator, in this process, on 127.0.0.1), which refuses more than`,
    `${integer.format(plan.requestsPerMinute)} Graph requests of the application a minute with Graph's 429.`,
    `Sheetport's Excel settings: ${settings.length === 0 ? 'the defaults' : settings.join(', ')}.`,
    `${plan.writers} writers (fetch, in this process) each POST one row {writer, seq, at} to /api/v1/<id> and wait`,
    `for the answer before sending the next; new requests start for ${plan.seconds} s, then the ones in flight are waited`,
    `for. Per-minute figures divide by the time from the first request to the last answer. Afterwards every row`,
    `of the worksheet is checked against what was sent and how it was answered.`,
  ];
}

export function excelLines(result: ExcelResult): string[] {
  const { upstream, latency, verification: check } = result;
  const refusals = Object.entries(result.refusals)
    .map(([label, count]) => `${label}: ${integer.format(count)}`)
    .join(', ');
  const ms = (value: number) => `${integer.format(value)} ms`;
  const lines: [string, string][] = [
    [
      'API writes acknowledged',
      `${integer.format(result.acknowledged)} of ${integer.format(result.requests)} requests in ${result.elapsedSeconds.toFixed(1)} s`,
    ],
    ['API writes per minute', formatRate(result.acknowledgedPerMinute)],
    [
      'Graph requests',
      `${integer.format(upstream.requests)}, of which ${integer.format(upstream.writes)} applied writes and ${integer.format(upstream.throttled)} answered 429`,
    ],
    ['rows per upstream write', oneDecimal.format(upstream.rowsPerWrite)],
    [
      'client latency',
      `p50 ${ms(latency.p50Ms)}, p99 ${ms(latency.p99Ms)}, max ${ms(latency.maxMs)}`,
    ],
    ['answers other than 201', refusals === '' ? 'none' : refusals],
    [
      'worksheet check',
      `${check.ok ? 'ok' : 'FAILED'}: ${integer.format(check.rows)} rows under the header; ${integer.format(check.missing)} acknowledged rows missing, ${integer.format(check.duplicated)} duplicated, ${integer.format(check.refusedButWritten)} written though refused`,
    ],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  return lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`);
}

/** Writes per minute against the target, and the worksheet's check, as two targets. */
export function excelTargets(result: ExcelResult): TargetOutcome[] {
  const { verification: check } = result;
  const refused = Object.values(result.refusals).reduce((sum, count) => sum + count, 0);
  return [
    target(
      'p. Excel: acknowledged API writes per minute',
      '>=',
      result.plan.targetPerMinute,
      result.acknowledgedPerMinute,
      'count',
      { detail: `Graph limit ${integer.format(result.plan.requestsPerMinute)} requests a minute` },
    ),
    target(
      'p. Excel: acknowledged rows lost or duplicated, rows written though refused, answers other than 201',
      '=',
      0,
      check.missing + check.duplicated + check.refusedButWritten + refused,
      'count',
    ),
  ];
}

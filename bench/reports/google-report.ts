import type { GooglePlan, GoogleResult } from '../cases/google-case.ts';
import { formatRate, table } from './report.ts';
import { target, type TargetOutcome } from './targets.ts';

/** How case e reads when printed: what was run, the figures, and the check of the spreadsheet. */

const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });

function ms(value: number): string {
  return value < 100 ? `${value.toFixed(1)} ms` : `${integer.format(value)} ms`;
}

/** The emulator's quota as writes per minute, the unit the target is stated in. */
export function quotaPerMinute({ quota }: GooglePlan): number {
  return (quota.writesPerWindow * 60_000) / quota.windowMs;
}

export function describeGooglePlan(plan: GooglePlan): string[] {
  const { quota } = plan;
  const settings = Object.entries(plan.settings).map(([name, value]) => `${name}=${value}`);
  return [
    `Sheetport (node dist/cli.js serve, a fresh data directory) mirrors one tab of a spreadsheet in the Google Sheets`,
    `API v4 emulator (test/google-emulator, in this process, on 127.0.0.1), which refuses more than`,
    `${quota.writesPerWindow} write requests per principal in any ${integer.format(quota.windowMs)} ms with Google's 429.`,
    `Sheetport's Google settings: ${settings.length === 0 ? 'the defaults (60 writes per minute, deadline 30 s)' : `${settings.join(', ')}, deadline 30 s`}.`,
    `${plan.writers} writers (fetch, in this process) each POST one row {writer, seq, at} to /api/v1/<id> and wait`,
    `for the answer before sending the next; new requests start for ${plan.seconds} s, then the ones in flight are waited`,
    `for. Per-minute figures divide by the time from the first request to the last answer. Afterwards every row`,
    `of the spreadsheet is checked against what was sent and how it was answered.`,
  ];
}

export function googleLines(result: GoogleResult): string[] {
  const { upstream, latency } = result;
  const refusals = Object.entries(result.refusals)
    .map(([label, count]) => `${label}: ${integer.format(count)}`)
    .join(', ');
  const perWrite = upstream.writes === 0 ? 0 : result.acknowledged / upstream.writes;
  const { rowsPerWrite: rows } = upstream;
  const lines: [string, string][] = [
    [
      'API writes acknowledged',
      `${integer.format(result.acknowledged)} of ${integer.format(result.requests)} requests in ${result.elapsedSeconds.toFixed(1)} s`,
    ],
    ['API writes per minute', formatRate(result.acknowledgedPerMinute)],
    [
      'upstream write requests',
      `${integer.format(upstream.writes)}, ${formatRate(upstream.writesPerMinute)} per minute (quota ${formatRate(quotaPerMinute(result.plan))})`,
    ],
    [
      'upstream 429s',
      `${integer.format(upstream.quota429s)} (emulator refusals of any kind: ${integer.format(upstream.rejected)})`,
    ],
    [
      'API writes per upstream write',
      `${oneDecimal.format(perWrite)} (rows per upstream write: min ${rows.min}, median ${rows.median}, max ${rows.max})`,
    ],
    [
      'client latency',
      `p50 ${ms(latency.p50Ms)}, p99 ${ms(latency.p99Ms)}, max ${ms(latency.maxMs)}`,
    ],
    ['answers other than 201', refusals === '' ? 'none' : refusals],
    ['spreadsheet check', checkLine(result)],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  return [
    ...lines.map(([label, value]) => `${label.padEnd(width)}  ${value}`),
    '',
    `When answers came and upstream writes were applied (seconds from the first request):`,
    '',
    timelineTable(result),
  ];
}

function checkLine({ verification: check }: GoogleResult): string {
  const counts = [
    `${integer.format(check.missing)} acknowledged rows missing`,
    `${integer.format(check.duplicated)} duplicated`,
    `${integer.format(check.unknown)} not sent or altered`,
    `${integer.format(check.refusedButWritten)} written though refused`,
    `${integer.format(check.unansweredWritten)} written without an answer`,
  ];
  const header = check.headerKept ? '' : ', HEADER ROW CHANGED';
  const verdict = check.ok ? 'ok' : 'FAILED';
  return `${verdict}: ${integer.format(check.rowsInSheet)} rows under the header; ${counts.join(', ')}${header}`;
}

function timelineTable({ timeline, elapsedSeconds }: GoogleResult): string {
  const rows = timeline.map((slice, i) => {
    const to = timeline[i + 1]?.fromSecond ?? elapsedSeconds;
    return [
      `${oneDecimal.format(slice.fromSecond)}-${oneDecimal.format(to)}`,
      integer.format(slice.acknowledged),
      integer.format(slice.upstreamWrites),
    ];
  });
  return table(['seconds', 'API writes acknowledged', 'upstream writes'], rows);
}

/** Writes per minute against the target, and the spreadsheet's check, as two targets. */
export function googleTargets(result: GoogleResult): TargetOutcome[] {
  const quota = quotaPerMinute(result.plan);
  const times = (value: number) => `${oneDecimal.format(value / quota)}x the quota`;
  const { verification: check } = result;
  const refused = Object.values(result.refusals).reduce((sum, count) => sum + count, 0);
  return [
    target(
      'e. Google: acknowledged API writes per minute',
      '>=',
      result.plan.targetPerMinute,
      result.acknowledgedPerMinute,
      'count',
      {
        detail: `${times(result.acknowledgedPerMinute)}; goal ${times(result.plan.targetPerMinute)}`,
      },
    ),
    target(
      'e. Google: acknowledged rows lost or duplicated, rows written though refused, answers other than 201',
      '=',
      0,
      check.missing + check.duplicated + check.unknown + check.refusedButWritten + refused,
      'count',
      check.headerKept ? {} : { caveat: 'and the header row changed' },
    ),
  ];
}

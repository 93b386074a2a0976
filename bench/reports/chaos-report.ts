import type { ChaosResult, ChaosRun } from '../cases/chaos-case.ts';
import { percentile } from '../harness/load.ts';
import { print } from '../harness/output.ts';
import { table } from './report.ts';

/** How case k reads when printed: what was run, the answers, the upstream log and the checks. */

const integer = (n: number) => Math.round(n).toLocaleString('en');
const seconds = (ms: number) => (ms / 1000).toFixed(1);

export function printChaos(result: ChaosResult): void {
  const [first] = result.runs;
  if (first === undefined) return;
  const { plan } = first;
  const rates = result.faultRates;
  const share = (p: number | undefined) => `${((p ?? 0) * 100).toFixed(0)}%`;
  print(`\n== k. Chaos: ${plan.writers} writers to a Google sheet while Google's answers fail ==`);
  for (const line of [
    `Sheetport (SHEETPORT_CACHE_SIZE=0, Google defaults: 60 writes per minute, deadline 30 s) mirrors one tab of the`,
    `emulator, which keeps Google's quota (60 write requests per minute) and fails write requests at random (seed ${rates.seed}):`,
    `${share(rates.status429)} answered 429 before applying, ${share(rates.after500)} applied then answered 500, ${share(rates.afterReset)} applied then reset unanswered,`,
    `${share(rates.lateApply)} held unanswered and applied 5 s later (after Sheetport gave up on them), and ${share(rates.slowMs?.probability)} answered ${rates.slowMs?.ms ?? 0} ms late.`,
    `Meanwhile a person edits the tab every half second: inserts a row of their own, deletes one of theirs, or moves any row.`,
    `The sheet is connected with freshnessSeconds 86400, so a read answers Sheetport's copy unless Sheetport itself doubts it.`,
    `${plan.writers} writers each POST one row {id, writer, seq, attempt, at} and wait; every fifth then PATCHes its row by id (?id=),`,
    `setting at to "patched:<id>". A 429, 503 or 504 sends the same request again (attempt + 1) after its Retry-After, 3 times`,
    `at most; after a 504 only if a read shows the change is not there. New rows start`,
    `for ${plan.seconds} s; retries and answers in flight are waited for. On PostgreSQL, the database is stopped (fast shutdown)`,
    `in the middle for ${plan.outageSeconds} s and started again on the same data and port. Afterwards the spreadsheet is matched`,
    `row by row with what was sent and answered, and GET all rows from Sheetport (after a refresh, which the person's last`,
    `edits need) with the spreadsheet, position by position.`,
  ]) {
    print(line);
  }
  for (const run of result.runs) printRun(run);
}

function printRun(run: ChaosRun): void {
  const { checks, upstream } = run;
  const outage =
    run.outage === null
      ? ''
      : `, PostgreSQL down from ${seconds(run.outage.fromMs)} s to ${seconds(run.outage.toMs)} s`;
  const losses =
    run.lockLosses === undefined
      ? ''
      : `, a sheet lock's connection ended ${run.lockLosses} times mid-run (writers alternate between the servers)`;
  print(`\n-- ${run.store}${outage}${losses} --`);
  const latencies = run.attempts.map((attempt) => attempt.endMs - attempt.startMs);
  const acknowledgedAt = run.attempts
    .filter((attempt) => attempt.status === 201)
    .map((attempt) => attempt.endMs)
    .sort((a, b) => a - b);
  let longestGap = 0;
  for (let i = 1; i < acknowledgedAt.length; i++) {
    longestGap = Math.max(longestGap, (acknowledgedAt[i] ?? 0) - (acknowledgedAt[i - 1] ?? 0));
  }
  const lines: [string, string][] = [
    [
      'rows sent',
      `${integer(checks.rowsSent)} in ${integer(run.attempts.length)} requests over ${seconds(run.elapsedMs)} s`,
    ],
    ['rows acknowledged (201)', integer(checks.acknowledged)],
    [
      'client latency',
      `p50 ${integer(percentile(latencies, 0.5))} ms, p99 ${integer(percentile(latencies, 0.99))} ms, max ${integer(Math.max(...latencies))} ms; longest wait between two 201s ${integer(longestGap)} ms`,
    ],
    [
      'upstream write requests',
      `${integer(upstream.writeRequests)}; applied (emulator log) ${integer(upstream.applied)}, of which ${integer(upstream.appliedUnacknowledged)} with the answer lost or an error; ${integer(upstream.rowsApplied)} requests inside the applied batchUpdates`,
    ],
    [
      'faults injected, refusals',
      Object.entries(upstream.faults)
        .map(([label, count]) => `${label} ${integer(count)}`)
        .join(', ') || 'none',
    ],
    [
      'check-to-write window',
      `p50 ${integer(upstream.checkWindowMs.p50)} ms, p99 ${integer(upstream.checkWindowMs.p99)} ms, max ${integer(upstream.checkWindowMs.max)} ms from the last read of the tab before each applied write to that write reaching Google`,
    ],
    ['rows in the spreadsheet', integer(checks.rowsInSpreadsheet)],
    ['acknowledged rows missing', integer(checks.missing)],
    [
      'rows present more than once',
      `${integer(checks.extraCopies)} extra copies: ${integer(checks.sameAttemptTwice)} of one request applied twice, ${integer(checks.retriesBothApplied)} of a row retried after an answer that did not say, both attempts landed`,
    ],
    [
      'written though refused',
      `${integer(checks.writtenThoughRefused)} rows whose every answer said nothing changed`,
    ],
    ['rows no request sent', integer(checks.unknown)],
    [
      'the person',
      `${integer(run.person.inserted)} rows inserted, ${integer(run.person.deleted)} deleted, ${integer(run.person.moved)} moved; ${integer(checks.personRows)} of theirs left`,
    ],
    [
      'PATCHes by id',
      `${integer(run.patches.length)} requests, ${integer(checks.patchesAcknowledged)} acknowledged; ${integer(checks.patchesMissing)} acknowledged but not in the spreadsheet; ${integer(checks.misplaced)} rows misplaced (patched under another id)`,
    ],
    [
      "Sheetport's copy",
      `${integer(checks.copyRows)} rows; ${integer(checks.copyDifferences)} positions differ from the spreadsheet`,
    ],
  ];
  const width = Math.max(...lines.map(([label]) => label.length));
  for (const [label, value] of lines) print(`${label.padEnd(width)}  ${value}`);
  print('\nAnswers the writers got, every attempt counted:');
  print(
    table(
      ['answer', 'requests'],
      Object.entries(run.answers)
        .sort(([, a], [, b]) => b - a)
        .map(([label, count]) => [label, integer(count)]),
    ),
  );
  print('\nTimeline (seconds from the first request):');
  print(timeline(run));
}

function timeline(run: ChaosRun): string {
  const slices = 6;
  const sliceMs = (run.plan.seconds * 1000) / slices;
  const count = run.elapsedMs > run.plan.seconds * 1000 ? slices + 1 : slices;
  const rows = Array.from({ length: count }, () => ({ ok: 0, other: 0, applied: 0, faults: 0 }));
  const at = (ms: number) => rows[Math.max(0, Math.min(count - 1, Math.floor(ms / sliceMs)))];
  for (const attempt of [...run.attempts, ...run.patches]) {
    const row = at(attempt.endMs);
    if (row === undefined) continue;
    if (attempt.status === 201 || attempt.status === 200) row.ok++;
    else row.other++;
  }
  for (const record of run.log) {
    if (record.kind !== 'write') continue;
    const row = at(record.at - run.startEpochMs);
    if (row === undefined) continue;
    if (record.applied) row.applied++;
    if (record.fault !== undefined) row.faults++;
  }
  return table(
    ['seconds', '201/200 answers', 'other answers', 'upstream writes applied', 'faults injected'],
    rows.map((row, i) => {
      const from = (i * sliceMs) / 1000;
      const to = i === slices ? run.elapsedMs / 1000 : ((i + 1) * sliceMs) / 1000;
      return [
        `${from.toFixed(1)}-${to.toFixed(1)}`,
        integer(row.ok),
        integer(row.other),
        integer(row.applied),
        integer(row.faults),
      ];
    }),
  );
}

import { isDeepStrictEqual } from 'node:util';
import type { Run } from './load.ts';

/**
 * Writes whose every answer is accounted for: each POST carries a row with a new id, wrk's
 * script notes the ids of the rows acknowledged and of those refused (wrk-scripts.ts), and
 * afterwards the sheet is read back: every acknowledged row must be there exactly once, no
 * refused row at all, and rows of requests left unanswered when a run stopped may be there.
 */

/** What the tracked POSTs of one or more targets came to, over warm-ups and runs. */
export interface Posted {
  /** POSTs made. */
  sent: number;
  /** Requests of any kind sent, and answered: the difference was in flight when a run stopped. */
  requests: number;
  answered: number;
  /** Ids of the rows acknowledged (answered 201, or answered where none was refused), refused. */
  acknowledged: Set<number>;
  refused: Set<number>;
  /**
   * Answers refused where answers were not read (`byCompletion` in wrk-scripts.ts): which POSTs
   * they were is not known, so no write check holds.
   */
  untold: number;
}

/** Sums the wrk reports of `runs` (of any number of targets writing to one sheet). */
export function postedBy(runs: Run[]): Posted {
  const posted: Posted = {
    sent: 0,
    requests: 0,
    answered: 0,
    acknowledged: new Set(),
    refused: new Set(),
    untold: 0,
  };
  for (const leg of runs.flatMap((run) => run.legs)) {
    if (leg.notedUnread) posted.untold += leg.non2xx;
    posted.sent += leg.made;
    posted.requests += leg.sent;
    posted.answered += leg.requests;
    for (const id of leg.acked) posted.acknowledged.add(id);
    for (const id of leg.refused) posted.refused.add(id);
  }
  return posted;
}

export interface WriteCheck {
  /** Rows in the sheet before the case. */
  initialRows: number;
  sent: number;
  /** Requests acknowledged. */
  acknowledged: number;
  /** Requests answered with anything else. */
  refused: number;
  /** Requests that got no answer (socket error, timeout, a run stopped with them in flight). */
  unanswered: number;
  /** Rows read back through each server, in the order given. */
  rowsThroughEach: number[];
  /** Whether every server answered exactly the same rows in the same order. */
  identical: boolean;
  /** Acknowledged rows not read back. */
  missing: number;
  /** The first few of them, to look for. */
  missingIds: number[];
  /** Extra copies of written rows. */
  duplicated: number;
  /** Rows of refused requests that were read back nonetheless. */
  refusedButWritten: number;
  /** Rows of unanswered requests that were read back (allowed: the server may have committed). */
  unansweredWritten: number;
  /** See `Posted.untold`: none, or the check fails. */
  untold: number;
  ok: boolean;
}

/** Reads the whole sheet back through each of `readers` and accounts for every written row. */
export async function checkWrites(
  readers: (() => Promise<{ id: unknown }[]>)[],
  initialRows: number,
  firstId: number,
  posted: Posted,
): Promise<WriteCheck> {
  const [first = [], ...others] = await Promise.all(readers.map((read) => read()));
  const copies = new Map<number, number>();
  for (const row of first) {
    const id = Number(row.id);
    if (id >= firstId) copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  const acknowledged = posted.acknowledged.size;
  const unanswered = Math.max(0, posted.requests - posted.answered);
  const missingIds = [...posted.acknowledged].filter((id) => !copies.has(id));
  let duplicated = 0;
  let refusedButWritten = 0;
  let unansweredWritten = 0;
  for (const [id, count] of copies) {
    duplicated += count - 1;
    if (posted.refused.has(id)) refusedButWritten++;
    else if (!posted.acknowledged.has(id)) unansweredWritten++;
  }
  const identical = others.every((rows) => isDeepStrictEqual(rows, first));
  const countRight = first.length === initialRows + acknowledged + unansweredWritten;
  return {
    initialRows,
    sent: posted.sent,
    acknowledged,
    refused: posted.refused.size,
    unanswered,
    rowsThroughEach: [first.length, ...others.map((rows) => rows.length)],
    identical,
    missing: missingIds.length,
    missingIds: missingIds.slice(0, 10),
    duplicated,
    refusedButWritten,
    unansweredWritten,
    untold: posted.untold,
    ok:
      // A run that made no POST (a script that failed to load, say) checked nothing.
      posted.sent > 0 &&
      posted.untold === 0 &&
      identical &&
      countRight &&
      missingIds.length === 0 &&
      duplicated === 0 &&
      refusedButWritten === 0 &&
      unansweredWritten <= unanswered,
  };
}

/** The check as printed; `names` are the servers the sheet was read through, in order. */
export function checkLines(check: WriteCheck, names: string[]): string[] {
  const integer = (n: number) => n.toLocaleString('en');
  const expected = check.initialRows + check.acknowledged + check.unansweredWritten;
  const [read = 0] = check.rowsThroughEach;
  const through = check.rowsThroughEach
    .map((rows, i) => `through ${names[i] ?? '?'} ${integer(rows)}`)
    .join(', ');
  const same =
    names.length > 1 ? `; the same rows in the same order: ${check.identical ? 'yes' : 'NO'}` : '';
  const sum =
    check.unansweredWritten === 0
      ? `initial ${integer(check.initialRows)} + acknowledged ${integer(check.acknowledged)}`
      : `initial ${integer(check.initialRows)} + acknowledged ${integer(check.acknowledged)} + unanswered but written ${integer(check.unansweredWritten)}`;
  return [
    `write check: ${check.ok ? 'ok' : 'FAILED'}`,
    `  requests sent ${integer(check.sent)}: acknowledged ${integer(check.acknowledged)}, refused ${integer(check.refused)}, unanswered ${integer(check.unanswered)}`,
    `  rows read back ${through}${same}`,
    `  ${sum} = ${integer(expected)}: ${read === expected ? 'equal' : `NOT EQUAL (${integer(read - expected)})`}`,
    `  acknowledged rows missing ${check.missing}, extra copies ${check.duplicated}, rows of refused requests ${check.refusedButWritten}, rows of unanswered requests ${check.unansweredWritten}`,
    ...(check.missing === 0 ? [] : [`  missing: ${check.missingIds.join(', ')}`]),
    ...(check.untold === 0
      ? []
      : [
          `  ${integer(check.untold)} answers refused where answers were not read: which POSTs they were is not known, so nothing above holds`,
        ]),
  ];
}

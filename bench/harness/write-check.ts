import { isDeepStrictEqual } from 'node:util';
import type { Request } from 'autocannon';

/**
 * Writes whose every answer is accounted for: each POST carries a row with a new id, the answer
 * is tied to that id, and afterwards the sheet is read back and every acknowledged row must be
 * there exactly once.
 */

/** The rows a case posts, and how each request was answered, by the row's id. */
export interface Writes {
  /** The POST, for autocannon; one `Writes` can feed several instances: the ids stay unique. */
  post: Request;
  sent(): number;
  acknowledged: Set<number>;
  refused: Set<number>;
}

/**
 * Single-row POSTs to `path`, the n-th carrying `row(firstId + n)`. autocannon hands
 * `setupRequest` and `onResponse` the same context for one request (pipelining 1), so each
 * answer is matched with the row it was for.
 */
export function trackedWrites(path: string, firstId: number, row: (id: number) => object): Writes {
  let next = 0;
  const acknowledged = new Set<number>();
  const refused = new Set<number>();
  const post: Request = {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    setupRequest: (request, context) => {
      const id = firstId + next++;
      context.id = id;
      return { ...request, body: JSON.stringify(row(id)) };
    },
    onResponse: (status, _body, context) => {
      (status === 201 ? acknowledged : refused).add(context.id as number);
    },
  };
  return { post, sent: () => next, acknowledged, refused };
}

export interface WriteCheck {
  /** Rows in the sheet before the case. */
  initialRows: number;
  sent: number;
  /** Requests answered 201. */
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
  /** Extra copies of written rows. */
  duplicated: number;
  /** Rows of refused requests that were read back nonetheless. */
  refusedButWritten: number;
  /** Rows of unanswered requests that were read back (allowed: the server may have committed). */
  unansweredWritten: number;
  ok: boolean;
}

/** Reads the whole sheet back through each of `readers` and accounts for every written row. */
export async function checkWrites(
  readers: (() => Promise<{ id: unknown }[]>)[],
  initialRows: number,
  firstId: number,
  writes: Writes,
): Promise<WriteCheck> {
  const [first = [], ...others] = await Promise.all(readers.map((read) => read()));
  const copies = new Map<number, number>();
  for (const row of first) {
    const id = Number(row.id);
    if (id >= firstId) copies.set(id, (copies.get(id) ?? 0) + 1);
  }
  const sent = writes.sent();
  const acknowledged = writes.acknowledged.size;
  const refused = writes.refused.size;
  let missing = 0;
  for (const id of writes.acknowledged) if (!copies.has(id)) missing++;
  let duplicated = 0;
  let refusedButWritten = 0;
  let unansweredWritten = 0;
  for (const [id, count] of copies) {
    duplicated += count - 1;
    if (writes.refused.has(id)) refusedButWritten++;
    else if (!writes.acknowledged.has(id)) unansweredWritten++;
  }
  const identical = others.every((rows) => isDeepStrictEqual(rows, first));
  const countRight = first.length === initialRows + acknowledged + unansweredWritten;
  return {
    initialRows,
    sent,
    acknowledged,
    refused,
    unanswered: sent - acknowledged - refused,
    rowsThroughEach: [first.length, ...others.map((rows) => rows.length)],
    identical,
    missing,
    duplicated,
    refusedButWritten,
    unansweredWritten,
    ok: identical && countRight && missing === 0 && duplicated === 0 && refusedButWritten === 0,
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
    `  requests sent ${integer(check.sent)}: answered 201 ${integer(check.acknowledged)}, otherwise ${integer(check.refused)}, unanswered ${integer(check.unanswered)}`,
    `  rows read back ${through}${same}`,
    `  ${sum} = ${integer(expected)}: ${read === expected ? 'equal' : `NOT EQUAL (${integer(read - expected)})`}`,
    `  acknowledged rows missing ${check.missing}, extra copies ${check.duplicated}, rows of refused requests ${check.refusedButWritten}, rows of unanswered requests ${check.unansweredWritten}`,
  ];
}

import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import type { Request } from 'autocannon';
import { cpuLegend, describePlan, type Timing } from './cases.ts';
import { prime, sameAnswers } from './checks.ts';
import { runImport } from './cli-import.ts';
import type { Database } from './database.ts';
import {
  cycling,
  measure,
  warmupRequestsPerConnection,
  type Measurement,
  type Target,
} from './load.ts';
import { log, print } from './output.ts';
import { errorLines, loadTable } from './report.ts';
import { startSheetport, type Server } from './servers.ts';

/**
 * Case f: one Sheetport server against two on the same PostgreSQL, the load spread evenly over
 * both, for a cached filter and for single-row POSTs to one sheet. After the writes, the sheet is
 * read back through each server and every acknowledged row is accounted for.
 */

export interface ScaleOutInput {
  database: Database;
  /** The 100,000-row sheet's id in `database`. */
  largeSheetId: string;
  /** Names to filter it on, each matching at least one row. */
  names: string[];
  /** A CSV file to import as the sheet the write case appends to. */
  csv: string;
  /** Scratch directory. */
  dir: string;
}

export interface WriteCheck {
  /** Rows in the sheet before the write case. */
  initialRows: number;
  sent: number;
  /** Requests answered 201. */
  acknowledged: number;
  /** Requests answered with anything else. */
  refused: number;
  /** Requests that got no answer (socket error, timeout). */
  unanswered: number;
  /** Rows read back through each server, A then B. */
  rowsThroughEach: number[];
  /** Whether A and B answered exactly the same rows in the same order. */
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

export interface ScaleOutResult {
  title: string;
  connections: number;
  read: Measurement[];
  write: Measurement[];
  check: WriteCheck;
}

/** Ids of written rows start here, above the generated ones. */
const firstWrittenId = 2_000_000;

/** The rows the write case posts, and how each request was answered, by the row's id. */
interface Writes {
  requests: Request[];
  sent(): number;
  acknowledged: Set<number>;
  refused: Set<number>;
}

/**
 * Single-row POSTs to `path`, each row with a new id. autocannon hands `setupRequest` and
 * `onResponse` the same context for one request (pipelining 1), so each answer is matched with
 * the row it was for. One `Writes` can feed several autocannon instances: the ids stay unique.
 */
function trackedWrites(path: string): Writes {
  let next = 0;
  const acknowledged = new Set<number>();
  const refused = new Set<number>();
  const requests: Request[] = [
    {
      method: 'POST',
      path,
      headers: { 'content-type': 'application/json' },
      setupRequest: (request, context) => {
        const id = firstWrittenId + next++;
        context.id = id;
        const row = {
          id,
          name: 'Scale Writer',
          email: `scale.${id}@example.com`,
          age: 20 + (id % 50),
          city: 'Oslo',
          active: 'yes',
        };
        return { ...request, body: JSON.stringify(row) };
      },
      onResponse: (status, _body, context) => {
        (status === 201 ? acknowledged : refused).add(context.id as number);
      },
    },
  ];
  return { requests, sent: () => next, acknowledged, refused };
}

async function allRows(server: Server, sheetId: string): Promise<{ id: unknown }[]> {
  const response = await fetch(`${server.url}/api/v1/${sheetId}`);
  if (response.status !== 200) throw new Error(`GET all from ${server.name}: ${response.status}`);
  return (await response.json()) as { id: unknown }[];
}

async function checkWrites(
  servers: Server[],
  sheetId: string,
  initialRows: number,
  writes: Writes,
): Promise<WriteCheck> {
  const [first = [], ...others] = await Promise.all(
    servers.map((server) => allRows(server, sheetId)),
  );
  const copies = new Map<number, number>();
  for (const row of first) {
    const id = Number(row.id);
    if (id >= firstWrittenId) copies.set(id, (copies.get(id) ?? 0) + 1);
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

function checkLines(check: WriteCheck): string[] {
  const integer = (n: number) => n.toLocaleString('en');
  const expected = check.initialRows + check.acknowledged;
  const [a = 0, b = 0] = check.rowsThroughEach;
  return [
    `write check: ${check.ok ? 'ok' : 'FAILED'}`,
    `  requests sent ${integer(check.sent)}: answered 201 ${integer(check.acknowledged)}, otherwise ${integer(check.refused)}, unanswered ${integer(check.unanswered)}`,
    `  rows read back through A ${integer(a)}, through B ${integer(b)}; the same rows in the same order: ${check.identical ? 'yes' : 'NO'}`,
    `  initial ${integer(check.initialRows)} + acknowledged ${integer(check.acknowledged)} = ${integer(expected)}: ${a === expected ? 'equal' : `NOT EQUAL (${integer(a - expected)})`}`,
    `  acknowledged rows missing ${check.missing}, extra copies ${check.duplicated}, rows of refused requests ${check.refusedButWritten}, rows of unanswered requests ${check.unansweredWritten}`,
  ];
}

export async function scaleOutCase(input: ScaleOutInput, timing: Timing): Promise<ScaleOutResult> {
  const title = 'f. Scale-out: one server against two on the same PostgreSQL';
  log(`\n${title}`);
  const postgres = { SHEETPORT_DATABASE_URL: input.database.url };
  log('importing the sheet to append to');
  const imported = await runImport(input.dir, input.csv, 'scale_out', postgres);
  const sheetId = imported.id;
  const started: Server[] = [];
  try {
    for (const name of ['A', 'B']) {
      const dataDir = join(input.dir, `scale-out-${name}`);
      started.push(await startSheetport(name, dataDir, input.largeSheetId, postgres));
    }
    const [a, b] = started as [Server, Server];
    const query = (name: string) => `?name=${encodeURIComponent(name)}`;
    const paths = input.names.map((name) => `/api/v1/${input.largeSheetId}${query(name)}`);
    for (const path of paths.slice(0, 3)) {
      await sameAnswers([`${a.url}${path}`, `${b.url}${path}`], null);
    }
    log(' priming both read caches');
    await Promise.all([prime(a, paths), prime(b, paths)]);
    const plan = { ...timing, connections: 20 };
    const pair = (requests: Request[], answerEvery: boolean): Target[] => [
      { name: '1 server (A)', legs: [{ server: a, requests }], answerEvery },
      {
        name: '2 servers (A + B)',
        legs: [
          { server: a, requests },
          { server: b, requests },
        ],
        answerEvery,
      },
    ];
    log(' read');
    const read = await measure(pair(cycling(paths), false), plan, log, input.database);
    const writes = trackedWrites(`/api/v1/${sheetId}`);
    log(' write');
    const write = await measure(pair(writes.requests, true), plan, log, input.database);
    const check = await checkWrites([a, b], sheetId, imported.rowCount, writes);

    print(`\n== ${title} ==`);
    for (const line of [
      'Two Sheetport servers, A and B, with default settings (read cache on, 10 PostgreSQL connections each) on',
      'the PostgreSQL of cases a to c. "1 server" sends all the load to A. "2 servers" runs two autocannon',
      'instances at once, one per server, each with half the connections: the load is spread evenly, as by a',
      'load balancer; "per server" is each one\'s share. Both rows are measured in the same interleaved runs.',
      describePlan(plan),
      'ratios: the "2 servers" row divided by the "1 server" row (req/s ratio > 1 and p99 ratio < 1 favour two);',
      "CPU server is both servers' processes together.",
      ...cpuLegend,
    ]) {
      print(line);
    }
    print(
      `\n-- read: GET /api/v1/<id>?name=<v> on the 100,000-row sheet, ${input.names.length} names cycled, one stream shared by both servers --`,
    );
    print(
      'Before timing, each server was asked every name once, so both read caches hold every answer from the start.',
    );
    print(loadTable(read, 'row-over-first'));
    for (const line of errorLines(read)) print(line);
    print(
      `\n-- write: single-row POST /api/v1/<id> to one sheet (${imported.rowCount.toLocaleString('en')} rows at the start, imported for this case) --`,
    );
    print(
      'Every request is answered: each run sends a set number of requests, sized from the previous run to last',
    );
    print(
      `about ${timing.runSeconds} s, and waits for all of them (the warm-up sends ${plan.connections * warmupRequestsPerConnection}), so no write is in flight when a run ends.`,
    );
    print(loadTable(write, 'row-over-first'));
    for (const line of errorLines(write)) print(line);
    for (const line of checkLines(check)) print(line);
    return { title, connections: plan.connections, read, write, check };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

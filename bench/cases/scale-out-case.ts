import { join } from 'node:path';
import { cpuLegend, describePlan, type Timing } from '../reports/load-report.ts';
import { prime, sameAnswers } from '../harness/checks.ts';
import { runImport } from '../harness/cli-import.ts';
import type { Database } from '../harness/database.ts';
import { measure, measureRuns, type Measurement, type Target } from '../harness/load.ts';
import { cycling, trackedPosting, type Body, type Script } from '../harness/wrk-scripts.ts';
import { log, print } from '../harness/output.ts';
import { errorLines, loadTable } from '../reports/report.ts';
import { startSheetport, type Server } from '../harness/servers.ts';
import { checkLines, checkWrites, postedBy, type WriteCheck } from '../harness/write-check.ts';

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

export interface ScaleOutResult {
  title: string;
  connections: number;
  read: Measurement[];
  write: Measurement[];
  check: WriteCheck;
}

/** Ids of written rows start here, above the generated ones. */
const firstWrittenId = 2_000_000;

/** A new row for wrk's request number n, its id above the generated ones. */
const scaleRow: Body = {
  format:
    '{"id":%d,"name":"Scale Writer","email":"scale.%d@example.com","age":%d,"city":"Oslo","active":"yes"}',
  id: `${firstWrittenId} + n`,
  values: ['id', 'id', '20 + id % 50'],
};
async function allRows(server: Server, sheetId: string): Promise<{ id: unknown }[]> {
  const response = await fetch(`${server.url}/api/v1/${sheetId}`);
  if (response.status !== 200) throw new Error(`GET all from ${server.name}: ${response.status}`);
  return (await response.json()) as { id: unknown }[];
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
    const pair = (script: Script): Target[] => [
      { name: '1 server (A)', legs: [{ server: a, script }] },
      {
        name: '2 servers (A + B)',
        legs: [
          { server: a, script },
          { server: b, script },
        ],
      },
    ];
    log(' read');
    const read = await measure(pair(cycling(paths)), plan, log, input.database);
    log(' write');
    const writes = await measureRuns(
      pair(trackedPosting(`/api/v1/${sheetId}`, scaleRow)),
      plan,
      log,
      input.database,
    );
    const write = writes.measurements;
    const check = await checkWrites(
      [a, b].map((server) => () => allRows(server, sheetId)),
      imported.rowCount,
      firstWrittenId,
      postedBy([...writes.runs.values()].flat()),
    );

    print(`\n== ${title} ==`);
    for (const line of [
      'Two Sheetport servers, A and B, with default settings (read cache on, 10 PostgreSQL connections each) on',
      'the PostgreSQL of cases a to c. "1 server" sends all the load to A. "2 servers" runs two wrk',
      'processes at once, one per server, each with half the connections: the load is spread evenly, as by a',
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
      "Every row has an id of its own; wrk's script notes the id in every 201 answer, so afterwards each acknowledged",
    );
    print(
      'row is looked for, and rows no 201 acknowledged may number no more than the requests in flight when a run stopped.',
    );
    print(loadTable(write, 'row-over-first'));
    for (const line of errorLines(write)) print(line);
    for (const line of checkLines(check, ['A', 'B'])) print(line);
    return { title, connections: plan.connections, read, write, check };
  } finally {
    await Promise.all(started.map((server) => server.stop()));
  }
}

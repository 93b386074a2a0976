import { cpus } from 'node:os';
import { created, prime, rowCount, sameAnswers } from './checks.ts';
import {
  cycling,
  measure,
  numbered,
  posting,
  single,
  type LoadPlan,
  type Measurement,
} from './load.ts';
import { log, print } from './output.ts';
import { countingScript, hasWrk, measureWithWrk, wrkPath } from './wrk-load.ts';
import { errorLines, loadTable, mib } from './report.ts';
import { large, small, type Fleet } from './setup.ts';

/**
 * The three load cases. Each first asks every server its question once and checks the answers
 * agree, then measures, then prints its table.
 */

/** What the CPU columns mean; shared with case f. */
export const cpuLegend = [
  `CPU: cores busy during the runs (of ${cpus().length}): the server (child process), db: PostgreSQL's`,
  'processes (which only the PostgreSQL rows use), the client (the load generator: autocannon in this process, or wrk), and other:',
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

async function runCase(
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

export async function filterCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const plan = { ...timing, connections: 20 };
  const query = (name: string) => `?name=${encodeURIComponent(name)}`;
  const sheetportPaths = fleet.names.map((name) => `/api/v1/${fleet.largeSheetId}${query(name)}`);
  const postgresPaths = fleet.names.map(
    (name) => `/api/v1/${fleet.postgresLargeSheetId}${query(name)}`,
  );
  const jsonServerPaths = fleet.names.map((name) => `/${large.collection}${query(name)}`);
  for (const i of [0, 1, 2]) {
    await sameAnswers(
      [
        `${fleet.sheetport.url}${sheetportPaths[i]}`,
        `${fleet.sheetportNoCache.url}${sheetportPaths[i]}`,
        `${fleet.sheetportPostgres.url}${postgresPaths[i]}`,
        `${fleet.sheetportPostgresNoCache.url}${postgresPaths[i]}`,
        `${fleet.jsonServerLarge.url}${jsonServerPaths[i]}`,
      ],
      null,
    );
  }
  await sameAnswers([`${fleet.sheetport.url}${sheetportPaths[0]}`, fleet.bare.url], null);
  log('  priming the read caches');
  await prime(fleet.sheetport, sheetportPaths);
  await prime(fleet.sheetportPostgres, postgresPaths);
  return runCase(
    'a. Equality filter on the 100,000-row sheet',
    [
      `sheetport GET /api/v1/<id>?name=<v>; json-server GET /${large.collection}?name=<v>; bare node:http answers a fixed body`,
      `${fleet.names.length} distinct names cycled across requests, each matching at least one row;`,
      `the bare body is the answer to the first name (${Buffer.byteLength(fleet.bareBody)} bytes), checked equal to Sheetport's and json-server's.`,
      `Sheetport keeps read answers in memory by sheet version (SHEETPORT_CACHE_SIZE, 64 MiB by default), and all ${fleet.names.length}`,
      `answers fit. Before timing, the two cached servers were asked every name once, so the "sheetport" and`,
      `"sheetport, PostgreSQL" rows are served from that cache throughout. The "cache off" rows`,
      `(SHEETPORT_CACHE_SIZE=0) run the query for every request. The PostgreSQL rows are servers on one PostgreSQL`,
      `holding the same sheet: each request reads the sheet's row (its version) from PostgreSQL, cached or not.`,
    ],
    plan,
    () =>
      measure(
        [
          single(fleet.sheetport, cycling(sheetportPaths)),
          single(fleet.sheetportNoCache, cycling(sheetportPaths)),
          single(fleet.sheetportPostgres, cycling(postgresPaths)),
          single(fleet.sheetportPostgresNoCache, cycling(postgresPaths)),
          single(fleet.jsonServerLarge, cycling(jsonServerPaths)),
          single(fleet.bare, cycling(sheetportPaths)),
        ],
        plan,
        log,
        fleet.database,
      ),
  );
}

export async function getAllCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const wrk = hasWrk();
  // wrk with 16 connections where the machine has it: see wrk-load.ts for why.
  const plan = { ...timing, connections: wrk ? 16 : 10 };
  const sheetportPath = `/api/v1/${fleet.smallSheetId}`;
  const postgresPath = `/api/v1/${fleet.postgresSmallSheetId}`;
  const jsonServerPath = `/${small.collection}`;
  // Without the cache, each request asks for a limit of its own above the row count: the same
  // rows, under a key no cache (Sheetport's, or any in between) could have seen before.
  const limitBase = small.rows + 1;
  const uncached = (path: string) => (n: number) => `${path}?_limit=${limitBase + n}`;
  const [sheetportBytes = 0, , , , jsonServerBytes = 0] = await sameAnswers(
    [
      `${fleet.sheetport.url}${sheetportPath}`,
      `${fleet.sheetportNoCache.url}${uncached(sheetportPath)(0)}`,
      `${fleet.sheetportPostgres.url}${postgresPath}`,
      `${fleet.sheetportPostgresNoCache.url}${uncached(postgresPath)(0)}`,
      `${fleet.jsonServerSmall.url}${jsonServerPath}`,
    ],
    small.rows,
  );
  const load = wrk
    ? () =>
        measureWithWrk(
          [
            { name: fleet.sheetport.name, server: fleet.sheetport, path: sheetportPath },
            {
              name: fleet.sheetportNoCache.name,
              server: fleet.sheetportNoCache,
              path: sheetportPath,
              script: countingScript(`${sheetportPath}?_limit=`, limitBase),
            },
            {
              name: fleet.sheetportPostgres.name,
              server: fleet.sheetportPostgres,
              path: postgresPath,
            },
            {
              name: fleet.sheetportPostgresNoCache.name,
              server: fleet.sheetportPostgresNoCache,
              path: postgresPath,
              script: countingScript(`${postgresPath}?_limit=`, limitBase),
            },
            {
              name: fleet.jsonServerSmall.name,
              server: fleet.jsonServerSmall,
              path: jsonServerPath,
            },
          ],
          plan,
          log,
          fleet.database,
        )
    : () =>
        measure(
          [
            single(fleet.sheetport, cycling([sheetportPath])),
            single(
              fleet.sheetportNoCache,
              numbered((n) => uncached(sheetportPath)(n + 1)),
            ),
            single(fleet.sheetportPostgres, cycling([postgresPath])),
            single(
              fleet.sheetportPostgresNoCache,
              numbered((n) => uncached(postgresPath)(n + 1)),
            ),
            single(fleet.jsonServerSmall, cycling([jsonServerPath])),
          ],
          plan,
          log,
          fleet.database,
        );
  return runCase(
    'b. GET all rows of the 10,000-row sheet',
    [
      `sheetport GET /api/v1/<id>; json-server GET ${jsonServerPath}; all answers checked equal (10,000 rows)`,
      `body sizes: sheetport ${mib(sheetportBytes)} (compact JSON), json-server ${mib(jsonServerBytes)} (indented JSON, its default)`,
      'No write happens during the case, so the cached rows answer from their read cache after the first request;',
      'the "cache off" rows (SHEETPORT_CACHE_SIZE=0) read and serialize the 10,000 rows every time, and each of',
      `their requests asks a limit of its own above the row count (?_limit=${limitBase + 1}, ${limitBase + 2}, ...; the check`,
      `before timing asked ${limitBase}), so no cache could answer it.`,
      wrk
        ? `Load generator for this case: wrk (${wrkPath}, 2 threads), not autocannon: see bench/wrk-load.ts.`
        : 'Load generator: autocannon (wrk not installed: `apt-get install wrk` for the figures BENCHMARKS.md quotes).',
    ],
    plan,
    load,
  );
}

/** A new row; ids above the generated ones so json-server, which refuses duplicate ids, takes them. */
const newRow = (n: number) => ({
  id: 1_000_000 + n,
  name: 'Bench Writer',
  email: `writer.${n}@example.com`,
  age: 30 + (n % 40),
  city: 'Oslo',
  active: 'yes',
});

export async function postCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const plan = { ...timing, connections: 20 };
  const sheetportPath = `/api/v1/${fleet.smallSheetId}`;
  const postgresPath = `/api/v1/${fleet.postgresSmallSheetId}`;
  const jsonServerPath = `/${small.collection}`;
  await created(`${fleet.sheetport.url}${sheetportPath}`, newRow(-1));
  await created(`${fleet.sheetportPostgres.url}${postgresPath}`, newRow(-1));
  await created(`${fleet.jsonServerSmall.url}${jsonServerPath}`, newRow(-1));
  const result = await runCase(
    'c. Single-row POST to the 10,000-row sheet',
    [
      `sheetport POST /api/v1/<id> with SHEETPORT_SYNC=full (fsync at every commit; concurrent writes share a commit);`,
      `on PostgreSQL, its defaults (fsync on, synchronous_commit on): each commit is flushed to its WAL on disk too;`,
      `json-server POST ${jsonServerPath}: rewrites its db.json after each write, without fsync, so a crash can lose acknowledged rows.`,
      'Each request carries a new row with its own id.',
    ],
    plan,
    () =>
      measure(
        [
          single(fleet.sheetport, posting(sheetportPath, newRow)),
          single(fleet.sheetportPostgres, posting(postgresPath, newRow)),
          single(fleet.jsonServerSmall, posting(jsonServerPath, newRow)),
        ],
        plan,
        log,
        fleet.database,
      ),
  );
  const [sheetport, postgres, jsonServer] = result.measurements;
  const stored = [
    {
      m: sheetport,
      rows: await rowCount(`${fleet.sheetport.url}/admin/v1/sheets/${fleet.smallSheetId}`),
    },
    {
      m: postgres,
      rows: await rowCount(
        `${fleet.sheetportPostgres.url}/admin/v1/sheets/${fleet.postgresSmallSheetId}`,
      ),
    },
    { m: jsonServer, rows: await rowCount(`${fleet.jsonServerSmall.url}${jsonServerPath}`) },
  ];
  for (const { m, rows } of stored) {
    if (m === undefined) continue;
    // The generated rows, the checked POST, then every 2xx of warm-up and runs.
    const acknowledged = small.rows + 1 + m.ok2xxWithWarmup;
    const verdict =
      rows < acknowledged
        ? `LOST ${acknowledged - rows} acknowledged rows`
        : `ok (${rows - acknowledged} more than acknowledged: requests in flight when a run stopped)`;
    print(`rows read back from ${m.name}: ${rows}, acknowledged ${acknowledged}: ${verdict}`);
  }
  return result;
}

import { cpus } from 'node:os';
import { created, rowCount, sameAnswers } from './checks.ts';
import { cycling, measure, posting, type LoadPlan, type Measurement } from './load.ts';
import { log, print } from './output.ts';
import { errorLines, loadTable, mib } from './report.ts';
import { large, small, type Fleet } from './setup.ts';

/**
 * The three load cases. Each first asks every server its question once and checks the answers
 * agree, then measures, then prints its table.
 */

export interface CaseResult {
  title: string;
  connections: number;
  measurements: Measurement[];
}

export type Timing = Omit<LoadPlan, 'connections'>;

function describePlan(plan: LoadPlan): string {
  const runs = `${plan.runs} run${plan.runs === 1 ? '' : 's'} of ${plan.runSeconds} s`;
  return `${plan.connections} connections, pipelining 1; per server ${plan.warmupSeconds} s warm-up, then ${runs}, servers interleaved; req/s and latencies are medians over the runs`;
}

const legend = [
  'ratios: the first sheetport row divided by each row (req/s ratio > 1 and p99 ratio < 1 favour it);',
  `CPU: cores busy during the runs (of ${cpus().length}): the server (child process), the client`,
  '(autocannon, this process), and other: other processes (noise) plus kernel threads such as loopback',
  'networking and the disk journal, which the servers themselves cause in part.',
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
  const jsonServerPaths = fleet.names.map((name) => `/${large.collection}${query(name)}`);
  for (const i of [0, 1, 2]) {
    await sameAnswers(
      [
        `${fleet.sheetport.url}${sheetportPaths[i]}`,
        `${fleet.sheetportNoCache.url}${sheetportPaths[i]}`,
        `${fleet.jsonServerLarge.url}${jsonServerPaths[i]}`,
      ],
      null,
    );
  }
  await sameAnswers([`${fleet.sheetport.url}${sheetportPaths[0]}`, fleet.bare.url], null);
  return runCase(
    'a. Equality filter on the 100,000-row sheet',
    [
      `sheetport GET /api/v1/<id>?name=<v>; json-server GET /${large.collection}?name=<v>; bare node:http answers a fixed body`,
      `${fleet.names.length} distinct names cycled across requests, each matching at least one row;`,
      `the bare body is the answer to the first name (${Buffer.byteLength(fleet.bareBody)} bytes), checked equal to Sheetport's and json-server's.`,
      `Sheetport keeps read answers in memory by sheet version (SHEETPORT_CACHE_SIZE, 64 MiB by default), and all ${fleet.names.length}`,
      `answers fit: after the first pass over the names, the "sheetport" row is served from that cache. The "cache off" row`,
      `(SHEETPORT_CACHE_SIZE=0) runs the query for every request.`,
    ],
    plan,
    () =>
      measure(
        [
          { server: fleet.sheetport, requests: cycling(sheetportPaths) },
          { server: fleet.sheetportNoCache, requests: cycling(sheetportPaths) },
          { server: fleet.jsonServerLarge, requests: cycling(jsonServerPaths) },
          { server: fleet.bare, requests: cycling(sheetportPaths) },
        ],
        plan,
        log,
      ),
  );
}

export async function getAllCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const plan = { ...timing, connections: 10 };
  const sheetportPath = `/api/v1/${fleet.smallSheetId}`;
  const jsonServerPath = `/${small.collection}`;
  const [sheetportBytes = 0, , jsonServerBytes = 0] = await sameAnswers(
    [
      `${fleet.sheetport.url}${sheetportPath}`,
      `${fleet.sheetportNoCache.url}${sheetportPath}`,
      `${fleet.jsonServerSmall.url}${jsonServerPath}`,
    ],
    small.rows,
  );
  return runCase(
    'b. GET all rows of the 10,000-row sheet',
    [
      `sheetport GET ${sheetportPath.replace(fleet.smallSheetId, '<id>')}; json-server GET ${jsonServerPath}; both answers checked equal (10,000 rows)`,
      `body sizes: sheetport ${mib(sheetportBytes)} (compact JSON), json-server ${mib(jsonServerBytes)} (indented JSON, its default)`,
      'No write happens during the case, so the "sheetport" row answers from its read cache after the first request;',
      'the "cache off" row (SHEETPORT_CACHE_SIZE=0) reads and serializes the 10,000 rows every time.',
    ],
    plan,
    () =>
      measure(
        [
          { server: fleet.sheetport, requests: cycling([sheetportPath]) },
          { server: fleet.sheetportNoCache, requests: cycling([sheetportPath]) },
          { server: fleet.jsonServerSmall, requests: cycling([jsonServerPath]) },
        ],
        plan,
        log,
      ),
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
  const jsonServerPath = `/${small.collection}`;
  await created(`${fleet.sheetport.url}${sheetportPath}`, newRow(-1));
  await created(`${fleet.jsonServerSmall.url}${jsonServerPath}`, newRow(-1));
  const result = await runCase(
    'c. Single-row POST to the 10,000-row sheet',
    [
      `sheetport POST /api/v1/<id> with SHEETPORT_SYNC=full (fsync at every commit; concurrent writes share a commit);`,
      `json-server POST ${jsonServerPath}: rewrites its db.json after each write, without fsync, so a crash can lose acknowledged rows.`,
      'Each request carries a new row with its own id.',
    ],
    plan,
    () =>
      measure(
        [
          { server: fleet.sheetport, requests: posting(sheetportPath, newRow) },
          { server: fleet.jsonServerSmall, requests: posting(jsonServerPath, newRow) },
        ],
        plan,
        log,
      ),
  );
  const [sheetport, jsonServer] = result.measurements;
  const stored = [
    {
      m: sheetport,
      rows: await rowCount(`${fleet.sheetport.url}/admin/v1/sheets/${fleet.smallSheetId}`),
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

import { isDeepStrictEqual } from 'node:util';
import { cpuLegend, describePlan, type CaseResult, type Timing } from '../reports/load-report.ts';
import { ages, namePrefixes, rowsWhere, type Person } from '../harness/data.ts';
import { measure, single, type Target } from '../harness/load.ts';
import { cycling } from '../harness/wrk-scripts.ts';
import { log, print } from '../harness/output.ts';
import { errorLines, loadTable } from '../reports/report.ts';
import type { Server } from '../harness/servers.ts';
import { large, type Fleet } from '../harness/setup.ts';

/**
 * Case h: prefix and range filters on the 100,000-row sheet with the read cache off, beside the
 * equality filter of case a, measured in the same interleaved runs. No target: the rows show
 * what other filters cost against the one the targets are set on.
 */

interface Query {
  label: string;
  /** The query strings cycled across requests. */
  queries: string[];
  /** The rows the first few queries must answer. */
  expected: (query: number) => Person[];
}

function queries(names: string[]): Query[] {
  const prefixes = namePrefixes();
  // age > N and age < N + 2: the rows aged N + 1, for every age the generator draws.
  const lows = Array.from({ length: ages.max - ages.min + 1 }, (_, i) => ages.min - 1 + i);
  return [
    {
      label: 'equality',
      queries: names.map((name) => `name=${encodeURIComponent(name)}`),
      expected: (i) => rowsWhere(large.rows, large.seed, (row) => row.name === names[i]),
    },
    {
      label: 'prefix',
      queries: prefixes.map((prefix) => `name=${encodeURIComponent(`${prefix}*`)}`),
      expected: (i) =>
        rowsWhere(large.rows, large.seed, (row) => row.name.startsWith(prefixes[i] ?? '')),
    },
    {
      label: 'range',
      queries: lows.map((n) => `age=__gt(${n})&age=__lt(${n + 2})`),
      expected: (i) =>
        rowsWhere(
          large.rows,
          large.seed,
          (row) => row.age > (lows[i] ?? 0) && row.age < (lows[i] ?? 0) + 2,
        ),
    },
  ];
}

async function checkAnswer(server: Server, path: string, expected: Person[]): Promise<number> {
  const response = await fetch(`${server.url}${path}`);
  const text = await response.text();
  if (response.status !== 200)
    throw new Error(`GET ${path} from ${server.name}: ${response.status}`);
  if (!isDeepStrictEqual(JSON.parse(text), expected)) {
    throw new Error(`GET ${path} from ${server.name} did not answer the rows expected`);
  }
  return Buffer.byteLength(text);
}

export async function patternCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const title = 'h. Prefix and range filters on the 100,000-row sheet, cache off';
  log(`\n${title}`);
  const plan = { ...timing, connections: 20 };
  const stores = [
    { store: 'SQLite', server: fleet.sheetportNoCache, sheetId: fleet.largeSheetId },
    {
      store: 'PostgreSQL',
      server: fleet.sheetportPostgresNoCache,
      sheetId: fleet.postgresLargeSheetId,
    },
  ];
  const kinds = queries(fleet.names);
  const sizes: string[] = [];
  for (const kind of kinds) {
    let rows = 0;
    let bytes = 0;
    const checked = [0, 1, 2];
    for (const i of checked) {
      const expected = kind.expected(i);
      rows += expected.length;
      for (const { server, sheetId } of stores) {
        bytes +=
          (await checkAnswer(server, `/api/v1/${sheetId}?${kind.queries[i]}`, expected)) /
          stores.length;
      }
    }
    sizes.push(
      `${kind.label}: ${kind.queries.length} queries cycled, e.g. ?${kind.queries[0]}; the first ${checked.length} answer ${Math.round(rows / checked.length)} rows, ${Math.round(bytes / checked.length / 1024)} KiB on average`,
    );
  }
  const targets: Target[] = stores.flatMap(({ store, server, sheetId }) =>
    kinds.map((kind) => ({
      ...single(server, cycling(kind.queries.map((query) => `/api/v1/${sheetId}?${query}`))),
      name: `${kind.label}, ${store}`,
    })),
  );
  const measurements = await measure(targets, plan, log, fleet.database);

  print(`\n== ${title} ==`);
  for (const line of [
    'The "cache off" servers of case a (SQLite; PostgreSQL), GET /api/v1/<id>?<filter>, a different value each request:',
    ...sizes.map((size) => `  ${size}`),
    "Each kind's first answers were checked equal to the rows the generator made.",
    describePlan(plan),
    'ratios: the first row divided by each row (equality on SQLite against the others);',
    ...cpuLegend,
  ]) {
    print(line);
  }
  print();
  print(loadTable(measurements));
  for (const line of errorLines(measurements)) print(line);
  return { title, connections: plan.connections, measurements };
}

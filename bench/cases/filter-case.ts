import { prime, sameAnswers } from '../harness/checks.ts';
import { measure, single } from '../harness/load.ts';
import { cycling } from '../harness/wrk-scripts.ts';
import { log } from '../harness/output.ts';
import { large, type Fleet } from '../harness/setup.ts';
import { runCase, type CaseResult, type Timing } from '../reports/load-report.ts';

/**
 * Case a: an equality filter on the 100,000-row sheet. It first asks every server its question
 * once and checks the answers agree, then measures, then prints its table.
 */
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

import { sameAnswers } from '../harness/checks.ts';
import { measure, single } from '../harness/load.ts';
import { log } from '../harness/output.ts';
import { small, type Fleet } from '../harness/setup.ts';
import { fixed, numbered } from '../harness/wrk-scripts.ts';
import { runCase, type CaseResult, type Timing } from '../reports/load-report.ts';
import { mib } from '../reports/report.ts';

/** Case b: GET all rows of the 10,000-row sheet, with the answers checked equal first. */
export async function getAllCase(fleet: Fleet, timing: Timing): Promise<CaseResult> {
  const plan = { ...timing, connections: 16 };
  const sheetportPath = `/api/v1/${fleet.smallSheetId}`;
  const postgresPath = `/api/v1/${fleet.postgresSmallSheetId}`;
  const jsonServerPath = `/${small.collection}`;
  // Without the cache, each request asks for a limit of its own above the row count: the same
  // rows, under a key no cache (Sheetport's, or any in between) could have seen before.
  const limitBase = small.rows + 1;
  const uncached = (path: string) => `${path}?_limit=${limitBase}`;
  const [sheetportBytes = 0, , , , jsonServerBytes = 0] = await sameAnswers(
    [
      `${fleet.sheetport.url}${sheetportPath}`,
      `${fleet.sheetportNoCache.url}${uncached(sheetportPath)}`,
      `${fleet.sheetportPostgres.url}${postgresPath}`,
      `${fleet.sheetportPostgresNoCache.url}${uncached(postgresPath)}`,
      `${fleet.jsonServerSmall.url}${jsonServerPath}`,
    ],
    small.rows,
  );
  const load = () =>
    measure(
      [
        single(fleet.sheetport, fixed(sheetportPath)),
        single(fleet.sheetportNoCache, numbered(`${sheetportPath}?_limit=`, limitBase)),
        single(fleet.sheetportPostgres, fixed(postgresPath)),
        single(fleet.sheetportPostgresNoCache, numbered(`${postgresPath}?_limit=`, limitBase)),
        single(fleet.jsonServerSmall, fixed(jsonServerPath)),
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
      `their requests asks a limit of its own above the row count (?_limit=${limitBase}+n, a new n for each; the check`,
      `before timing asked ${limitBase}), so no cache could answer it.`,
    ],
    plan,
    load,
  );
}

import { sameAnswers } from '../harness/checks.ts';
import { cycling, measure, numbered, single } from '../harness/load.ts';
import { log } from '../harness/output.ts';
import { small, type Fleet } from '../harness/setup.ts';
import { countingScript, hasWrk, measureWithWrk, wrkPath } from '../harness/wrk-load.ts';
import { runCase, type CaseResult, type Timing } from '../reports/load-report.ts';
import { mib } from '../reports/report.ts';

/** Case b: GET all rows of the 10,000-row sheet, with the answers checked equal first. */
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
        ? `Load generator for this case: wrk (${wrkPath}, 2 threads), not autocannon: see bench/harness/wrk-load.ts.`
        : 'Load generator: autocannon (wrk not installed: `apt-get install wrk` for the figures BENCHMARKS.md quotes).',
    ],
    plan,
    load,
  );
}

import { created, rowCount } from '../harness/checks.ts';
import { measure, single } from '../harness/load.ts';
import { posting, type Body } from '../harness/wrk-scripts.ts';
import { log, print } from '../harness/output.ts';
import { small, type Fleet } from '../harness/setup.ts';
import { runCase, type CaseResult, type Timing } from '../reports/load-report.ts';

/** Case c: single-row POSTs to the 10,000-row sheet; afterwards the rows are counted. */

/** A new row; ids above the generated ones so json-server, which refuses duplicate ids, takes them. */
const newRow = (n: number) => ({
  id: 1_000_000 + n,
  name: 'Bench Writer',
  email: `writer.${n}@example.com`,
  age: 30 + (n % 40),
  city: 'Oslo',
  active: 'yes',
});

/** `newRow(n)` as wrk's script makes it, for its request number n. */
export const newRowBody: Body = {
  format:
    '{"id":%d,"name":"Bench Writer","email":"writer.%d@example.com","age":%d,"city":"Oslo","active":"yes"}',
  values: ['1000000 + n', 'n', '30 + n % 40'],
};

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
          single(fleet.sheetport, posting(sheetportPath, newRowBody)),
          single(fleet.sheetportPostgres, posting(postgresPath, newRowBody)),
          single(fleet.jsonServerSmall, posting(jsonServerPath, newRowBody)),
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

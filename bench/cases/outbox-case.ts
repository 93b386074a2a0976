import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from '../harness/database.ts';
import { measure, median, single, type LoadPlan, type Measurement } from '../harness/load.ts';
import { posting, type Body } from '../harness/wrk-scripts.ts';
import { log, print } from '../harness/output.ts';
import { work } from '../harness/paths.ts';
import { startEmptySheetport, type Server } from '../harness/servers.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case m: what the outbox costs a durable write. Single-row POSTs to an empty sheet, on each
 * store, against two servers alike but for one thing: the second runs bench/harness/without-outbox.mjs,
 * which removes the insert of row events from the write's transaction. Their runs interleave.
 */
export interface OutboxResult {
  measurements: Measurement[];
  targets: TargetOutcome[];
}

const withoutOutbox = fileURLToPath(new URL('../harness/without-outbox.mjs', import.meta.url));
const columns = ['id', 'name', 'email', 'age', 'city', 'active'];
/** A new row for wrk's request number n. */
const newRow: Body = {
  format:
    '{"id":%d,"name":"Bench Writer","email":"writer.%d@example.com","age":%d,"city":"Oslo","active":"yes"}',
  values: ['n', 'n', '30 + n % 40'],
};

export async function outboxCase(
  timing: Omit<LoadPlan, 'connections'>,
  database: Database | null,
): Promise<OutboxResult> {
  const title = 'm. The cost of the outbox: durable single-row POST with and without it';
  log(`\n${title}`);
  const plan = { ...timing, connections: 20 };
  const dir = join(work, 'outbox');
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  const stores: { name: string; settings: () => Promise<Record<string, string>> }[] = [
    { name: 'SQLite', settings: async () => ({}) },
  ];
  if (database !== null) {
    let n = 0;
    stores.push({
      name: 'PostgreSQL',
      settings: async () => ({ SHEETPORT_DATABASE_URL: await database.create(`outbox_${n++}`) }),
    });
  }
  const servers: Server[] = [];
  const outcome: OutboxResult = { measurements: [], targets: [] };
  try {
    const targets = [];
    for (const store of stores) {
      const pair = [];
      for (const [label, launch] of [
        ['with the outbox', {}],
        ['without it', { program: withoutOutbox }],
      ] as const) {
        const name = `sheetport ${store.name}, ${label}`;
        const server = await startEmptySheetport(
          name,
          join(dir, `${store.name}-${pair.length}`),
          await store.settings(),
          launch,
        );
        servers.push(server);
        const response = await fetch(`${server.url}/admin/v1/sheets`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'outbox', columns }),
        });
        const { id } = (await response.json()) as { id: string };
        pair.push(single(server, posting(`/api/v1/${id}`, newRow)));
      }
      targets.push(pair);
    }
    outcome.measurements = await measure(targets.flat(), plan, log, database);
    print(`\n== ${title} ==`);
    print('SHEETPORT_SYNC=full on SQLite, PostgreSQL with its defaults; wrk, 20 connections;');
    print(
      '"without it" is the same build with the insert of row events removed (bench/harness/without-outbox.mjs).',
    );
    print();
    for (const m of outcome.measurements) {
      print(
        `${m.name}: ${m.requestsPerSecond.toFixed(0)} req/s (runs ${m.runs.map((rate) => rate.toFixed(0)).join(', ')}), p99 ${m.p99Ms.toFixed(1)} ms, non-2xx ${m.non2xx}, errors ${m.errors}`,
      );
    }
    // Runs of the two servers alternate, so each round's pair saw the same machine and sheet size.
    for (let i = 0; i < outcome.measurements.length; i += 2) {
      const [mine, bare] = outcome.measurements.slice(i, i + 2) as [Measurement, Measurement];
      const costs = mine.runs.map((rate, round) => 1 - rate / (bare.runs[round] ?? Number.NaN));
      outcome.targets.push(
        target(
          `m. outbox cost on durable POST throughput, ${stores[i / 2]?.name}`,
          '<',
          0.15,
          median(costs),
          'percent',
          {
            detail: `median of ${costs.length} rounds: ${costs.map((cost) => `${(cost * 100).toFixed(1)}%`).join(', ')}; medians ${mine.requestsPerSecond.toFixed(0)} with, ${bare.requestsPerSecond.toFixed(0)} without req/s`,
          },
        ),
      );
    }
    return outcome;
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    await rm(dir, { recursive: true, force: true });
  }
}

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStore, openSqliteStore } from '../../src/store/open-store.ts';
import type { SheetStore } from '../../src/store/store.ts';
import { KeyLedger, PersonTrace, traceColumns } from '../../test/helpers/person-trace.ts';
import { rowKeys, scratchSheet } from '../../test/helpers/stores.ts';
import type { Database as Postgres } from '../harness/database.ts';
import { log, print } from '../harness/output.ts';
import { target, type TargetOutcome } from '../reports/targets.ts';

/**
 * Case x: row keys against a person's edits. A seeded trace of a person's inserts, deletes,
 * moves of single rows and blocks, sorts and cell edits on a 5,000-row sheet, re-read after every
 * 1 to 5 of them (as a refresh of a Google or Excel sheet takes the tab), on a SQLite and a
 * PostgreSQL store in this process, with default settings: the share of surviving rows that
 * kept their key, keys reused or given to another row, and the time of a re-read. Then single
 * re-reads of a 100,000-row sheet: unchanged, one row inserted, one row moved, and sorted.
 */
export interface RowKeysPlan {
  rows: number;
  sessions: number;
  largeRows: number;
}

interface StoreResult {
  store: string;
  reads: number;
  survived: number;
  kept: number;
  reused: number;
  givenToAnother: number;
  rereadP50: number;
  rereadP99: number;
  large: { unchanged: number; insert: number; move: number; sort: number };
}

export async function rowKeysCase(
  plan: RowKeysPlan,
  database: Postgres | null,
): Promise<{ targets: TargetOutcome[] }> {
  const title = `x. Row keys: a person's trace on ${plan.rows.toLocaleString('en')} rows, ${plan.sessions} re-reads`;
  log(`\n${title}`);
  const results: StoreResult[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-bench-keys-'));
  try {
    const sqlite = openSqliteStore({ path: join(dir, 'sheetport.db'), synchronous: 'normal' });
    try {
      results.push(await measure('SQLite', sqlite, plan));
    } finally {
      await sqlite.database.close();
    }
    if (database !== null) {
      const name = 'bench_row_keys';
      const postgres = await openPostgresStore({ connectionString: await database.create(name) });
      try {
        results.push(await measure('PostgreSQL', postgres, plan));
      } finally {
        await postgres.database.close();
        await database.drop(name);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  print(`\n== ${title} ==`);
  print('Stores opened in this process, default settings; times of one re-read (replaceRows).');
  for (const r of results) {
    print(
      `${r.store}: ${r.kept.toLocaleString('en')} of ${r.survived.toLocaleString('en')} surviving rows kept their key over ${r.reads} re-reads; reused ${r.reused}, given to another row ${r.givenToAnother}; re-read p50 ${r.rereadP50.toFixed(1)} ms, p99 ${r.rereadP99.toFixed(1)} ms`,
    );
    print(
      `${r.store}, ${plan.largeRows.toLocaleString('en')} rows, one re-read: unchanged ${r.large.unchanged.toFixed(0)} ms, one row inserted ${r.large.insert.toFixed(0)} ms, one row moved ${r.large.move.toFixed(0)} ms, sorted ${r.large.sort.toFixed(0)} ms`,
    );
  }
  const targets = results.flatMap((r) => [
    target(
      `x. ${r.store}: surviving rows that kept their key`,
      '>=',
      0.999,
      r.kept / r.survived,
      'percent',
      { detail: `${r.kept} of ${r.survived}` },
    ),
    target(
      `x. ${r.store}: keys reused or given to another row`,
      '=',
      0,
      r.reused + r.givenToAnother,
      'count',
    ),
  ]);
  return { targets };
}

async function measure(name: string, store: SheetStore, plan: RowKeysPlan): Promise<StoreResult> {
  log(`  ${name}: trace`);
  const trace = new PersonTrace(2026, plan.rows);
  const id = 'trace';
  await store.createSheet(scratchSheet(id, traceColumns), [trace.values()]);
  const ledger = new KeyLedger();
  ledger.check(trace.rows, await rowKeys(store, id));
  const times: number[] = [];
  for (let session = 0; session < plan.sessions; session++) {
    trace.session();
    const started = performance.now();
    await store.replaceRows(id, traceColumns, trace.values());
    times.push(performance.now() - started);
    ledger.check(trace.rows, await rowKeys(store, id));
  }
  times.sort((a, b) => a - b);
  const at = (share: number) => times[Math.min(times.length - 1, Math.floor(share * times.length))];
  log(`  ${name}: ${plan.largeRows.toLocaleString('en')} rows`);
  return {
    store: name,
    ...ledger.tally,
    rereadP50: at(0.5) ?? NaN,
    rereadP99: at(0.99) ?? NaN,
    large: await largeRereads(store, plan.largeRows),
  };
}

/** One re-read each of a large sheet: as it was, one row inserted, one row moved, sorted. */
async function largeRereads(store: SheetStore, rows: number): Promise<StoreResult['large']> {
  const id = 'large';
  const values = new PersonTrace(7, rows).values();
  await store.createSheet(scratchSheet(id, traceColumns), chunks(values));
  const timed = async (next: typeof values) => {
    const started = performance.now();
    await store.replaceRows(id, traceColumns, next);
    return performance.now() - started;
  };
  const unchanged = await timed(values);
  const inserted = [...values];
  inserted.splice(rows >> 1, 0, ['a person', 'city-0', 1, true]);
  const insert = await timed(inserted);
  const moved = [...inserted];
  const [row] = moved.splice(10, 1);
  moved.splice(rows - 10, 0, row as (typeof values)[number]);
  const move = await timed(moved);
  const sorted = [...moved].sort((a, b) => (a[2] as number) - (b[2] as number));
  const sort = await timed(sorted);
  return { unchanged, insert, move, sort };
}

function* chunks<T>(rows: T[]): Generator<T[]> {
  for (let from = 0; from < rows.length; from += 10_000) yield rows.slice(from, from + 10_000);
}

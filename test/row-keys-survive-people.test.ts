/**
 * A row's key (its stored row id) survives what a person does to the spreadsheet between two
 * re-reads: moved, sorted and edited rows keep theirs, deleted rows lose theirs, added rows get
 * new ones, and no key ever comes back or passes to another row. On the store the suite runs on,
 * with the sheet large enough for its blocks and cell index, which moves must keep in step.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Cell } from '../src/cells/cell.ts';
import type { ReadPlan } from '../src/query/plan.ts';
import { openPostgresStore, openSqliteStore } from '../src/store/open-store.ts';
import type { SheetStore } from '../src/store/store.ts';
import { KeyLedger, PersonTrace, traceColumns, type TracedRow } from './helpers/person-trace.ts';
import { backend, openTestStore, readRows, rowKeys, scratchSheet } from './helpers/stores.ts';

const plan = (city?: string): ReadPlan => ({
  selection: {
    filters:
      city === undefined
        ? []
        : [{ column: 'city', index: 1, op: 'eq', value: { text: city, number: null } }],
    any: [],
  },
  sort: [],
  limit: null,
  offset: 0,
  withIds: false,
  withKeys: false,
  fields: null,
});

async function sheetRows(store: SheetStore, id: string, city?: string): Promise<Cell[][]> {
  const sheet = await store.getSheet(id);
  assert.ok(sheet !== null);
  return readRows(store, sheet, plan(city));
}

/** The sheet read whole from its blocks, as a large sheet is answered. */
async function fromBlocks(store: SheetStore, id: string): Promise<Cell[][]> {
  const sheet = await store.getSheet(id);
  assert.ok(sheet !== null);
  const joined = await store.readJson(sheet, plan());
  const pieces: string[] = [];
  for await (const chunk of joined.chunks) pieces.push(...chunk.map(String));
  const objects = JSON.parse(`[${pieces.filter((piece) => piece !== '').join(',')}]`) as Record<
    string,
    Cell
  >[];
  return objects.map((object) => traceColumns.map((column) => object[column] ?? null));
}

/** Another server on the same database (SQLite's file, or the PostgreSQL database). */
function sameDatabase(env: Record<string, string>): Promise<SheetStore> | SheetStore {
  const url = env.SHEETPORT_DATABASE_URL;
  if (url !== undefined) {
    return openPostgresStore({ connectionString: url, poolSize: 2, indexThreshold: 100 });
  }
  const path = join(env.SHEETPORT_DATA_DIR as string, 'sheetport.db');
  return openSqliteStore({ path, synchronous: 'normal', indexThreshold: 100 });
}

/** Runs `sessions` of a person's edits, each followed by a re-read; checks keys after each. */
async function playTrace(
  store: SheetStore,
  id: string,
  trace: PersonTrace,
  ledger: KeyLedger,
  sessions: number,
): Promise<void> {
  for (let session = 0; session < sessions; session++) {
    trace.session();
    await store.replaceRows(id, traceColumns, trace.values());
    ledger.check(trace.rows, await rowKeys(store, id));
    if (session % 10 === 9) {
      // The blocks and the cell index moved with the rows.
      assert.deepEqual(await fromBlocks(store, id), trace.values());
      const city = (trace.rows[0] as TracedRow).cells[1] as string;
      assert.deepEqual(
        await sheetRows(store, id, city),
        trace.values().filter((cells) => cells[1] === city),
      );
    }
  }
}

test(`${backend}: over a person's random edits, re-read after every 1 to 5, 99.9% of surviving rows keep their key and no key is reused or given to another row`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 100 });
  t.after(dispose);
  const sessions = backend === 'sqlite' ? 800 : 300;
  for (const seed of [1, 2]) {
    const id = `trace${seed}`;
    const trace = new PersonTrace(seed, 300);
    await store.createSheet(scratchSheet(id, traceColumns), [trace.values()]);
    const ledger = new KeyLedger();
    ledger.check(trace.rows, await rowKeys(store, id));
    await playTrace(store, id, trace, ledger, sessions);
    const { tally } = ledger;
    assert.deepEqual(tally.examples, []);
    assert.equal(tally.reused, 0);
    assert.equal(tally.givenToAnother, 0);
    // Enough happened for the share to mean something: every kind of edit, many rows.
    assert.ok(
      Object.values(trace.counts).every((count) => count > 10),
      String(trace.counts),
    );
    assert.ok(tally.survived > 50_000, `${tally.survived} surviving rows`);
    assert.ok(ledger.keptShare >= 0.999, `${tally.kept} of ${tally.survived} kept their key`);
  }
});

test(`${backend}: a row a person only moved is one rows.updated whose row and previous differ only in _id`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const rows: Cell[][] = ['Ann', 'Bob', 'Cy', 'Dee', 'Eve'].map((name, i) => [
    name,
    'Oslo',
    i,
    true,
  ]);
  await store.createSheet(scratchSheet('moved', traceColumns), [rows]);
  const keys = await rowKeys(store, 'moved');
  const latest = await store.latestEventId('moved');
  // Bob dragged below Dee.
  const moved = [rows[0], rows[2], rows[3], rows[1], rows[4]] as Cell[][];
  await store.replaceRows('moved', traceColumns, moved);
  const events = (await store.eventsAfter('moved', latest, 10)).map(
    (event) =>
      JSON.parse(event.body) as {
        type: string;
        data: { rows: Record<string, Cell>[]; previous?: Record<string, Cell>[] };
      },
  );
  assert.deepEqual(
    events.map((event) => event.type),
    ['rows.updated'],
  );
  const [event] = events;
  const bob = { _key: keys[1], name: 'Bob', city: 'Oslo', amount: 1, done: true };
  assert.deepEqual(event?.data.rows, [{ _id: 3, ...bob }]);
  assert.deepEqual(event?.data.previous, [{ _id: 1, ...bob }]);
  assert.deepEqual(await rowKeys(store, 'moved'), [keys[0], keys[2], keys[3], keys[1], keys[4]]);
});

test(`${backend}: a sort keeps every key; a deleted row loses its key; an added row gets one never held before`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const rows: Cell[][] = [5, 3, 9, 1, 7].map((n) => [`name-${n}`, 'Rome', n, false]);
  await store.createSheet(scratchSheet('sorted', traceColumns), [rows]);
  const keys = await rowKeys(store, 'sorted');
  const byAmount = [...rows].sort((a, b) => (a[2] as number) - (b[2] as number));
  await store.replaceRows('sorted', traceColumns, byAmount);
  const keyOf = (n: number) => keys[rows.findIndex((row) => row[2] === n)];
  assert.deepEqual(await rowKeys(store, 'sorted'), [1, 3, 5, 7, 9].map(keyOf));
  // 5 deleted, a new row typed where it was.
  const edited = byAmount.map((row) => (row[2] === 5 ? ['Zed', 'Lima', 40, true] : row));
  await store.replaceRows('sorted', traceColumns, edited);
  const after = await rowKeys(store, 'sorted');
  assert.deepEqual(after.slice(0, 2), [keyOf(1), keyOf(3)]);
  assert.deepEqual(after.slice(3), [keyOf(7), keyOf(9)]);
  assert.ok(Number(after[2]) > Math.max(...keys.map(Number)), `new key ${after[2]}`);
});

test(`${backend}: a column a person adds keeps every row's key`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 2 });
  t.after(dispose);
  const rows: Cell[][] = [1, 2, 3, 4].map((n) => [`name-${n}`, 'Kyiv', n, true]);
  await store.createSheet(scratchSheet('widened', traceColumns), [rows]);
  const keys = await rowKeys(store, 'widened');
  await store.replaceRows(
    'widened',
    [...traceColumns, 'note'],
    rows.map((row) => [...row, null]),
  );
  assert.deepEqual(await rowKeys(store, 'widened'), keys);
  // And a row moved under the new header keeps its key as well.
  await store.replaceRows(
    'widened',
    [...traceColumns, 'note'],
    [rows[3], rows[0], rows[1], rows[2]].map((row) => [...(row as Cell[]), null]),
  );
  assert.deepEqual(await rowKeys(store, 'widened'), [keys[3], keys[0], keys[1], keys[2]]);
});

test(`${backend}: keys are kept in the database: a restarted server and another server on it see the same keys and keep them`, async (t) => {
  const { store, env, dispose } = await openTestStore({ indexThreshold: 100 });
  t.after(dispose);
  const trace = new PersonTrace(7, 200);
  await store.createSheet(scratchSheet('kept', traceColumns), [trace.values()]);
  const ledger = new KeyLedger();
  ledger.check(trace.rows, await rowKeys(store, 'kept'));
  await playTrace(store, 'kept', trace, ledger, 40);
  const keys = await rowKeys(store, 'kept');

  // Another server takes the sheet over (fail-over) and re-reads a person's edits.
  const other = await sameDatabase(env);
  assert.deepEqual(await rowKeys(other, 'kept'), keys);
  await playTrace(other, 'kept', trace, ledger, 40);
  assert.deepEqual(await rowKeys(store, 'kept'), await rowKeys(other, 'kept'));
  await other.database.close();

  // A restart: the first server's store closed, the database opened again.
  const before = await rowKeys(store, 'kept');
  // Closed once here; the suite's cleanup asks again, which must not close a pool twice.
  const close = store.database.close.bind(store.database);
  const closed = close();
  store.database.close = () => closed;
  await closed;
  const restarted = await sameDatabase(env);
  t.after(() => restarted.database.close());
  assert.deepEqual(await rowKeys(restarted, 'kept'), before);
  await playTrace(restarted, 'kept', trace, ledger, 40);

  assert.deepEqual(ledger.tally.examples, []);
  assert.ok(ledger.tally.survived > 10_000);
  assert.ok(ledger.keptShare >= 0.999, `${ledger.tally.kept} of ${ledger.tally.survived}`);
});

test(`${backend}: a re-read's events come deleted, created, updated, with the rows moved among the updated`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const rows: Cell[][] = ['Ann', 'Bob', 'Cy', 'Dee'].map((name, i) => [name, 'Oslo', i, true]);
  await store.createSheet(scratchSheet('order', traceColumns), [rows]);
  const latest = await store.latestEventId('order');
  // Dee dragged to the top, Ann deleted, Eve typed at the end, Cy's amount edited.
  const found: Cell[][] = [
    rows[3] as Cell[],
    rows[1] as Cell[],
    ['Cy', 'Oslo', 20, true],
    ['Eve', 'Rome', 7, false],
  ];
  await store.replaceRows('order', traceColumns, found);
  const events = (await store.eventsAfter('order', latest, 10)).map(
    (event) =>
      JSON.parse(event.body) as {
        type: string;
        data: { rows: { _id: number; name: string }[]; previous?: { _id: number }[] };
      },
  );
  assert.deepEqual(
    events.map((event) => [
      event.type,
      event.data.rows.map((row) => `${row._id}:${row.name}`),
      event.data.previous?.map((row) => row._id),
    ]),
    [
      ['rows.deleted', ['0:Ann'], undefined],
      ['rows.created', ['3:Eve'], undefined],
      ['rows.updated', ['0:Dee', '2:Cy'], [3, 2]],
    ],
  );
});

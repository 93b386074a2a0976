/**
 * A large sheet's cell index holds only the columns filters have asked for: the first filter on
 * a column puts it in (a read, or a write that chooses its rows by filter), and every write from
 * then on keeps it in step. Random sequences of writes, filters and re-reads with a changed
 * header; after each step, every indexed column must answer every filter as the rows read whole
 * and filtered here do. Runs on the store the suite is pointed at.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Cell } from '../src/cells/cell.ts';
import { matchesSelection } from '../src/query/match-filter.ts';
import { parseRowQuery } from '../src/query/parse-row-query.ts';
import { planRead, planSelection, type Filtering, type ReadPlan } from '../src/query/plan.ts';
import type { SheetRecord } from '../src/store/dialect.ts';
import { openPostgresStore, openSqliteStore } from '../src/store/open-store.ts';
import type { SheetStore, WriteRequest } from '../src/store/store.ts';
import { backend, openTestStore, readRows, scratchSheet } from './helpers/stores.ts';

/** Few values per column, so that every filter matches several rows and writes move them. */
const values: Cell[][] = [
  [1, 2, 3, 31.5],
  ['x', 'y', 'X', 'Zoë'],
  [true, false, null, 'true'],
];
const header = ['a', 'b', 'c'];

/** The values filters look for: each column's, but for the empty cell. */
const sought = values.map((choices) => choices.filter((value) => value !== null));

/** The filter `column=value`, planned against a sheet's header. */
function selection(columns: string[], column: string, value: Cell): Filtering {
  return planSelection(
    { name: 'sheet', columns },
    parseRowQuery({ [column]: String(value) }),
  ) as Filtering;
}

function readPlan(columns: string[], query: Record<string, string>): ReadPlan {
  return planRead({ name: 'sheet', columns }, parseRowQuery(query));
}

/** Another store over the same data, as a second server or a restart sees it. */
async function sameData(env: Record<string, string>): Promise<SheetStore> {
  const url = env.SHEETPORT_DATABASE_URL;
  if (url !== undefined)
    return openPostgresStore({ connectionString: url, poolSize: 2, indexThreshold: 10 });
  const path = join(env.SHEETPORT_DATA_DIR as string, 'sheetport.db');
  return openSqliteStore({ path, synchronous: 'normal', indexThreshold: 10 });
}

async function record(store: SheetStore, id: string): Promise<SheetRecord> {
  const sheet = await store.getSheet(id);
  assert.ok(sheet !== null);
  return sheet as SheetRecord;
}

async function readAll(store: SheetStore, id: string, plan: ReadPlan): Promise<Cell[][]> {
  return readRows(store, await record(store, id), plan);
}

/** The rows a filter chooses, by the store, and by reading every row and filtering here. */
async function bothWays(
  store: SheetStore,
  id: string,
  columns: string[],
  column: string,
  value: Cell,
) {
  const every = await readAll(store, id, readPlan(columns, {}));
  const filter = selection(columns, column, value);
  return {
    byStore: await readAll(store, id, readPlan(columns, { [column]: String(value) })),
    byHand: every.filter((row) => matchesSelection(filter, row)),
  };
}

/** The `pick`-th of a column's choices, round and round. */
const picked = (choices: Cell[][], col: number, pick: number): Cell =>
  (choices[col] as Cell[])[pick % (choices[col] as Cell[]).length] ?? null;
const cell = (col: number, pick: number) => picked(values, col, pick);
const soughtValue = (col: number, pick: number) => picked(sought, col, pick);

test(`${backend}: a large sheet indexes no column until a filter asks for one, then keeps it`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 10 });
  t.after(dispose);
  const rows = Array.from({ length: 40 }, (_, n) => [cell(0, n), cell(1, n), cell(2, n)]);
  await store.createSheet(scratchSheet('s', header), [rows]);
  assert.deepEqual((await record(store, 's')).indexedColumns, []);

  await store.writeRows('s', [{ op: { kind: 'append', rows: [[2, 'y', true]] }, ifMatch: null }]);
  assert.deepEqual((await record(store, 's')).indexedColumns, [], 'a POST indexes nothing');

  const read = await bothWays(store, 's', header, 'b', 'y');
  assert.equal(read.byStore.length, 11);
  assert.deepEqual(read.byStore, read.byHand);
  assert.deepEqual((await record(store, 's')).indexedColumns, [1], 'the column filtered on');

  // Rows appended and changed after that are found by the index, and rows changed away are not.
  await store.writeRows('s', [
    { op: { kind: 'append', rows: [[3, 'y', false]] }, ifMatch: null },
    {
      op: { kind: 'patch', selection: { ids: [0] }, cells: new Map([[1, 'y']]) },
      ifMatch: null,
    },
    {
      op: { kind: 'patch', selection: { ids: [1] }, cells: new Map([[0, 9]]) },
      ifMatch: null,
    },
    { op: { kind: 'delete', selection: { ids: [5] } }, ifMatch: null },
  ]);
  const after = await bothWays(store, 's', header, 'b', 'y');
  assert.equal(after.byStore.length, 12);
  assert.deepEqual(after.byStore, after.byHand);
});

test(`${backend}: a write that chooses rows by filter indexes the column, even when it matches none`, async (t) => {
  const { store, env, dispose } = await openTestStore({ indexThreshold: 10 });
  t.after(dispose);
  const rows = Array.from({ length: 30 }, (_, n) => [cell(0, n), cell(1, n), cell(2, n)]);
  await store.createSheet(scratchSheet('w', header), [rows]);
  const [result] = await store.writeRows('w', [
    {
      op: { kind: 'patch', selection: selection(header, 'a', 999), cells: new Map([[1, 'z']]) },
      ifMatch: null,
    },
  ]);
  assert.ok(!(result instanceof Error));
  // Recorded in the store, not only in this server's memory.
  const other = await sameData(env);
  t.after(() => other.database.close());
  assert.deepEqual((await record(other, 'w')).indexedColumns, [0]);
  // Indexed once: a read on it now neither builds it again nor finds a row twice.
  const read = await bothWays(other, 'w', header, 'a', 3);
  assert.equal(read.byStore.length, 7);
  assert.deepEqual(read.byStore, read.byHand);
  assert.deepEqual((await record(other, 'w')).indexedColumns, [0]);
});

test(`${backend}: a new header keeps each indexed column indexed under its name`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 10 });
  t.after(dispose);
  const rows = Array.from({ length: 30 }, (_, n) => [cell(0, n), cell(1, n), cell(2, n)]);
  await store.createSheet(scratchSheet('h', header), [rows]);
  await bothWays(store, 'h', header, 'b', 'x');
  await bothWays(store, 'h', header, 'c', true);
  assert.deepEqual((await record(store, 'h')).indexedColumns, [1, 2]);
  // `c` moves first, `b` is renamed (a new column to the index), `a` stays.
  const moved = ['c', 'a', 'renamed'];
  await store.replaceRows(
    'h',
    moved,
    rows.map(([a, b, c]) => [c ?? null, a ?? null, b ?? null]),
  );
  assert.deepEqual((await record(store, 'h')).indexedColumns, [0]);
  const read = await bothWays(store, 'h', moved, 'c', true);
  assert.ok(read.byStore.length > 0);
  assert.deepEqual(read.byStore, read.byHand);
});

type Step =
  | { kind: 'commit'; writes: WriteStep[] }
  | { kind: 'filter'; col: number; pick: number }
  | { kind: 'reread'; swap: boolean; pick: number };

type WriteStep =
  | { kind: 'append'; picks: number[] }
  | { kind: 'patch'; at: number; col: number; pick: number }
  | { kind: 'patchWhere'; col: number; pick: number; set: number; to: number }
  | { kind: 'delete'; at: number }
  | { kind: 'deleteWhere'; col: number; pick: number };

const pick = fc.nat(7);
const col = fc.nat(2);
const writeStep: fc.Arbitrary<WriteStep> = fc.oneof(
  fc.record({
    kind: fc.constant('append' as const),
    picks: fc
      .array(fc.tuple(pick, pick, pick), { minLength: 1, maxLength: 5 })
      .map((rows) => rows.flat()),
  }),
  fc.record({ kind: fc.constant('patch' as const), at: fc.nat(60), col, pick }),
  fc.record({ kind: fc.constant('patchWhere' as const), col, pick, set: col, to: pick }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(60) }),
  fc.record({ kind: fc.constant('deleteWhere' as const), col, pick }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('commit' as const),
    writes: fc.array(writeStep, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('filter' as const), col, pick }),
  fc.record({ kind: fc.constant('reread' as const), swap: fc.boolean(), pick }),
);

test(`${backend}: every indexed column answers as the rows do, after any writes, filters and new headers`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 10 });
  t.after(dispose);
  let sheets = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
      const id = `p${sheets++}`;
      let columns = [...header];
      const start = Array.from({ length: 24 }, (_, n) => [cell(0, n), cell(1, n), cell(2, n)]);
      await store.createSheet(scratchSheet(id, header), [start]);
      const check = async () => {
        const { indexedColumns } = await record(store, id);
        for (const indexed of indexedColumns) {
          for (const value of sought[indexed] as Cell[]) {
            const column = columns[indexed] as string;
            const { byStore, byHand } = await bothWays(store, id, columns, column, value);
            assert.deepEqual(byStore, byHand, `${column}=${String(value)}`);
          }
        }
        // Nothing else was indexed on the way.
        assert.deepEqual((await record(store, id)).indexedColumns, indexedColumns);
      };
      for (const s of steps) {
        if (s.kind === 'filter') {
          const column = columns[s.col] as string;
          const value = soughtValue(s.col, s.pick);
          const { byStore, byHand } = await bothWays(store, id, columns, column, value);
          assert.deepEqual(byStore, byHand);
        } else if (s.kind === 'reread') {
          // A person swapped the first two columns (or renamed the last) and edited a cell.
          const rows = await readAll(store, id, readPlan(columns, {}));
          const plain = rows.map((row) => row.slice(1));
          if (plain[0] !== undefined) (plain[0] as Cell[])[2] = cell(2, s.pick);
          if (s.swap) {
            columns = [columns[1], columns[0], columns[2]] as string[];
            for (const row of plain) [row[0], row[1]] = [row[1] ?? null, row[0] ?? null];
          } else {
            columns = [columns[0], columns[1], `${columns[2]}'`] as string[];
          }
          await store.replaceRows(id, columns, plain);
        } else {
          const writes: WriteRequest[] = s.writes.map((w): WriteRequest => {
            const where = (c: number, p: number) =>
              selection(columns, columns[c] as string, soughtValue(c, p));
            switch (w.kind) {
              case 'append':
                return {
                  op: {
                    kind: 'append',
                    rows: [
                      [
                        cell(0, w.picks[0] ?? 0),
                        cell(1, w.picks[1] ?? 0),
                        cell(2, w.picks[2] ?? 0),
                      ],
                    ],
                  },
                  ifMatch: null,
                };
              case 'patch':
                return {
                  op: {
                    kind: 'patch',
                    selection: { ids: [w.at % 20] },
                    cells: new Map([[w.col, cell(w.col, w.pick)]]),
                  },
                  ifMatch: null,
                };
              case 'patchWhere':
                return {
                  op: {
                    kind: 'patch',
                    selection: where(w.col, w.pick),
                    cells: new Map([[w.set, cell(w.set, w.to)]]),
                  },
                  ifMatch: null,
                };
              case 'delete':
                return { op: { kind: 'delete', selection: { ids: [w.at % 20] } }, ifMatch: null };
              case 'deleteWhere':
                return { op: { kind: 'delete', selection: where(w.col, w.pick) }, ifMatch: null };
            }
          });
          await store.writeRows(id, writes);
        }
        await check();
      }
    }),
    { numRuns: backend === 'sqlite' ? 60 : 20 },
  );
});

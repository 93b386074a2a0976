/**
 * A large sheet is read whole from its blocks, which every write must keep in step with its rows.
 * Random sequences of appends, updates, deletes and re-reads with inserted rows, then the sheet
 * read from its blocks must equal the sheet read row by row. Runs on the store the suite is
 * pointed at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Cell } from '../src/cells/cell.ts';
import type { ReadPlan } from '../src/query/plan.ts';
import type { SheetStore } from '../src/store/store.ts';
import { backend, openTestStore } from './helpers/stores.ts';

const columns = ['n', 'text'];
/** Rows of about 600 bytes: a block holds a few dozen, so every sequence spans many blocks. */
const row = (n: number, tag = ''): Cell[] => [n, `${tag}${'t'.repeat(580)}`];

const everyRow: ReadPlan = {
  selection: { filters: [], any: [] },
  sort: [],
  limit: null,
  offset: 0,
  withIds: false,
  fields: null,
};

type Op =
  | { kind: 'append'; count: number }
  | { kind: 'update'; at: number[] }
  | { kind: 'delete'; at: number[] }
  | { kind: 'reread'; insertAt: number; count: number; deleteAt: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 80 }) }),
  fc.record({
    kind: fc.constant('update' as const),
    at: fc.array(fc.nat(400), { minLength: 1, maxLength: 10 }),
  }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.array(fc.nat(400), { minLength: 1, maxLength: 30 }),
  }),
  fc.record({
    kind: fc.constant('reread' as const),
    insertAt: fc.nat(400),
    count: fc.integer({ min: 1, max: 40 }),
    deleteAt: fc.nat(400),
  }),
);

async function both(store: SheetStore, id: string) {
  const sheet = await store.getSheet(id);
  assert.ok(sheet !== null);
  const joined = await store.readJson(sheet, everyRow);
  const pieces: string[] = [];
  for await (const chunk of joined.chunks) pieces.push(...chunk.map(String));
  const cells = await store.readCells(sheet, everyRow);
  const fromRows: Cell[][] = [];
  for await (const piece of cells.chunks) fromRows.push(...piece.rows);
  return {
    fromBlocks: JSON.parse(`[${pieces.filter((piece) => piece !== '').join(',')}]`) as Record<
      string,
      Cell
    >[],
    fromRows,
  };
}

test(`${backend}: a large sheet read from its blocks equals its rows after any sequence of writes`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 0 });
  t.after(dispose);
  let sheets = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      const id = `s${sheets++}`;
      await store.createSheet(
        {
          id,
          name: id,
          columns,
          source: { provider: 'scratch' },
          settings: { deleteEnabled: true },
        },
        [Array.from({ length: 120 }, (_, n) => row(n))],
      );
      const model = Array.from({ length: 120 }, (_, n) => row(n));
      let next = 1000;
      for (const step of ops) {
        const positions = (at: number[]) => [...new Set(at.filter((p) => p < model.length))];
        if (step.kind === 'append') {
          const rows = Array.from({ length: step.count }, () => row(next++));
          await store.writeRows(id, [{ op: { kind: 'append', rows }, ifMatch: null }]);
          model.push(...rows);
        } else if (step.kind === 'update') {
          const ids = positions(step.at);
          if (ids.length === 0) continue;
          const cells = new Map<number, Cell>([[1, `changed ${next++}`]]);
          await store.writeRows(id, [
            { op: { kind: 'patch', selection: { ids }, cells }, ifMatch: null },
          ]);
          for (const i of ids) (model[i] as Cell[])[1] = cells.get(1) ?? null;
        } else if (step.kind === 'delete') {
          const ids = positions(step.at);
          if (ids.length === 0 || ids.length === model.length) continue;
          await store.writeRows(id, [
            { op: { kind: 'delete', selection: { ids } }, ifMatch: null },
          ]);
          for (const i of [...ids].sort((a, b) => b - a)) model.splice(i, 1);
        } else {
          // A re-read of a spreadsheet where a person inserted rows and deleted one elsewhere.
          const at = Math.min(step.insertAt, model.length);
          model.splice(at, 0, ...Array.from({ length: step.count }, () => row(next++, 'ins ')));
          if (model.length > 1) model.splice(Math.min(step.deleteAt, model.length - 1), 1);
          await store.replaceRows(
            id,
            columns,
            model.map((cells) => [...cells]),
          );
        }
      }
      const { fromBlocks, fromRows } = await both(store, id);
      assert.deepEqual(fromRows, model);
      assert.deepEqual(
        fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
        model,
      );
    }),
    { numRuns: backend === 'sqlite' ? 60 : 25 },
  );
});

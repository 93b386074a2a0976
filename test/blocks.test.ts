/**
 * A large sheet is read whole from its blocks, which every write must keep in step with its rows.
 * Random sequences of commits (each one or more appends, updates by position or by filter, and
 * deletes, as a batch of requests commits them) and re-reads with inserted rows; then the sheet
 * read from its blocks must equal the sheet read row by row. Runs on the store the suite is
 * pointed at.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { Cell } from '../src/cells/cell.ts';
import type { ReadPlan } from '../src/query/plan.ts';
import type { SheetStore, WriteRequest } from '../src/store/store.ts';
import { backend, openTestStore, readRows, scratchSheet } from './helpers/stores.ts';

const columns = ['n', 'text'];
/**
 * Rows of about 600 bytes: a block holds a few dozen, so every sequence spans many blocks. The
 * text has characters of more than one byte and characters JSON or PostgreSQL's text formats
 * escape, which blocks must carry as stored.
 */
const row = (n: number, tag = ''): Cell[] => [n, `${tag}Zoë "q" \\ \t\n ✓ ${'t'.repeat(560)}`];

const everyRow: ReadPlan = {
  selection: { filters: [], any: [] },
  sort: [],
  limit: null,
  offset: 0,
  withIds: false,
  withKeys: false,
  fields: null,
};

type RowOp =
  | { kind: 'append'; count: number }
  | { kind: 'update'; at: number[] }
  | { kind: 'updateWhere'; fromEnd: number }
  | { kind: 'delete'; at: number[] };

type Op =
  | { kind: 'commit'; ops: RowOp[] }
  | { kind: 'reread'; insertAt: number; count: number; deleteAt: number };

const rowOp: fc.Arbitrary<RowOp> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), count: fc.integer({ min: 1, max: 80 }) }),
  fc.record({
    kind: fc.constant('update' as const),
    at: fc.array(fc.nat(400), { minLength: 1, maxLength: 10 }),
  }),
  // Counted from the end, to hit rows appended earlier in the same commit.
  fc.record({ kind: fc.constant('updateWhere' as const), fromEnd: fc.nat(12) }),
  fc.record({
    kind: fc.constant('delete' as const),
    at: fc.array(fc.nat(400), { minLength: 1, maxLength: 30 }),
  }),
);

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('commit' as const),
    ops: fc.array(rowOp, { minLength: 1, maxLength: 4 }),
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
  const fromRows = await readRows(store, sheet, everyRow);
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
      await store.createSheet(scratchSheet(id, columns), [
        Array.from({ length: 120 }, (_, n) => row(n)),
      ]);
      const model = Array.from({ length: 120 }, (_, n) => row(n));
      let next = 1000;
      // Checked after every step: a re-read replaces the rows with the model's, hiding any
      // difference before it.
      const check = async () => {
        const { fromBlocks, fromRows } = await both(store, id);
        assert.deepEqual(fromRows, model);
        assert.deepEqual(
          fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
          model,
        );
      };
      for (const step of ops) {
        if (step.kind === 'reread') {
          // A re-read of a spreadsheet where a person inserted rows and deleted one elsewhere.
          const at = Math.min(step.insertAt, model.length);
          model.splice(at, 0, ...Array.from({ length: step.count }, () => row(next++, 'ins ')));
          if (model.length > 1) model.splice(Math.min(step.deleteAt, model.length - 1), 1);
          await store.replaceRows(
            id,
            columns,
            model.map((cells) => [...cells]),
          );
          await check();
          continue;
        }
        // The writes of one commit, each planned against the rows the ones before it left.
        const writes: WriteRequest[] = [];
        for (const rowOp of step.ops) {
          const positions = (at: number[]) => [...new Set(at.filter((p) => p < model.length))];
          if (rowOp.kind === 'append') {
            const rows = Array.from({ length: rowOp.count }, () => row(next++));
            // Copies: later writes of the commit change the model's rows before it is sent.
            writes.push({ op: { kind: 'append', rows: rows.map((r) => [...r]) }, ifMatch: null });
            model.push(...rows);
          } else if (rowOp.kind === 'update') {
            const ids = positions(rowOp.at);
            if (ids.length === 0) continue;
            const cells = new Map<number, Cell>([[1, `changed ${next++}`]]);
            writes.push({ op: { kind: 'patch', selection: { ids }, cells }, ifMatch: null });
            for (const i of ids) (model[i] as Cell[])[1] = cells.get(1) ?? null;
          } else if (rowOp.kind === 'updateWhere') {
            // By filter, so through the cell index: it must see rows appended just before.
            const target = model[Math.max(0, model.length - 1 - rowOp.fromEnd)] as Cell[];
            const n = target[0] as number;
            const cells = new Map<number, Cell>([[1, `where ${next++}`]]);
            const filter = {
              column: 'n',
              index: 0,
              op: 'eq' as const,
              value: { text: `${n}`, number: n },
            };
            writes.push({
              op: { kind: 'patch', selection: { filters: [filter], any: [] }, cells },
              ifMatch: null,
            });
            target[1] = cells.get(1) ?? null;
          } else {
            const ids = positions(rowOp.at);
            if (ids.length === 0 || ids.length === model.length) continue;
            writes.push({ op: { kind: 'delete', selection: { ids } }, ifMatch: null });
            for (const i of [...ids].sort((a, b) => b - a)) model.splice(i, 1);
          }
        }
        if (writes.length === 0) continue;
        const results = await store.writeRows(id, writes);
        assert.ok(results.every((result) => !(result instanceof Error)));
        await check();
      }
    }),
    { numRuns: backend === 'sqlite' ? 60 : 25 },
  );
});

test(`${backend}: a sheet grown by single-row POSTs reads from its blocks as its rows, as its small tail blocks fill and join`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 0 });
  t.after(dispose);
  const short = (n: number): Cell[] => [n, `Zoë ${n}`];
  const model = Array.from({ length: 70 }, (_, n) => short(n));
  await store.createSheet(scratchSheet('grown', columns), [model.map((cells) => [...cells])]);
  // Commits of one to three rows, as POSTs arrive; every few, an update or a delete in the
  // same commit, which reads every block while the appends change the last ones.
  for (let n = 70; n < 1200;) {
    const writes: WriteRequest[] = [];
    for (let i = 0; i < 1 + (n % 3); i++) {
      const cells = short(n++);
      writes.push({ op: { kind: 'append', rows: [[...cells]] }, ifMatch: null });
      model.push(cells);
    }
    if (n % 97 < 3) {
      const at = n % model.length;
      writes.push({ op: { kind: 'delete', selection: { ids: [at] } }, ifMatch: null });
      model.splice(at, 1);
      writes.push({ op: { kind: 'append', rows: [short(n)] }, ifMatch: null });
      model.push(short(n++));
    } else if (n % 89 < 3) {
      const cells = new Map<number, Cell>([[1, `changed ${n}`]]);
      const ids = [model.length - 1, n % model.length];
      writes.push({ op: { kind: 'patch', selection: { ids }, cells }, ifMatch: null });
      for (const i of new Set(ids)) (model[i] as Cell[])[1] = `changed ${n}`;
    }
    const results = await store.writeRows('grown', writes);
    assert.ok(results.every((result) => !(result instanceof Error)));
  }
  const { fromBlocks, fromRows } = await both(store, 'grown');
  assert.deepEqual(fromRows, model);
  assert.deepEqual(
    fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
    model,
  );
});

test(`${backend}: an append after a re-read that changed the last blocks starts from them as they are now`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 0 });
  t.after(dispose);
  const model = Array.from({ length: 70 }, (_, n) => row(n));
  await store.createSheet(scratchSheet('tail', columns), [model.map((cells) => [...cells])]);
  const append = async (n: number) => {
    const results = await store.writeRows('tail', [
      { op: { kind: 'append', rows: [row(n)] }, ifMatch: null },
    ]);
    assert.ok(results.every((result) => !(result instanceof Error)));
    model.push(row(n));
  };
  // Each append is a small block of its own at the end, which the server remembers for the
  // next append, until sixteen of them are joined into one.
  for (let n = 100; n < 110; n++) await append(n);
  // A person deletes rows among them and inserts others: the last blocks change.
  model.splice(model.length - 7, 5, row(200, 'ins '), row(201, 'ins '));
  await store.replaceRows(
    'tail',
    columns,
    model.map((cells) => [...cells]),
  );
  for (let n = 110; n < 140; n++) await append(n);
  const { fromBlocks, fromRows } = await both(store, 'tail');
  assert.deepEqual(fromRows, model);
  assert.deepEqual(
    fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
    model,
  );
});

test(`${backend}: a sheet made after the last one was deleted reads its own blocks, not those read of the deleted one`, async (t) => {
  const { store, dispose } = await openTestStore({ indexThreshold: 0 });
  t.after(dispose);
  // Both sheets are at their first version, and on SQLite the second takes the first's key.
  const first = Array.from({ length: 70 }, (_, n) => row(n, 'first '));
  await store.createSheet(scratchSheet('first', columns), [first.map((cells) => [...cells])]);
  assert.equal((await both(store, 'first')).fromBlocks.length, 70);
  await store.deleteSheet('first');
  const second = Array.from({ length: 50 }, (_, n) => row(n, 'second '));
  await store.createSheet(scratchSheet('second', columns), [second.map((cells) => [...cells])]);
  const { fromBlocks } = await both(store, 'second');
  assert.deepEqual(
    fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
    second,
  );
});

test(
  `${backend}: rows POSTed wait after the blocks, which a commit of one row leaves as they are, until about 8 KB of them join at once`,
  {
    skip: backend !== 'sqlite' && 'reads the SQLite file',
  },
  async (t) => {
    const { store, env, dispose } = await openTestStore({ indexThreshold: 0 });
    t.after(dispose);
    const model = Array.from({ length: 70 }, (_, n) => row(n));
    await store.createSheet(scratchSheet('waiting', columns), [model.map((cells) => [...cells])]);
    const file = new Database(join(env.SHEETPORT_DATA_DIR as string, 'sheetport.db'), {
      readonly: true,
    });
    t.after(() => file.close());
    const blocks = () =>
      file.prepare('SELECT block, count, json FROM blocks ORDER BY block').all() as {
        count: number;
      }[];
    const held = () => blocks().reduce((sum, block) => sum + block.count, 0);
    const write = async (request: WriteRequest, change: () => void) => {
      const results = await store.writeRows('waiting', [request]);
      assert.ok(results.every((result) => !(result instanceof Error)));
      change();
      const { fromBlocks, fromRows } = await both(store, 'waiting');
      assert.deepEqual(fromRows, model);
      assert.deepEqual(
        fromBlocks.map((object) => columns.map((column) => object[column] ?? null)),
        model,
      );
    };
    const append = (n: number) =>
      write({ op: { kind: 'append', rows: [row(n)] }, ifMatch: null }, () => model.push(row(n)));
    const before = blocks();
    assert.equal(held(), 70);
    // Rows of about 600 bytes: thirteen wait, the fourteenth makes 8 KB of them.
    for (let n = 100; n < 113; n++) await append(n);
    assert.deepEqual(blocks(), before);
    await append(113);
    assert.equal(held(), 84);
    // A change by position lets the rows waiting join first, then counts them in their blocks.
    for (let n = 114; n < 117; n++) await append(n);
    assert.equal(held(), 84);
    const cells = new Map<number, Cell>([[1, 'changed']]);
    await write({ op: { kind: 'patch', selection: { ids: [85] }, cells }, ifMatch: null }, () => {
      (model[85] as Cell[])[1] = 'changed';
    });
    assert.equal(held(), 87);
    await write({ op: { kind: 'delete', selection: { ids: [86, 3] } }, ifMatch: null }, () => {
      model.splice(86, 1);
      model.splice(3, 1);
    });
    assert.equal(held(), 85);
  },
);

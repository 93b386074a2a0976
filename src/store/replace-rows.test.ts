import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import { diffRows } from './replace-rows.ts';
import { RowCodec, type StoredRow } from './row-json.ts';
import { keptRows } from './row-diff.ts';
import { applyInMemory } from './memory-rows.ts';

const codec = new RowCodec(['name']);
const stored = (names: string[]): StoredRow[] =>
  names.map((name, pos) => ({ pos, rid: pos, ...codec.encode([name]) }));

/** Effects in short: `-3,5` deletes (old positions), `+2:x,y` inserts, `~4:z` updates. */
function summary(effects: RowEffect[]): string[] {
  return effects.map((effect) => {
    const names = (rows: Cell[][]) => rows.map((row) => String(row[0])).join(',');
    switch (effect.kind) {
      case 'delete':
        return `-${effect.positions.join(',')}`;
      case 'insert':
        return `+${effect.at}:${names(effect.rows)}`;
      case 'update':
        return `~${effect.positions.join(',')}:${names(effect.after)}`;
      case 'move':
        return `>${effect.shown.from.map((from, k) => `${from}-${effect.shown.to[k]}`).join(',')}`;
      default:
        return effect.kind;
    }
  });
}

const rows10 = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];

const cases: { name: string; before: string[]; after: string[]; effects: string[] }[] = [
  { name: 'nothing changed', before: rows10, after: rows10, effects: [] },
  {
    name: 'two edits far apart are two updated rows, not the rows between',
    before: rows10,
    after: ['A', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'J'],
    effects: ['~0,9:A,J'],
  },
  {
    name: 'a row inserted in the middle is one insert',
    before: rows10,
    after: ['a', 'b', 'c', 'x', 'd', 'e', 'f', 'g', 'h', 'i', 'j'],
    effects: ['+3:x'],
  },
  {
    name: 'an insert and an edit far below it do not name the rows between',
    before: rows10,
    after: ['a', 'x', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'J'],
    effects: ['+1:x', '~10:J'],
  },
  {
    name: 'a delete and an insert elsewhere',
    before: rows10,
    after: ['a', 'c', 'd', 'e', 'f', 'g', 'y', 'h', 'i', 'j'],
    effects: ['-1', '+6:y'],
  },
  {
    name: 'rows deleted in two places, named by their positions before',
    before: rows10,
    after: ['a', 'b', 'd', 'e', 'f', 'g', 'h', 'j'],
    effects: ['-2,8'],
  },
  {
    name: 'rows appended at the end',
    before: ['a', 'b'],
    after: ['a', 'b', 'c', 'd'],
    effects: ['+2:c,d'],
  },
  { name: 'every row gone', before: ['a', 'b'], after: [], effects: ['-0,1'] },
  {
    name: 'an edit beside an insert pairs in place, then inserts',
    before: ['a', 'b', 'c'],
    after: ['a', 'B', 'x', 'c'],
    effects: ['+2:x', '~1:B'],
  },
  {
    name: 'a row moved down is one move, not a delete and an insert',
    before: rows10,
    after: ['a', 'c', 'd', 'e', 'b', 'f', 'g', 'h', 'i', 'j'],
    effects: ['>1-4'],
  },
  {
    name: 'a block moved up moves its rows only',
    before: rows10,
    after: ['a', 'g', 'h', 'b', 'c', 'd', 'e', 'f', 'i', 'j'],
    effects: ['>6-1,7-2'],
  },
  {
    name: 'a sort moves rows, named by their positions before and after',
    before: ['c', 'a', 'b'],
    after: ['a', 'b', 'c'],
    effects: ['>0-2'],
  },
  {
    name: 'a move beside an edit in place',
    before: rows10,
    after: ['a', 'x', 'c', 'j', 'd', 'e', 'f', 'g', 'h', 'i'],
    effects: ['>9-3', '~1:x'],
  },
  {
    name: 'a move beside a delete and an insert',
    before: rows10,
    after: ['a', 'c', 'j', 'd', 'x', 'y', 'e', 'f', 'g', 'h', 'i'],
    effects: ['-1', '>9-2', '+4:x,y'],
  },
];

for (const { name, before, after, effects } of cases) {
  test(`diffRows: ${name}`, () => {
    const got = diffRows(
      codec,
      stored(before),
      after.map((row) => [row]),
    );
    assert.deepEqual(summary(got), effects);
  });
}

test('keptRows finds a longest common subsequence, and gives up past its work limit', () => {
  assert.deepEqual(keptRows(['a', 'b', 'c'], ['b', 'c', 'd']), [
    [1, 0],
    [2, 1],
  ]);
  assert.deepEqual(keptRows([], ['a']), []);
  const many = Array.from({ length: 1000 }, (_, i) => `r${i}`);
  const other = Array.from({ length: 1000 }, (_, i) => `s${i}`);
  assert.equal(keptRows(many, other, 10_000), null);
});

/** The effects applied in order to plain rows, as the store applies them. */
function applied(before: string[], effects: RowEffect[]): string[] {
  const rows = before.map((name): Cell[] => [name]);
  for (const effect of effects) applyInMemory(rows, effect);
  return rows.map((row) => String(row[0]));
}

test('diffRows: the effects, applied in order, turn any rows into any other', () => {
  const names = fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { maxLength: 12 });
  fc.assert(
    fc.property(names, names, (before, after) => {
      const effects = diffRows(
        codec,
        stored(before),
        after.map((row) => [row]),
      );
      assert.deepEqual(applied(before, effects), after);
    }),
    { numRuns: 500 },
  );
});

const people = new RowCodec(['name', 'city', 'age']);
const storedPeople = (rows: Cell[][]): StoredRow[] =>
  rows.map((cells, pos) => ({ pos, rid: 100 + pos, ...people.encode(cells) }));

test('diffRows: a row edited in place beside a row inserted above it keeps its place as an update', () => {
  const before: Cell[][] = [
    ['Ann', 'Oslo', 30],
    ['Bob', 'Rome', 41],
    ['Cy', 'Lima', 25],
  ];
  const after: Cell[][] = [
    ['Ann', 'Oslo', 30],
    ['Dee', 'Kyiv', 52],
    ['Bob', 'Rome', 42],
    ['Cy', 'Lima', 25],
  ];
  const effects = diffRows(people, storedPeople(before), after);
  assert.deepEqual(
    effects.map((effect) => [effect.kind, 'positions' in effect ? effect.positions : []]),
    [
      ['insert', []],
      ['update', [2]],
    ],
  );
  assert.equal(effects[0]?.kind === 'insert' && effects[0].at, 1);
});

test('diffRows: a row deleted and another typed in its place sharing no cell is a delete and an insert', () => {
  const before: Cell[][] = [
    ['Ann', 'Oslo', 30],
    ['Bob', 'Rome', 41],
    ['Cy', 'Lima', 25],
  ];
  const after: Cell[][] = [
    ['Ann', 'Oslo', 30],
    ['Dee', 'Kyiv', 52],
    ['Cy', 'Lima', 25],
  ];
  const effects = diffRows(people, storedPeople(before), after);
  assert.deepEqual(
    effects.map((effect) => effect.kind),
    ['delete', 'insert'],
  );
});

test('diffRows: the effects, applied in order, turn any rows into any other, moves included', () => {
  const names = fc.array(fc.constantFrom<string>('a', 'b', 'c', 'd', 'e', 'f', 'g'), {
    maxLength: 16,
  });
  fc.assert(
    fc.property(names, fc.array(fc.nat(), { maxLength: 16 }), (before, order) => {
      // Shuffled, then trimmed and grown, so that most rows move.
      const after = before
        .map((name, i) => ({ name, by: order[i] ?? i }))
        .sort((x, y) => x.by - y.by)
        .map(({ name }) => name)
        .slice(0, Math.max(0, before.length - (order.length % 3)))
        .concat(order.length % 2 === 0 ? ['z'] : []);
      const effects = diffRows(
        codec,
        stored(before),
        after.map((row) => [row]),
      );
      assert.deepEqual(applied(before, effects), after);
    }),
    { numRuns: 500 },
  );
});

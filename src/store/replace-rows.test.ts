import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import { diffRows } from './replace-rows.ts';
import { RowCodec, type StoredRow } from './row-json.ts';
import { keptRows } from './row-diff.ts';

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
  let rows = [...before];
  for (const effect of effects) {
    if (effect.kind === 'delete') rows = rows.filter((_, pos) => !effect.positions.includes(pos));
    if (effect.kind === 'insert')
      rows.splice(effect.at, 0, ...effect.rows.map((r) => String(r[0])));
    if (effect.kind === 'update') {
      effect.positions.forEach((pos, i) => (rows[pos] = String(effect.after[i]?.[0])));
    }
  }
  return rows;
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

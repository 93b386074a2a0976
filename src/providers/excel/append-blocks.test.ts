import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Cell } from '../../cells/cell.ts';
import { appendBlocks, appendsLanded } from './append-blocks.ts';
import { planSteps } from './excel-operations.ts';

const rows: Cell[][] = [
  ['Ann', 31],
  ['Bob', 27],
];
const steps = planSteps(2, rows, [{ kind: 'append', rows: [['Zoe', 19]] }]);
const images = [rows, ...steps.map((step) => step.after)];
const blocks = appendBlocks(images, steps, 2);

test('an append is found landed below the last row, and above rows a person pushed down', () => {
  assert.equal(appendsLanded([...rows, ['Zoe', 19]], blocks, 0, 2), true);
  const moved: Cell[][] = [
    ['Top', 0],
    ['Ann', 31],
    ['Zoe', 19],
    ['Bob', 27],
  ];
  assert.equal(appendsLanded(moved, blocks, 0, 2), true);
});

test('an append whose rows are not there, or were there already before it, is not found landed', () => {
  assert.equal(appendsLanded([['Top', 0], ...rows], blocks, 0, 2), false);
  const withZoe: Cell[][] = [['Zoe', 19], ...rows];
  const again = planSteps(2, withZoe, [{ kind: 'append', rows: [['Zoe', 19]] }]);
  const blocksAgain = appendBlocks([withZoe, ...again.map((s) => s.after)], again, 2);
  assert.equal(appendsLanded(withZoe, blocksAgain, 0, 2), false, 'the Zoe there before');
  assert.equal(appendsLanded([...withZoe, ['Zoe', 19]], blocksAgain, 0, 2), true);
});

test('a push with an operation that is not an append is never found by its rows', () => {
  const update = planSteps(2, rows, [
    { kind: 'append', rows: [['Zoe', 19]] },
    { kind: 'delete', positions: [0], before: [] },
  ]);
  const mixed = appendBlocks([rows, ...update.map((s) => s.after)], update, 2);
  assert.equal(
    appendsLanded(
      [
        ['Bob', 27],
        ['Zoe', 19],
      ],
      mixed,
      0,
      2,
    ),
    false,
  );
  assert.equal(appendsLanded([], undefined, 0, 2), false, 'a record of an earlier version');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell } from '../../cells/cell.ts';
import { planSteps, runs } from './excel-operations.ts';

const rows: Cell[][] = [
  ['Ann', 31],
  ['Bob', 27],
  ['Kim', 40],
  ['Lee', 22],
  ['Max', 50],
];

test('runs gathers adjacent positions', () => {
  assert.deepEqual(runs([4, 0, 1, 3], 'ascending'), [
    [0, 1],
    [3, 4],
  ]);
  assert.deepEqual(runs([4, 0, 1, 3], 'descending'), [
    [3, 4],
    [0, 1],
  ]);
  assert.deepEqual(runs([2, 2], 'ascending'), [[2, 2]]);
});

test('an append writes the rows below the last, text with the text format', () => {
  const steps = planSteps(2, rows, [
    {
      kind: 'append',
      rows: [
        ['007', 1],
        ['=1+1', null],
      ],
    },
  ]);
  assert.deepEqual(
    steps.map((s) => s.operation),
    [
      {
        kind: 'write',
        address: 'A7:B8',
        insert: 'A7:B8',
        values: [
          ['007', 1],
          ['=1+1', ''],
        ],
        numberFormat: [
          ['@', null],
          ['@', null],
        ],
      },
    ],
  );
  assert.deepEqual(steps[0]?.after, [...rows, ['007', 1], ['=1+1', null]]);
});

test('an update of non-adjacent rows is one write per run, over the changed columns only', () => {
  const update = {
    kind: 'update' as const,
    positions: [0, 1, 4],
    cells: new Map<number, Cell>([[1, 99]]),
    before: [rows[0], rows[1], rows[4]] as Cell[][],
    after: [
      ['Ann', 99],
      ['Bob', 99],
      ['Max', 99],
    ],
  };
  const steps = planSteps(2, rows, [update]);
  assert.deepEqual(
    steps.map((s) => s.operation),
    [
      { kind: 'write', address: 'B2:B3', values: [[99], [99]], numberFormat: [[null], [null]] },
      { kind: 'write', address: 'B6:B6', values: [[99]], numberFormat: [[null]] },
    ],
  );
  assert.deepEqual(steps[0]?.after.slice(0, 2), [
    ['Ann', 99],
    ['Bob', 99],
  ]);
  assert.deepEqual(steps[1]?.after, [
    ['Ann', 99],
    ['Bob', 99],
    ['Kim', 40],
    ['Lee', 22],
    ['Max', 99],
  ]);
});

test('cells between changed columns are left as they are (null)', () => {
  const steps = planSteps(
    3,
    [['a', 'b', 'c']],
    [
      {
        kind: 'update',
        positions: [0],
        cells: new Map<number, Cell>([
          [0, 'x'],
          [2, 'z'],
        ]),
        before: [['a', 'b', 'c']],
        after: [['x', 'b', 'z']],
      },
    ],
  );
  assert.deepEqual(steps[0]?.operation, {
    kind: 'write',
    address: 'A2:C2',
    values: [['x', null, 'z']],
    numberFormat: [['@', null, '@']],
  });
});

test('a delete of non-adjacent rows removes the lowest run first, each with its after-image', () => {
  const steps = planSteps(2, rows, [{ kind: 'delete', positions: [0, 3, 4, 1], before: [] }]);
  assert.deepEqual(
    steps.map((s) => s.operation),
    [
      { kind: 'delete', address: '5:6' },
      { kind: 'delete', address: '2:3' },
    ],
  );
  assert.deepEqual(steps[0]?.after, rows.slice(0, 3));
  assert.deepEqual(steps[1]?.after, [['Kim', 40]]);
});

test('effects apply in order: positions count on the rows as the previous effect left them', () => {
  const steps = planSteps(2, rows, [
    { kind: 'delete', positions: [0], before: [] },
    {
      kind: 'update',
      positions: [0],
      cells: new Map<number, Cell>([[1, 1]]),
      before: [['Bob', 27]],
      after: [['Bob', 1]],
    },
    { kind: 'append', rows: [['New', 2]] },
  ]);
  assert.deepEqual(
    steps.map((s) => s.operation.address),
    ['2:2', 'B2:B2', 'A6:B6'],
  );
  assert.deepEqual(steps.at(-1)?.after, [
    ['Bob', 1],
    ['Kim', 40],
    ['Lee', 22],
    ['Max', 50],
    ['New', 2],
  ]);
});

test('appends that follow each other, as a group commit gathers them, are one write', () => {
  const steps = planSteps(2, rows, [
    { kind: 'append', rows: [['A', 1]] },
    { kind: 'append', rows: [['B', 2]] },
    { kind: 'delete', positions: [0], before: [] },
    { kind: 'append', rows: [['C', 3]] },
  ]);
  assert.deepEqual(
    steps.map((s) => s.operation.address),
    ['A7:B8', '2:2', 'A8:B8'],
  );
});

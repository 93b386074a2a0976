import assert from 'node:assert/strict';
import { test } from 'node:test';
import { recordOf, verdictOf } from './push-record.ts';
import type { Step } from './excel-operations.ts';

/** Three operations: A's append (effect 0), B's update in two runs (effects 1, 2), C's delete. */
const step = (effects: number[]): Step => ({
  operation: { kind: 'delete', address: '2:2' },
  after: [],
  area: { top: 0, bottom: 0, left: 0, right: 0 },
  effects,
});
const record = recordOf(
  'plan-1',
  ['name'],
  0,
  [step([0]), step([1]), step([2]), step([3])],
  ['A', 'B', 'B', 'C'],
  [],
  [],
);

test('a push stopped after its first operations: writes wholly before the stop landed, wholly after did not, across it unknown', () => {
  assert.equal(verdictOf(record, 4, false), 'plan-1');
  assert.equal(verdictOf(record, 0, false), null);
  assert.deepEqual(verdictOf(record, 1, false), { plan: 'plan-1', missed: ['B', 'C'], partly: [] });
  assert.deepEqual(verdictOf(record, 2, false), { plan: 'plan-1', missed: ['C'], partly: ['B'] });
  assert.deepEqual(verdictOf(record, 3, false), { plan: 'plan-1', missed: ['C'], partly: [] });
});

test('the operation after the stop may have landed (its answer lost): its write is unknown, the ones after it did not land', () => {
  assert.deepEqual(verdictOf(record, 0, true), {
    plan: 'plan-1',
    missed: ['B', 'C'],
    partly: ['A'],
  });
  assert.deepEqual(verdictOf(record, 1, true), { plan: 'plan-1', missed: ['C'], partly: ['B'] });
});

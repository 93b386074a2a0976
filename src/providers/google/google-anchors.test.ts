import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WriteEffect } from '../../model/write-effect.ts';
import { anchorPositions, appendedPositions } from './google-anchors.ts';

const update = (...positions: number[]): WriteEffect => ({
  kind: 'update',
  positions,
  cells: new Map([[0, 'x']]),
  before: [],
  after: [],
});
const remove = (...positions: number[]): WriteEffect => ({ kind: 'delete', positions, before: [] });
const append = (count: number): WriteEffect => ({
  kind: 'append',
  rows: Array.from({ length: count }, () => ['a']),
});

test('each target and the row after each run of targets is anchored, as the rows stood before the push', () => {
  assert.deepEqual(anchorPositions([update(1, 2, 5)], 10, 1000), [1, 2, 3, 5, 6]);
  // A delete first shifts the positions of the update after it: position 3 then was row 4.
  assert.deepEqual(anchorPositions([remove(0), update(3)], 10, 1000), [0, 1, 4, 5]);
});

test('rows the push appends are no targets, and a row after past the grid is left out', () => {
  assert.deepEqual(anchorPositions([append(2), update(10, 11)], 10, 1000), []);
  // Grid of 11 rows: the header and rows 0 to 9; the row after 9 does not exist.
  assert.deepEqual(anchorPositions([update(9)], 10, 11), [9]);
});

test('too many rows for the budget: the ends of each run and the row after; still too many: none', () => {
  assert.deepEqual(anchorPositions([update(1, 2, 3, 4, 8)], 10, 1000, 5), [1, 4, 5, 8, 9]);
  assert.deepEqual(anchorPositions([update(1, 3, 5, 7)], 10, 1000, 5), []);
});

test('appended rows end where the effects after them leave them', () => {
  assert.deepEqual(appendedPositions([append(2)], 3), [3, 4]);
  assert.deepEqual(appendedPositions([append(1), remove(0), append(1)], 3), [2, 3]);
});

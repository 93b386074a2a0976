import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Operation } from './excel-operations.ts';
import { batchLimit, nextChunk } from './push-channel.ts';

const append: Operation = {
  kind: 'write',
  address: 'A7:B7',
  values: [['x', 1]],
  numberFormat: [[null, null]],
  insert: 'A7:B7',
};
const update: Operation = {
  kind: 'write',
  address: 'B2:B2',
  values: [[1]],
  numberFormat: [[null]],
};
const deleteAt = (row: number): Operation => ({ kind: 'delete', address: `${row}:${row}` });

test('a chunk holds at most 20 Graph requests, an append counting as its insert and its write', () => {
  const operations = [append, ...Array.from({ length: 19 }, (_, i) => deleteAt(30 - i))];
  const first = nextChunk(operations, 0);
  assert.equal(first.length, batchLimit - 1, 'the append and 18 deletes');
  assert.deepEqual(nextChunk(operations, first.length), [deleteAt(12)]);
});

test('a chunk takes the operations left when they fit, and none once all were sent', () => {
  assert.deepEqual(nextChunk([update], 0), [update]);
  assert.deepEqual(nextChunk([update, append], 0), [update, append]);
  assert.deepEqual(nextChunk([update, append], 2), []);
});

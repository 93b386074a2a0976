import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BlockPool } from './block-pool.ts';

const blocks = (bytes: number, count = 2) =>
  Array.from({ length: count }, () => Buffer.alloc(bytes / count, 'x'));

test('the pool answers a sheet only at the id and version its blocks were read at', () => {
  const pool = new BlockPool(1000);
  pool.set(1, 'a', 3, blocks(100));
  assert.equal(pool.get(1, 'a', 3)?.length, 2);
  assert.equal(pool.get(1, 'a', 4), null);
  assert.equal(pool.get(1, 'b', 3), null);
  assert.equal(pool.get(2, 'a', 3), null);
  // A newer version read replaces the older.
  pool.set(1, 'a', 4, blocks(100, 4));
  assert.equal(pool.get(1, 'a', 3), null);
  assert.equal(pool.get(1, 'a', 4)?.length, 4);
});

test('the pool keeps the sheets read last within its bytes, and none larger than a quarter of them', () => {
  const pool = new BlockPool(1000);
  pool.set(1, 'a', 1, blocks(240));
  pool.set(2, 'b', 1, blocks(240));
  pool.set(3, 'c', 1, blocks(240));
  assert.ok(pool.get(1, 'a', 1) !== null);
  // 960 bytes kept; a fourth sheet pushes out the one read longest ago, which is now 2.
  pool.set(4, 'd', 1, blocks(240));
  pool.set(5, 'e', 1, blocks(240));
  assert.equal(pool.get(2, 'b', 1), null);
  assert.ok(pool.get(1, 'a', 1) !== null);
  assert.ok(pool.get(5, 'e', 1) !== null);
  pool.set(6, 'f', 1, blocks(260));
  assert.equal(pool.get(6, 'f', 1), null);
});

test('what the pool hands out is a copy of its list, which a caller may change', () => {
  const pool = new BlockPool(1000);
  pool.set(1, 'a', 1, blocks(100));
  pool.get(1, 'a', 1)?.push(Buffer.from('more'));
  assert.equal(pool.get(1, 'a', 1)?.length, 2);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mayRetry, newIdempotencyKey } from './idempotency-key.ts';

test('a key is a quoted version 4 UUID, fresh each time', () => {
  const keys = new Set(Array.from({ length: 100 }, () => newIdempotencyKey()));
  assert.equal(keys.size, 100);
  for (const key of keys) {
    assert.match(key, /^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
  }
});

test('the version and variant bits are set whatever the random bytes', () => {
  const all = (value: number) => ({
    getRandomValues: <T extends ArrayBufferView | null>(array: T) => {
      (array as unknown as Uint8Array).fill(value);
      return array;
    },
  });
  assert.equal(newIdempotencyKey(all(0)), '"00000000-0000-4000-8000-000000000000"');
  assert.equal(newIdempotencyKey(all(255)), '"ffffffff-ffff-4fff-bfff-ffffffffffff"');
});

test('only a write that got no answer, or a 503, is sent again', () => {
  const cases: [number | null, boolean][] = [
    [null, true],
    [503, true],
    [504, false],
    [409, false],
    [429, false],
    [500, false],
    [201, false],
  ];
  for (const [status, retried] of cases) assert.equal(mayRetry(status), retried, String(status));
});

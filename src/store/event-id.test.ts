import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newEventId } from './event-id.ts';

test('event ids made later sort after earlier ones, whatever their random part', () => {
  const times = [0, 1, 35, 36, 1_700_000_000_000, 1_700_000_000_001, 4_102_444_800_000];
  for (let round = 0; round < 50; round++) {
    const ids = times.map((time) => newEventId(time));
    assert.deepEqual([...ids].sort(), ids);
  }
});

test('event ids made in the same millisecond differ', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => newEventId(1_700_000_000_000)));
  assert.equal(ids.size, 1000);
});

test('an event id is evt_ and 25 URL-safe characters', () => {
  assert.match(newEventId(), /^evt_[0-9a-z]{9}[\w-]{16}$/);
});

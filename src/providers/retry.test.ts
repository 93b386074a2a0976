import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { attemptTimeout, withRetries, type RetryPolicy, type Verdict } from './retry.ts';

/** A clock that moves only when the code under test waits. */
function fakeTime(): RetryPolicy & { waits: number[] } {
  let now = 0;
  const waits: number[] = [];
  return {
    baseMs: 100,
    maxMs: 1000,
    now: () => now,
    random: () => 1,
    wait: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
    waits,
  };
}

const limited = (retryAfterMs?: number): Verdict => ({
  retry: true,
  ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  problem: new Problem('provider-rate-limited', 'slow down'),
});

test('retries back off exponentially up to a cap and succeed when the provider does', async () => {
  const time = fakeTime();
  let calls = 0;
  const result = await withRetries(
    async () => {
      if (++calls < 6) throw new Error('429');
      return 'done';
    },
    () => limited(),
    60_000,
    time,
  );
  assert.equal(result, 'done');
  assert.deepEqual(time.waits, [100, 200, 400, 800, 1000]);
});

test('a Retry-After longer than the backoff is honoured', async () => {
  const time = fakeTime();
  let calls = 0;
  await withRetries(
    async () => {
      if (++calls < 3) throw new Error('429');
    },
    () => limited(5000),
    60_000,
    time,
  );
  assert.deepEqual(time.waits, [5000, 5000]);
});

test('past the deadline the problem is thrown with a Retry-After, and final errors are not retried', async () => {
  const time = fakeTime();
  await assert.rejects(
    withRetries(
      async () => Promise.reject(new Error('429')),
      () => limited(3000),
      7000,
      time,
    ),
    (error: unknown) =>
      error instanceof Problem &&
      error.code === 'provider-rate-limited' &&
      error.headers['retry-after'] === '3',
  );
  assert.deepEqual(time.waits, [3000, 3000]);
  let calls = 0;
  await assert.rejects(
    withRetries(
      async () => {
        calls++;
        throw new Error('404');
      },
      () => ({ retry: false, problem: new Problem('spreadsheet-not-found', 'gone') }),
      60_000,
      fakeTime(),
    ),
    /gone/,
  );
  assert.equal(calls, 1);
});

test('one attempt waits a third of the time left, at least a second and at most twenty', () => {
  const cases: [msLeft: number, timeout: number][] = [
    [30_000, 10_000],
    [90_000, 20_000],
    [60_001, 20_000],
    [3_000, 1_000],
    [1_500, 1_000],
    [-5_000, 1_000],
  ];
  for (const [msLeft, timeout] of cases) {
    assert.equal(attemptTimeout(1_000_000 + msLeft, 1_000_000), timeout, `${msLeft} ms left`);
  }
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RequestBudget } from './request-budget.ts';

function budgetAt(settings: Partial<ConstructorParameters<typeof RequestBudget>[0]> = {}) {
  const clock = { now: 0 };
  const budget = new RequestBudget(
    { readsPerMinute: 60, watchShare: 0.5, probesPerMinute: 3, ...settings },
    () => clock.now,
  );
  return { clock, budget };
}

const read = { request: 'read', retry: false, outcome: 'ok' } as const;

test('watching may take half the reads of a minute; the API reads count against that half', () => {
  const { clock, budget } = budgetAt();
  for (let i = 0; i < 29; i++) budget.observe(read);
  assert.equal(budget.mayWatchRead(), true);
  budget.observe(read);
  assert.equal(budget.mayWatchRead(), false);
  // Reads older than the window no longer count.
  clock.now = 60_001;
  assert.equal(budget.mayWatchRead(), true);
  assert.equal(budget.readsInWindow, 0);
});

test('probes are counted against their own quota', () => {
  const { clock, budget } = budgetAt();
  assert.deepEqual(
    [1, 2, 3, 4].map(() => budget.takeProbe()),
    [true, true, true, false],
  );
  for (let i = 0; i < 30; i++) budget.observe(read);
  clock.now = 60_001;
  assert.equal(budget.takeProbe(), true);
});

test('a 429 on any request pauses watching, longer each time, and shorter after successes', () => {
  const { clock, budget } = budgetAt();
  budget.observe({ request: 'write', retry: false, outcome: 'rate_limited' });
  assert.equal(budget.mayWatchRead(), false);
  assert.equal(budget.takeProbe(), false);
  clock.now = 5_001;
  assert.equal(budget.mayWatchRead(), true);
  budget.observe({ request: 'read', retry: false, outcome: 'rate_limited' });
  clock.now = 5_001 + 9_999;
  assert.equal(budget.paused, true, 'the second pause is twice the first');
  clock.now = 5_001 + 10_001;
  assert.equal(budget.paused, false);
});

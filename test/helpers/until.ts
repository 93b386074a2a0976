import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `condition` holds, checking every few milliseconds; fails after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(5);
  }
}

/**
 * Resolves once `count()` has stayed the same for `quietMs`, and answers that count: a check
 * that nothing more arrives (a late duplicate, a retry) waits this long after the last arrival,
 * so `quietMs` must exceed the longest delay after which the server could still send one.
 * Fails if the count is still changing after `ms`.
 */
export async function quiet(
  count: () => number | Promise<number>,
  what: string,
  quietMs: number,
  ms = 10_000,
): Promise<number> {
  const deadline = Date.now() + ms;
  let last = await count();
  let since = Date.now();
  for (;;) {
    await sleep(Math.min(20, quietMs));
    const now = await count();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (Date.now() - since >= quietMs) {
      return now;
    }
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what} stopped changing`);
  }
}

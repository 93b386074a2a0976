import { setTimeout as sleep } from 'node:timers/promises';

/** Resolves once `condition` holds, checking every few milliseconds; fails after `ms`. */
export async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(5);
  }
}

import { setTimeout as sleep } from 'node:timers/promises';
import type { GraphEmulator } from '../../test/graph-emulator/index.ts';
import { endLockConnections } from '../../test/helpers/stores.ts';

/** What the lock losses of one run came to. */
export interface LockLosses {
  /** Pushes whose `$batch` Graph held while their server's lock connection was ended. */
  held: number;
  /** Lock connections ended (pg_terminate_backend). */
  ended: number;
  /** Held requests released only after another push's write had landed since the loss. */
  releasedAfterAnotherWrite: number;
  /** Held requests that applied anything when released (their session was still open). */
  landedLate: number;
}

/**
 * Plays, every `everyMs` until `stopAt` (performance clock), a lock loss in the middle of a
 * push on PostgreSQL: Graph holds the next `$batch` (an append or a batch of operations)
 * unanswered; once it holds one, the database sessions holding a sheet lock are ended, as a
 * network fault would end the lock holder's; the held request is released only after a write
 * of another push landed (the server that took the sheet over wrote), or after `waitMs`.
 */
export async function playLockLosses(
  emulator: GraphEmulator,
  databaseUrl: string,
  stopAt: number,
  { everyMs = 2500, waitMs = 15_000 } = {},
): Promise<LockLosses> {
  const losses: LockLosses = { held: 0, ended: 0, releasedAfterAnotherWrite: 0, landedLate: 0 };
  while (performance.now() + everyMs < stopAt) {
    await sleep(everyMs);
    const before = emulator.heldCount;
    emulator.failNext(1, { mode: 'late', match: { only: 'batch' } });
    if (!(await until(() => emulator.heldCount > before, 5000))) {
      emulator.clearFaults();
      continue;
    }
    losses.held++;
    const lostAt = Date.now();
    losses.ended += await endLockConnections(databaseUrl).catch(() => 0);
    const wrote = await until(
      () =>
        emulator
          .requests()
          .some((r) => r.at > lostAt && r.method === 'PATCH' && r.applied && r.status < 300),
      waitMs,
    );
    if (wrote) losses.releasedAfterAnotherWrite++;
    // The requests inside a released batch are logged as they run, all within this call.
    const logged = emulator.requests().length;
    emulator.applyHeld();
    if (
      emulator
        .requests()
        .slice(logged)
        .some((r) => r.applied)
    )
      losses.landedLate++;
  }
  return losses;
}

async function until(condition: () => boolean, withinMs: number): Promise<boolean> {
  const stop = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > stop) return false;
    await sleep(20);
  }
  return true;
}

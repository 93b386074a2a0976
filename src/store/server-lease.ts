import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { SheetStore } from './store.ts';

/**
 * How long a server's lease on its store runs without being renewed: a server that died without
 * removing it (killed, or its machine lost) stops counting as running this long after.
 */
export const serverLeaseMs = 30_000;

/** A server's lease on its store, kept while it runs (see `SheetStore.holdServerLease`). */
export interface HeldServerLease {
  /** Removes the lease: the server is stopping. */
  release(): Promise<void>;
}

/**
 * Takes a lease on the store for this server process and renews it a few times per lease, so
 * that `sheetport import` can tell a running server holds the data directory. A renewal that
 * fails (the store away) is reported and tried again at the next turn.
 */
export async function holdServerLease(
  store: Pick<SheetStore, 'holdServerLease' | 'releaseServerLease'>,
  onError: (error: unknown) => void,
): Promise<HeldServerLease> {
  const lease = { owner: randomUUID(), host: hostname(), pid: process.pid };
  await store.holdServerLease(lease, serverLeaseMs);
  const timer = setInterval(() => {
    store.holdServerLease(lease, serverLeaseMs).catch(onError);
  }, serverLeaseMs / 3);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await store.releaseServerLease(lease.owner).catch(onError);
    },
  };
}

import type { Dialect } from './dialect.ts';
import type { ServerLease } from './store-records.ts';

/** What servers sharing a store hold or claim: flags, watches of Google tabs, server leases. */
export interface LeaseStore {
  /**
   * Sets a flag for one-time set-up, like the demo sheet: true for the one caller, across all
   * servers sharing the store, that set it first.
   */
  claimFlag(name: string): Promise<boolean>;
  /**
   * Of the sheets `owner` wants to watch, those it may: its lease on each is taken or renewed
   * for `leaseMs`, unless another owner's is still running. Its leases on other sheets end.
   */
  holdWatches(owner: string, sheetIds: string[], leaseMs: number): Promise<string[]>;
  releaseFlag(name: string): Promise<void>;
  /**
   * Records that a server runs on this store until `leaseMs` from now; the server renews it
   * while it runs and removes it when it stops. A server that died leaves it to run out.
   */
  holdServerLease(lease: Omit<ServerLease, 'leaseUntil'>, leaseMs: number): Promise<void>;
  releaseServerLease(owner: string): Promise<void>;
  /** The servers whose lease on this store is still running. */
  runningServers(): Promise<ServerLease[]>;
}

/** Flags, watches and leases over a dialect: each call one unit of work over its statements. */
export function leaseStore(db: Dialect): LeaseStore {
  return {
    claimFlag: (name) => db.write(() => db.leases.claimFlag(name)),

    holdWatches(owner, sheetIds, leaseMs) {
      const now = new Date();
      const until = new Date(now.getTime() + leaseMs);
      return db.write(() => db.leases.holdWatches(owner, sheetIds, now, until));
    },

    releaseFlag: (name) => db.write(() => db.leases.releaseFlag(name)),

    holdServerLease(lease, leaseMs) {
      const leaseUntil = new Date(Date.now() + leaseMs).toISOString();
      return db.write(() => db.leases.holdServerLease({ ...lease, leaseUntil }));
    },

    releaseServerLease: (owner) => db.write(() => db.leases.releaseServerLease(owner)),

    runningServers: () => db.read(() => db.leases.serverLeases(new Date())),
  };
}

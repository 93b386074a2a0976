import type { ServerLease } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import type { Sql } from './sql.ts';

/** What servers sharing a store hold or claim: flags, watches of Google tabs, server leases. */
export interface LeaseStatements {
  /** True when this call set the flag; false when it was set already. */
  claimFlag(name: string): DbWork<boolean>;
  releaseFlag(name: string): DbWork<void>;
  /**
   * Takes or renews `owner`'s lease on watching each of the sheets, unless another owner's lease
   * is still running, and gives up the owner's leases on the other sheets; answers the ids held.
   */
  holdWatches(owner: string, sheetIds: string[], now: Date, leaseUntil: Date): DbWork<string[]>;
  /** Takes or renews a server's lease (see `SheetStore.holdServerLease`). */
  holdServerLease(lease: ServerLease): DbWork<void>;
  releaseServerLease(owner: string): DbWork<void>;
  /** The leases still running at `now`. */
  serverLeases(now: Date): DbWork<ServerLease[]>;
}

/** Flags, watches and server leases over a dialect's driver, written once for both databases. */
export function leaseSql(sql: Sql): LeaseStatements {
  const { flavor } = sql;
  return {
    *claimFlag(name: string): DbWork<boolean> {
      const changed = yield* sql.changes(
        'INSERT INTO flags (name) VALUES ($1) ON CONFLICT DO NOTHING',
        [name],
      );
      return changed === 1;
    },

    *releaseFlag(name: string): DbWork<void> {
      yield* sql.changes('DELETE FROM flags WHERE name = $1', [name]);
    },

    *holdWatches(owner: string, sheetIds: string[], now: Date, leaseUntil: Date): DbWork<string[]> {
      const ids = flavor.list(sheetIds);
      yield* sql.changes(
        `DELETE FROM watches WHERE owner = $1 AND NOT (${flavor.oneOf('sheet_id', 2, 'text')})`,
        [owner, ids],
      );
      const rows = yield* sql.rows<{ sheet_id: string }>(
        `INSERT INTO watches (sheet_id, owner, lease_until)
         SELECT id, $1, $2 FROM sheets WHERE ${flavor.oneOf('id', 3, 'text')}
         ON CONFLICT (sheet_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
         WHERE watches.owner = excluded.owner OR watches.lease_until < $4
         RETURNING sheet_id`,
        [owner, leaseUntil.toISOString(), ids, now.toISOString()],
      );
      return rows.map((row) => row.sheet_id);
    },

    *holdServerLease(lease: ServerLease): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO server_leases (owner, host, pid, lease_until) VALUES ($1, $2, $3, $4)
         ON CONFLICT (owner) DO UPDATE SET lease_until = excluded.lease_until`,
        [lease.owner, lease.host, lease.pid, lease.leaseUntil],
      );
    },

    *releaseServerLease(owner: string): DbWork<void> {
      yield* sql.changes('DELETE FROM server_leases WHERE owner = $1', [owner]);
    },

    *serverLeases(now: Date): DbWork<ServerLease[]> {
      const rows = yield* sql.rows<{
        owner: string;
        host: string;
        pid: number;
        lease_until: unknown;
      }>(
        'SELECT owner, host, pid, lease_until FROM server_leases WHERE lease_until > $1 ORDER BY owner',
        [now.toISOString()],
      );
      return rows.map((row) => ({
        owner: row.owner,
        host: row.host,
        pid: Number(row.pid),
        leaseUntil: flavor.time(row.lease_until),
      }));
    },
  };
}

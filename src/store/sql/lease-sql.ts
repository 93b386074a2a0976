import type { ServerLease } from '../store.ts';
import type { DbWork } from '../db-work.ts';
import { OutboxSql } from './outbox-sql.ts';

/** Flags, push records, watches of Google tabs and server leases: the statements both dialects share. */
export abstract class LeaseSql extends OutboxSql {
  *claimFlag(name: string): DbWork<boolean> {
    return (
      (yield* this.changed('INSERT INTO flags (name) VALUES ($1) ON CONFLICT DO NOTHING', [
        name,
      ])) === 1
    );
  }

  releaseFlag(name: string): DbWork<void> {
    return this.run('DELETE FROM flags WHERE name = $1', [name]);
  }

  *pushRecord(sheetId: string, pushId: string): DbWork<string | null> {
    const rows = yield* this.all(
      'SELECT record FROM push_records WHERE sheet_id = $1 AND push_id = $2',
      [sheetId, pushId],
      (row: { record: string }) => row.record,
    );
    return rows[0] ?? null;
  }

  putPushRecord(sheetId: string, pushId: string, record: string, at: string): DbWork<void> {
    return this.run(
      `INSERT INTO push_records (sheet_id, push_id, record, updated_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (sheet_id, push_id) DO UPDATE SET record = excluded.record,
         updated_at = excluded.updated_at`,
      [sheetId, pushId, record, at],
    );
  }

  /** Drops the sheet's push records but the one of `keep` (the push still marked, if any). */
  dropPushRecords(sheetId: string, keep: string | null): DbWork<void> {
    return this.run('DELETE FROM push_records WHERE sheet_id = $1 AND push_id <> $2', [
      sheetId,
      keep ?? '',
    ]);
  }

  *holdWatches(owner: string, sheetIds: string[], now: Date, leaseUntil: Date): DbWork<string[]> {
    const ids = this.flavor.list(sheetIds);
    yield* this.run(
      `DELETE FROM watches WHERE owner = $1 AND NOT (${this.flavor.oneOf('sheet_id', 2, 'text')})`,
      [owner, ids],
    );
    return yield* this.all(
      `INSERT INTO watches (sheet_id, owner, lease_until)
       SELECT id, $1, $2 FROM sheets WHERE ${this.flavor.oneOf('id', 3, 'text')}
       ON CONFLICT (sheet_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
       WHERE watches.owner = excluded.owner OR watches.lease_until < $4
       RETURNING sheet_id`,
      [owner, leaseUntil.toISOString(), ids, now.toISOString()],
      (row: { sheet_id: string }) => row.sheet_id,
    );
  }

  holdServerLease(lease: ServerLease): DbWork<void> {
    return this.run(
      `INSERT INTO server_leases (owner, host, pid, lease_until) VALUES ($1, $2, $3, $4)
       ON CONFLICT (owner) DO UPDATE SET lease_until = excluded.lease_until`,
      [lease.owner, lease.host, lease.pid, lease.leaseUntil],
    );
  }

  releaseServerLease(owner: string): DbWork<void> {
    return this.run('DELETE FROM server_leases WHERE owner = $1', [owner]);
  }

  serverLeases(now: Date): DbWork<ServerLease[]> {
    return this.all(
      'SELECT owner, host, pid, lease_until FROM server_leases WHERE lease_until > $1 ORDER BY owner',
      [now.toISOString()],
      (row: { owner: string; host: string; pid: number; lease_until: unknown }) => ({
        owner: row.owner,
        host: row.host,
        pid: Number(row.pid),
        leaseUntil: this.flavor.time(row.lease_until),
      }),
    );
  }
}

import type { ApiKeyRecord, ServerLease } from '../store.ts';
import type { DbWork } from '../db-work.ts';
import { nameable, timeOrNull, type Flavor } from './sql.ts';
import { OutboxSql } from './outbox-sql.ts';

interface KeyRow {
  id: string;
  sheet_id: string;
  name: string;
  scopes: unknown;
  hash: string;
  created_at: unknown;
  expires_at: unknown;
  rotated_to: string | null;
}

function toKey(flavor: Flavor, row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    name: row.name,
    scopes: flavor.json(row.scopes),
    hash: row.hash,
    createdAt: flavor.time(row.created_at),
    expiresAt: timeOrNull(flavor, row.expires_at),
    rotatedTo: row.rotated_to,
  };
}

/** API keys, flags and watches of Google tabs: the statements both dialects share. */
export abstract class KeySql extends OutboxSql {
  insertKey(key: ApiKeyRecord): DbWork<void> {
    return this.run(
      'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
      [
        key.id,
        key.sheetId,
        key.name,
        JSON.stringify(key.scopes),
        key.hash,
        key.createdAt,
        key.expiresAt,
      ],
    );
  }

  keysOf(sheetId: string): DbWork<ApiKeyRecord[]> {
    return this.all(
      'SELECT * FROM api_keys WHERE sheet_id = $1 ORDER BY created_at, id',
      [sheetId],
      (row: KeyRow) => toKey(this.flavor, row),
    );
  }

  *keyById(id: string): DbWork<ApiKeyRecord | null> {
    if (!nameable(id)) return null;
    return yield* this.one('SELECT * FROM api_keys WHERE id = $1', [id], (row: KeyRow) =>
      toKey(this.flavor, row),
    );
  }

  /** A rotation that waited on another's row lock finds rotated_to set, and changes nothing. */
  *markKeyRotated(
    sheetId: string,
    id: string,
    successor: string,
    expiresAt: string,
  ): DbWork<boolean> {
    const changed = yield* this.changed(
      `UPDATE api_keys SET rotated_to = $1,
         expires_at = CASE WHEN expires_at < $2 THEN expires_at ELSE $2 END
       WHERE sheet_id = $3 AND id = $4 AND rotated_to IS NULL`,
      [successor, expiresAt, sheetId, id],
    );
    return changed === 1;
  }

  *deleteKey(sheetId: string, id: string): DbWork<boolean> {
    if (!nameable(id)) return false;
    return (
      (yield* this.changed('DELETE FROM api_keys WHERE sheet_id = $1 AND id = $2', [
        sheetId,
        id,
      ])) === 1
    );
  }

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

import type { IdempotencyRecord } from '../idempotency-records.ts';
import type { KeyId } from '../store.ts';
import type { DbWork } from '../db-work.ts';
import { LeaseSql } from './lease-sql.ts';
import type { Flavor } from './sql.ts';

/** The columns of `idempotency_keys` past its primary key, in the order of `keyFields`. */
const keyColumns =
  'fingerprint, state, token, lease_until, push, outcome, created_at, expires_at, client';

function keyFields(record: IdempotencyRecord): unknown[] {
  return [
    record.fingerprint,
    record.state,
    record.token,
    record.leaseUntil,
    record.push,
    record.outcome,
    record.createdAt,
    record.expiresAt,
    record.client,
  ];
}

interface IdempotencyRow {
  sheet_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  state: IdempotencyRecord['state'];
  token: string;
  lease_until: unknown;
  push: string | null;
  outcome: string | null;
  created_at: unknown;
  expires_at: unknown;
  client: string | null;
}

function toIdempotencyKey(flavor: Flavor, row: IdempotencyRow): IdempotencyRecord {
  return {
    sheetId: row.sheet_id,
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state,
    token: row.token,
    leaseUntil: flavor.time(row.lease_until),
    push: row.push,
    outcome: row.outcome,
    createdAt: flavor.time(row.created_at),
    expiresAt: flavor.time(row.expires_at),
    client: row.client,
  };
}

/** Idempotency keys: the statements both dialects share. */
export abstract class IdempotencySql extends LeaseSql {
  idempotencyKey(id: KeyId, lock: boolean): DbWork<IdempotencyRecord | null> {
    return this.one(
      `SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3${lock ? this.flavor.forUpdate : ''}`,
      [id.sheetId, id.scope, id.key],
      (row: IdempotencyRow) => toIdempotencyKey(this.flavor, row),
    );
  }

  idempotencyKeysOfPush(sheetId: string, pushId: string): DbWork<IdempotencyRecord[]> {
    return this.all(
      `SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND push = $2${this.flavor.forUpdate}`,
      [sheetId, pushId],
      (row: IdempotencyRow) => toIdempotencyKey(this.flavor, row),
    );
  }

  /** A key another server inserts at once waits for its transaction, then is left alone. */
  *insertIdempotencyKey(record: IdempotencyRecord): DbWork<boolean> {
    const changed = yield* this.changed(
      `INSERT INTO idempotency_keys (sheet_id, scope, key, ${keyColumns})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
      [record.sheetId, record.scope, record.key, ...keyFields(record)],
    );
    return changed === 1;
  }

  *updateIdempotencyKey(record: IdempotencyRecord, token: string): DbWork<boolean> {
    const changed = yield* this.changed(
      `UPDATE idempotency_keys SET (${keyColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       WHERE sheet_id = $10 AND scope = $11 AND key = $12 AND token = $13`,
      [...keyFields(record), record.sheetId, record.scope, record.key, token],
    );
    return changed === 1;
  }

  *deleteIdempotencyKey(id: KeyId, token: string): DbWork<boolean> {
    const changed = yield* this.changed(
      'DELETE FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3 AND token = $4',
      [id.sheetId, id.scope, id.key, token],
    );
    return changed === 1;
  }

  pruneIdempotencyKeys(before: string, limit: number): DbWork<number> {
    return this.changed(
      `DELETE FROM idempotency_keys WHERE (sheet_id, scope, key) IN (
         SELECT sheet_id, scope, key FROM idempotency_keys WHERE expires_at < $1
         ORDER BY expires_at LIMIT $2)`,
      [before, limit],
    );
  }

  *liveIdempotencyKeys(
    sheetId: string,
    scope: string,
    client: string | null,
    now: string,
  ): DbWork<{ count: number; firstExpiry: string | null }> {
    const row = yield* this.one<{ count: number | string; first: unknown }>(
      `SELECT count(*) AS count, min(expires_at) AS first FROM idempotency_keys
       WHERE sheet_id = $1 AND scope = $2 AND expires_at > $3${client === null ? '' : ' AND client = $4'}`,
      client === null ? [sheetId, scope, now] : [sheetId, scope, now, client],
    );
    const first = row?.first ?? null;
    return {
      count: Number(row?.count ?? 0),
      firstExpiry: first === null ? null : this.flavor.time(first),
    };
  }
}

import type { IdempotencyRecord } from '../store-records.ts';
import type { KeyId } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import type { Flavor, Sql } from './sql.ts';

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

/** Idempotency keys, as the engine asks for them (see ../idempotency-records.ts). */
export interface IdempotencyStatements {
  /** A key as stored; `lock` holds its row until the unit ends. */
  idempotencyKey(id: KeyId, lock: boolean): DbWork<IdempotencyRecord | null>;
  /** The keys tied to a provider push, locked. */
  idempotencyKeysOfPush(sheetId: string, pushId: string): DbWork<IdempotencyRecord[]>;
  /** False when the key is there already (another server's, just committed). */
  insertIdempotencyKey(record: IdempotencyRecord): DbWork<boolean>;
  /** Saves a key if `token` still holds it; false otherwise. */
  updateIdempotencyKey(record: IdempotencyRecord, token: string): DbWork<boolean>;
  deleteIdempotencyKey(id: KeyId, token: string): DbWork<boolean>;
  /** Removes at most `limit` keys that expired before `before`; answers how many. */
  pruneIdempotencyKeys(before: string, limit: number): DbWork<number>;
  /**
   * The keys of a sender on a sheet still live at `now`: of a credential (`scope`), or of one
   * client address when `client` is given; with when the first of them expires.
   */
  liveIdempotencyKeys(
    sheetId: string,
    scope: string,
    client: string | null,
    now: string,
  ): DbWork<{ count: number; firstExpiry: string | null }>;
}

/** Idempotency keys over a dialect's driver, written once for both databases. */
export function idempotencySql(sql: Sql): IdempotencyStatements {
  const { flavor } = sql;
  const record = (row: IdempotencyRow) => toIdempotencyKey(flavor, row);
  return {
    *idempotencyKey(id: KeyId, lock: boolean): DbWork<IdempotencyRecord | null> {
      const [row] = yield* sql.rows<IdempotencyRow>(
        `SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3${lock ? flavor.forUpdate : ''}`,
        [id.sheetId, id.scope, id.key],
      );
      return row === undefined ? null : record(row);
    },

    *idempotencyKeysOfPush(sheetId: string, pushId: string): DbWork<IdempotencyRecord[]> {
      const rows = yield* sql.rows<IdempotencyRow>(
        `SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND push = $2${flavor.forUpdate}`,
        [sheetId, pushId],
      );
      return rows.map(record);
    },

    /** A key another server inserts at once waits for its transaction, then is left alone. */
    *insertIdempotencyKey(key: IdempotencyRecord): DbWork<boolean> {
      const changed = yield* sql.changes(
        `INSERT INTO idempotency_keys (sheet_id, scope, key, ${keyColumns})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) ON CONFLICT DO NOTHING`,
        [key.sheetId, key.scope, key.key, ...keyFields(key)],
      );
      return changed === 1;
    },

    *updateIdempotencyKey(key: IdempotencyRecord, token: string): DbWork<boolean> {
      const changed = yield* sql.changes(
        `UPDATE idempotency_keys SET (${keyColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         WHERE sheet_id = $10 AND scope = $11 AND key = $12 AND token = $13`,
        [...keyFields(key), key.sheetId, key.scope, key.key, token],
      );
      return changed === 1;
    },

    *deleteIdempotencyKey(id: KeyId, token: string): DbWork<boolean> {
      const changed = yield* sql.changes(
        'DELETE FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3 AND token = $4',
        [id.sheetId, id.scope, id.key, token],
      );
      return changed === 1;
    },

    pruneIdempotencyKeys(before: string, limit: number): DbWork<number> {
      return sql.changes(
        `DELETE FROM idempotency_keys WHERE (sheet_id, scope, key) IN (
           SELECT sheet_id, scope, key FROM idempotency_keys WHERE expires_at < $1
           ORDER BY expires_at LIMIT $2)`,
        [before, limit],
      );
    },

    *liveIdempotencyKeys(
      sheetId: string,
      scope: string,
      client: string | null,
      now: string,
    ): DbWork<{ count: number; firstExpiry: string | null }> {
      const [row] = yield* sql.rows<{ count: number | string; first: unknown }>(
        `SELECT count(*) AS count, min(expires_at) AS first FROM idempotency_keys
         WHERE sheet_id = $1 AND scope = $2 AND expires_at > $3${client === null ? '' : ' AND client = $4'}`,
        client === null ? [sheetId, scope, now] : [sheetId, scope, now, client],
      );
      const first = row?.first ?? null;
      return {
        count: Number(row?.count ?? 0),
        firstExpiry: first === null ? null : flavor.time(first),
      };
    },
  };
}

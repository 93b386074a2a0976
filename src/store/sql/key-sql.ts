import type { ApiKeyRecord } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { nameable, timeOrNull, type Flavor, type Sql } from './sql.ts';

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

/** API keys, as the engine asks for them. */
export interface ApiKeyStatements {
  insertKey(key: ApiKeyRecord): DbWork<void>;
  keysOf(sheetId: string): DbWork<ApiKeyRecord[]>;
  keyById(id: string): DbWork<ApiKeyRecord | null>;
  /**
   * Points a key not yet rotated at its successor and brings its expiry forward to `expiresAt`;
   * false when the sheet has no such key or it is already rotated.
   */
  markKeyRotated(
    sheetId: string,
    id: string,
    successor: string,
    expiresAt: string,
  ): DbWork<boolean>;
  deleteKey(sheetId: string, id: string): DbWork<boolean>;
}

/** API keys over a dialect's driver, written once for both databases. */
export function apiKeySql(sql: Sql): ApiKeyStatements {
  const key = (row: KeyRow) => toKey(sql.flavor, row);
  return {
    *insertKey(record: ApiKeyRecord): DbWork<void> {
      yield* sql.changes(
        'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [
          record.id,
          record.sheetId,
          record.name,
          JSON.stringify(record.scopes),
          record.hash,
          record.createdAt,
          record.expiresAt,
        ],
      );
    },

    *keysOf(sheetId: string): DbWork<ApiKeyRecord[]> {
      const rows = yield* sql.rows<KeyRow>(
        'SELECT * FROM api_keys WHERE sheet_id = $1 ORDER BY created_at, id',
        [sheetId],
      );
      return rows.map(key);
    },

    *keyById(id: string): DbWork<ApiKeyRecord | null> {
      if (!nameable(id)) return null;
      const [row] = yield* sql.rows<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
      return row === undefined ? null : key(row);
    },

    /** A rotation that waited on another's row lock finds rotated_to set, and changes nothing. */
    *markKeyRotated(
      sheetId: string,
      id: string,
      successor: string,
      expiresAt: string,
    ): DbWork<boolean> {
      const changed = yield* sql.changes(
        `UPDATE api_keys SET rotated_to = $1,
           expires_at = CASE WHEN expires_at < $2 THEN expires_at ELSE $2 END
         WHERE sheet_id = $3 AND id = $4 AND rotated_to IS NULL`,
        [successor, expiresAt, sheetId, id],
      );
      return changed === 1;
    },

    *deleteKey(sheetId: string, id: string): DbWork<boolean> {
      if (!nameable(id)) return false;
      const changed = yield* sql.changes('DELETE FROM api_keys WHERE sheet_id = $1 AND id = $2', [
        sheetId,
        id,
      ]);
      return changed === 1;
    },
  };
}

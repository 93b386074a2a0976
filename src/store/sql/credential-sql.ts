import type { DbWork } from '../db-work.ts';
import type { CredentialStatements, ProviderCredential } from '../store-records.ts';
import type { Sql } from './sql.ts';

interface CredentialRow {
  provider: string;
  account: string | null;
  refresh_token: string;
  client_id: string;
  tenant: string;
  scope: string;
  created_at: unknown;
  updated_at: unknown;
}

const columns =
  'provider, account, refresh_token, client_id, tenant, scope, created_at, updated_at';

/** The credential table's statements over a dialect's driver, written once for both databases. */
export function credentialSql(sql: Sql): CredentialStatements {
  const toCredential = (row: CredentialRow): ProviderCredential => ({
    provider: row.provider,
    account: row.account,
    refreshToken: row.refresh_token,
    clientId: row.client_id,
    tenant: row.tenant,
    scope: row.scope,
    createdAt: sql.flavor.time(row.created_at),
    updatedAt: sql.flavor.time(row.updated_at),
  });
  return {
    *credential(provider: string): DbWork<ProviderCredential | null> {
      const [row] = yield* sql.rows<CredentialRow>(
        `SELECT ${columns} FROM provider_credentials WHERE provider = $1`,
        [provider],
      );
      return row === undefined ? null : toCredential(row);
    },
    *putCredential(record: ProviderCredential): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO provider_credentials (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (provider) DO UPDATE SET account = excluded.account,
           refresh_token = excluded.refresh_token, client_id = excluded.client_id,
           tenant = excluded.tenant, scope = excluded.scope, created_at = excluded.created_at,
           updated_at = excluded.updated_at`,
        [
          record.provider,
          record.account,
          record.refreshToken,
          record.clientId,
          record.tenant,
          record.scope,
          record.createdAt,
          record.updatedAt,
        ],
      );
    },
    *rotateCredential(provider, previous, refreshToken, updatedAt): DbWork<boolean> {
      const changed = yield* sql.changes(
        `UPDATE provider_credentials SET refresh_token = $1, updated_at = $2
         WHERE provider = $3 AND refresh_token = $4`,
        [refreshToken, updatedAt, provider, previous],
      );
      return changed === 1;
    },
    *deleteCredential(provider: string): DbWork<boolean> {
      const changed = yield* sql.changes('DELETE FROM provider_credentials WHERE provider = $1', [
        provider,
      ]);
      return changed === 1;
    },
  };
}

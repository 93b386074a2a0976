import type Database from 'better-sqlite3';
import type { PoolClient } from 'pg';
import type { Dialect } from './dialect.ts';
import { step, type Work } from './work.ts';

/**
 * A provider's credential that the store keeps for the server, such as the refresh token of a
 * user who signed in to Microsoft. It is a secret: nothing answers it, logs it or puts it in a
 * problem; only the code that spends it (delegated-tokens.ts) reads it.
 */
export interface ProviderCredential {
  /** Which credential: `microsoft`. */
  provider: string;
  /** Who signed in, as the provider names them (null when it would not say). */
  account: string | null;
  refreshToken: string;
  /** The application and tenant the token was issued to: another one cannot spend it. */
  clientId: string;
  tenant: string;
  scope: string;
  createdAt: string;
  /** When the token was last rotated. */
  updatedAt: string;
}

/** The statements of the credential table, written once per database (see the dialects). */
export interface CredentialStatements {
  credential(provider: string): Work<ProviderCredential | null>;
  /** Inserts the credential, or replaces the one the provider had (a new sign-in). */
  putCredential(record: ProviderCredential): Work<void>;
  /**
   * Replaces the refresh token only if it is still `previous`: false when another server
   * rotated it (or someone signed out or in) meanwhile, and nothing changed.
   */
  rotateCredential(
    provider: string,
    previous: string,
    refreshToken: string,
    updatedAt: string,
  ): Work<boolean>;
  deleteCredential(provider: string): Work<boolean>;
}

interface CredentialRow {
  provider: string;
  account: string | null;
  refresh_token: string;
  client_id: string;
  tenant: string;
  scope: string;
  created_at: string | Date;
  updated_at: string | Date;
}

const columns =
  'provider, account, refresh_token, client_id, tenant, scope, created_at, updated_at';

const time = (value: string | Date) => (value instanceof Date ? value.toISOString() : value);

function toCredential(row: CredentialRow): ProviderCredential {
  return {
    provider: row.provider,
    account: row.account,
    refreshToken: row.refresh_token,
    clientId: row.client_id,
    tenant: row.tenant,
    scope: row.scope,
    createdAt: time(row.created_at),
    updatedAt: time(row.updated_at),
  };
}

const fields = (record: ProviderCredential) => [
  record.provider,
  record.account,
  record.refreshToken,
  record.clientId,
  record.tenant,
  record.scope,
  record.createdAt,
  record.updatedAt,
];

type Db = Database.Database;

export const sqliteCredentials: CredentialStatements = {
  credential: (provider) =>
    step((db: Db) => {
      const row = db
        .prepare(`SELECT ${columns} FROM provider_credentials WHERE provider = ?`)
        .get(provider) as CredentialRow | undefined;
      return row === undefined ? null : toCredential(row);
    }),
  putCredential: (record) =>
    step((db: Db) => {
      db.prepare(
        `INSERT OR REPLACE INTO provider_credentials (${columns}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(...fields(record));
    }),
  rotateCredential: (provider, previous, refreshToken, updatedAt) =>
    step(
      (db: Db) =>
        db
          .prepare(
            'UPDATE provider_credentials SET refresh_token = ?, updated_at = ? WHERE provider = ? AND refresh_token = ?',
          )
          .run(refreshToken, updatedAt, provider, previous).changes === 1,
    ),
  deleteCredential: (provider) =>
    step(
      (db: Db) =>
        db.prepare('DELETE FROM provider_credentials WHERE provider = ?').run(provider).changes ===
        1,
    ),
};

export const postgresCredentials: CredentialStatements = {
  credential: (provider) =>
    step(async (db: PoolClient) => {
      const { rows } = await db.query<CredentialRow>(
        `SELECT ${columns} FROM provider_credentials WHERE provider = $1`,
        [provider],
      );
      return rows[0] === undefined ? null : toCredential(rows[0]);
    }),
  putCredential: (record) =>
    step(async (db: PoolClient) => {
      await db.query(
        `INSERT INTO provider_credentials (${columns}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (provider) DO UPDATE SET account = excluded.account,
           refresh_token = excluded.refresh_token, client_id = excluded.client_id,
           tenant = excluded.tenant, scope = excluded.scope, created_at = excluded.created_at,
           updated_at = excluded.updated_at`,
        fields(record),
      );
    }),
  rotateCredential: (provider, previous, refreshToken, updatedAt) =>
    step(async (db: PoolClient) => {
      const { rowCount } = await db.query(
        'UPDATE provider_credentials SET refresh_token = $1, updated_at = $2 WHERE provider = $3 AND refresh_token = $4',
        [refreshToken, updatedAt, provider, previous],
      );
      return rowCount === 1;
    }),
  deleteCredential: (provider) =>
    step(async (db: PoolClient) => {
      const { rowCount } = await db.query('DELETE FROM provider_credentials WHERE provider = $1', [
        provider,
      ]);
      return rowCount === 1;
    }),
};

type CredentialDialect = Pick<Dialect, 'read' | 'write' | 'exclusive' | 'credentials'>;

/** The credentials of a store, each read and write one transaction of its own. */
export class CredentialStore {
  readonly #db: CredentialDialect;
  /** The end of the last work queued by `exclusive` in this process. */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(dialect: CredentialDialect) {
    this.#db = dialect;
  }

  /**
   * Runs `work` while no other holder of this store, in this process or another server, runs
   * work on the same credential: so that one refresh token is spent at a time.
   */
  exclusive<T>(provider: string, work: () => Promise<T>): Promise<T> {
    // A sheet id never holds a colon, so this lock is no sheet's.
    const run = () => this.#db.exclusive(`credential:${provider}`, () => work());
    const result = this.#turn.then(run, run);
    this.#turn = result.catch(() => undefined);
    return result;
  }

  get(provider: string): Promise<ProviderCredential | null> {
    return this.#db.read(() => this.#db.credentials.credential(provider));
  }

  put(record: ProviderCredential): Promise<void> {
    return this.#db.write(() => this.#db.credentials.putCredential(record));
  }

  /** See `CredentialStatements.rotateCredential`. */
  rotate(provider: string, previous: string, refreshToken: string): Promise<boolean> {
    const at = new Date().toISOString();
    return this.#db.write(() =>
      this.#db.credentials.rotateCredential(provider, previous, refreshToken, at),
    );
  }

  delete(provider: string): Promise<boolean> {
    return this.#db.write(() => this.#db.credentials.deleteCredential(provider));
  }
}

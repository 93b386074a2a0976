import type { Pool } from 'pg';

/** Versioned schema steps, applied in order, each once. Never edit a step that has shipped. */
const migrations: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
      CREATE TABLE sheets (
        id text PRIMARY KEY,
        rows_table text NOT NULL UNIQUE,
        name text NOT NULL,
        columns jsonb NOT NULL,
        source jsonb NOT NULL,
        settings jsonb NOT NULL,
        row_count integer NOT NULL,
        version bigint NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
      CREATE TABLE flags (name text PRIMARY KEY);
      -- Tables of imports still being written; a crashed import's table is dropped later.
      CREATE TABLE staging_tables (name text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now());
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        sheet_id text NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
        name text NOT NULL,
        scopes jsonb NOT NULL,
        hash text NOT NULL,
        created_at timestamptz NOT NULL
      );
      CREATE INDEX api_keys_sheet ON api_keys (sheet_id);
      CREATE UNLOGGED TABLE rate_limits (
        key text PRIMARY KEY,
        window_start timestamptz NOT NULL,
        count integer NOT NULL
      );
    `,
  },
];

/** Any fixed number: the advisory lock servers take in turn to migrate. */
const migrationLock = 0x5348_5054;

/** Runs pending migrations; servers starting together wait for each other's lock. */
export async function migrate(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await client.query(
      'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)',
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations',
    );
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, now())', [
        migration.version,
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

import type { PoolClient } from 'pg';
import { DateCell, type Cell } from '../../cells/cell.ts';
import type { Dialect } from '../dialect.ts';
import { moveLegacyRows } from '../legacy-rows.ts';
import { runMigrations, type Migration } from '../migrations.ts';
import { migrationLedger } from '../sql/migration-ledger.ts';
import { runAsync } from '../db-work.ts';
import { postgresSql } from './postgres-sql.ts';

const sql =
  (text: string): Migration<PoolClient>['up'] =>
  async (client) => {
    await client.query(text);
  };

/** Versioned schema steps, applied in order, each once. Never edit a step that has shipped. */
const migrations: Migration<PoolClient>[] = [
  {
    version: 1,
    up: sql(`
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
    `),
  },
  {
    version: 2,
    up: sql(`
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
    `),
  },
  {
    // Every sheet's rows in shared tables, so that the schema no longer grows with each sheet.
    version: 3,
    up: async (client, dialect, indexThreshold) => {
      await client.query(`
        CREATE TABLE shared_sheets (
          key serial PRIMARY KEY,
          id text NOT NULL UNIQUE,
          name text NOT NULL,
          columns jsonb NOT NULL,
          source jsonb NOT NULL,
          settings jsonb NOT NULL,
          row_count integer NOT NULL,
          version bigint NOT NULL,
          next_rid bigint NOT NULL,
          indexed boolean NOT NULL,
          pushing text,
          state text NOT NULL,
          created_at timestamptz NOT NULL,
          updated_at timestamptz NOT NULL
        );
        -- Rows are appended in key order, so index pages are filled whole (fillfactor 100).
        CREATE TABLE rows (
          sheet integer NOT NULL,
          pos integer NOT NULL,
          rid integer NOT NULL,
          json text NOT NULL,
          dates text,
          CONSTRAINT rows_by_rid PRIMARY KEY (sheet, rid) WITH (fillfactor = 100)
        );
        CREATE INDEX rows_by_position ON rows (sheet, pos) WITH (fillfactor = 100);
        CREATE TABLE cells (
          sheet integer NOT NULL,
          col integer NOT NULL,
          rid integer NOT NULL,
          num float8,
          txt text COLLATE "C",
          bool boolean,
          folded text COLLATE "C",
          shown text COLLATE "C"
        );
        CREATE INDEX cells_by_number ON cells (sheet, col, num, rid) WHERE num IS NOT NULL;
        CREATE INDEX cells_by_text ON cells (sheet, col, txt, rid) WHERE txt IS NOT NULL;
        CREATE TABLE blocks (
          sheet integer NOT NULL,
          block integer NOT NULL,
          count integer NOT NULL,
          json text NOT NULL,
          PRIMARY KEY (sheet, block)
        );
        -- Blocks are read whole at every full read: stored out of line, but not compressed.
        ALTER TABLE blocks ALTER COLUMN json SET STORAGE EXTERNAL;
        CREATE TABLE events (
          seq bigserial PRIMARY KEY,
          id text NOT NULL UNIQUE,
          sheet_id text NOT NULL,
          type text NOT NULL,
          body text NOT NULL,
          created_at timestamptz NOT NULL
        );
        CREATE INDEX events_by_sheet ON events (sheet_id, seq);
      `);
      const { rows: legacy } = await client.query<LegacySheet>(
        'SELECT * FROM sheets ORDER BY created_at, id',
      );
      for (const sheet of legacy) {
        // The sheet with no rows yet: they are moved in below. Its columns as of this step.
        const { rows: inserted } = await client.query<{ key: number }>(
          `INSERT INTO shared_sheets (id, name, columns, source, settings, row_count, version, next_rid, indexed, state, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, 0, $6, 0, false, 'ready', $7, $8) RETURNING key`,
          [
            sheet.id,
            sheet.name,
            JSON.stringify(sheet.columns),
            JSON.stringify(sheet.source),
            JSON.stringify(sheet.settings),
            sheet.version,
            sheet.created_at,
            sheet.updated_at,
          ],
        );
        const key = (inserted[0] as { key: number }).key;
        const result = await client.query({
          text: `SELECT * FROM ${sheet.rows_table} ORDER BY seq`,
          rowMode: 'array',
        });
        const rows = (result.rows as unknown[][]).map((raw) =>
          legacyCells(raw.slice(1), sheet.columns.length),
        );
        const moved = await runAsync(
          moveLegacyRows(dialect, key, sheet.columns, rows, indexThreshold),
          client,
        );
        await client.query(
          'UPDATE shared_sheets SET row_count = $2, next_rid = $3, indexed = $4 WHERE key = $1',
          [key, moved.rowCount, moved.nextRid, moved.indexed],
        );
        await client.query(`DROP TABLE ${sheet.rows_table}`);
      }
      // Tables of imports that a crash cut off before their sheet was registered.
      const { rows: staged } = await client.query<{ name: string }>(
        'SELECT name FROM staging_tables',
      );
      for (const { name } of staged) await client.query(`DROP TABLE IF EXISTS ${name}`);
      await client.query(`
        DROP TABLE staging_tables;
        DROP TABLE sheets CASCADE;
        ALTER TABLE shared_sheets RENAME TO sheets;
        ALTER TABLE api_keys ADD FOREIGN KEY (sheet_id) REFERENCES sheets (id) ON DELETE CASCADE;
      `);
    },
  },
  {
    // Webhooks: each with its place in its sheet's outbox, and a log of delivery attempts.
    version: 4,
    up: sql(`
      CREATE TABLE webhooks (
        id text PRIMARY KEY,
        sheet_id text NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
        url text NOT NULL,
        events jsonb NOT NULL,
        secret text NOT NULL,
        created_at timestamptz NOT NULL,
        cursor bigint NOT NULL,
        attempt integer NOT NULL DEFAULT 0,
        first_attempt_at timestamptz,
        next_attempt_at timestamptz NOT NULL,
        leased_until timestamptz,
        disabled_at timestamptz,
        disabled_reason text
      );
      CREATE INDEX webhooks_by_sheet ON webhooks (sheet_id);
      CREATE TABLE webhook_deliveries (
        seq bigserial PRIMARY KEY,
        webhook_id text NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
        event_id text NOT NULL,
        type text NOT NULL,
        attempt integer NOT NULL,
        status integer,
        error text,
        next_retry_at timestamptz,
        at timestamptz NOT NULL
      );
      CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, seq);
    `),
  },
  {
    // Room for small sheets. Sheets created side by side take their keys in one order and insert
    // their rows in another, so row index pages filled whole split in halves for the late ones:
    // a tenth of each page is kept for them. A sheet's columns, source and settings are only
    // ever read whole, as the text JSON takes less room than jsonb's binary form.
    version: 5,
    up: sql(`
      ALTER INDEX rows_by_rid SET (fillfactor = 90);
      ALTER INDEX rows_by_position SET (fillfactor = 90);
      ALTER TABLE sheets
        ALTER COLUMN columns TYPE json,
        ALTER COLUMN source TYPE json,
        ALTER COLUMN settings TYPE json;
    `),
  },
  {
    // Events expire: the pruner finds those past the retention by age.
    version: 6,
    up: sql('CREATE INDEX events_by_time ON events (created_at)'),
  },
  {
    // Keys that expire and are rotated; webhook secrets rotated with an overlap. A rotated key
    // names its successor, and forgets it if the successor is revoked, so it can be rotated again.
    version: 7,
    up: sql(`
      ALTER TABLE api_keys
        ADD COLUMN expires_at timestamptz,
        ADD COLUMN rotated_to text REFERENCES api_keys (id) ON DELETE SET NULL;
      ALTER TABLE webhooks
        ADD COLUMN previous_secret text,
        ADD COLUMN previous_secret_expires_at timestamptz;
    `),
  },
  {
    // Idempotency keys: per sheet and credential, kept a day (see idempotency-records.ts).
    version: 8,
    up: sql(`
      CREATE TABLE idempotency_keys (
        sheet_id text NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
        scope text NOT NULL,
        key text NOT NULL,
        fingerprint text NOT NULL,
        state text NOT NULL,
        token text NOT NULL,
        lease_until timestamptz NOT NULL,
        push text,
        outcome text,
        created_at timestamptz NOT NULL,
        expires_at timestamptz NOT NULL,
        PRIMARY KEY (sheet_id, scope, key)
      );
      CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
      CREATE INDEX idempotency_keys_by_push ON idempotency_keys (sheet_id, push)
        WHERE push IS NOT NULL;
    `),
  },
  {
    // Which server watches each watched Google tab for changes, for how long (tab-watcher.ts).
    version: 11,
    up: sql(`
      CREATE TABLE watches (
        sheet_id text PRIMARY KEY REFERENCES sheets (id) ON DELETE CASCADE,
        owner text NOT NULL,
        lease_until timestamptz NOT NULL
      );
    `),
  },
  {
    // A provider credential kept for the server: the refresh token of a Microsoft sign-in
    // (provider-credentials.ts).
    version: 12,
    up: sql(`
      CREATE TABLE provider_credentials (
        provider text PRIMARY KEY,
        account text,
        refresh_token text NOT NULL,
        client_id text NOT NULL,
        tenant text NOT NULL,
        scope text NOT NULL,
        created_at timestamptz NOT NULL,
        updated_at timestamptz NOT NULL
      );
    `),
  },
  {
    // The columns of each large sheet that are in the cell index (SheetRecord.indexedColumns):
    // sheets indexed before keep every column's entries.
    version: 13,
    up: sql(`
      ALTER TABLE sheets ADD COLUMN indexed_columns json NOT NULL DEFAULT '[]';
      UPDATE sheets SET indexed_columns = (
        SELECT coalesce(json_agg(c.i - 1 ORDER BY c.i), '[]')
        FROM json_array_elements(columns) WITH ORDINALITY AS c (name, i)
      ) WHERE indexed;
    `),
  },
  {
    // The lock epoch: taking a sheet's lock makes it one greater, and every store write made for a
    // push is checked against it. And when a push's requests can no longer be in flight.
    version: 14,
    up: sql(`
      ALTER TABLE sheets ADD COLUMN lock_epoch bigint NOT NULL DEFAULT 0;
      ALTER TABLE sheets ADD COLUMN push_settle_after bigint;
    `),
  },
  {
    // The push tags a spreadsheet holds, counted for its budget by every server, and a row per
    // spreadsheet that a reservation locks.
    version: 15,
    up: sql(`
      CREATE TABLE push_tag_budgets (spreadsheet text PRIMARY KEY);
      CREATE TABLE push_tags (
        spreadsheet text NOT NULL,
        tag bigint NOT NULL,
        chars integer NOT NULL,
        guard_until bigint NOT NULL,
        PRIMARY KEY (spreadsheet, tag)
      );
    `),
  },
  {
    // What a provider keeps of a push to settle it from the spreadsheet alone, whatever server
    // asks (an Excel push's session, operations and images): kept while the sheet is marked.
    version: 16,
    up: sql(`
      CREATE TABLE push_records (
        sheet_id text NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
        push_id text NOT NULL,
        record text NOT NULL,
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (sheet_id, push_id)
      );
    `),
  },
  {
    // The client address of an Idempotency-Key sent without a credential, which bounds how
    // many live keys such callers hold per address (see idempotency-records.ts).
    version: 17,
    up: sql(`
      ALTER TABLE idempotency_keys ADD COLUMN client text;
      CREATE INDEX idempotency_keys_by_client ON idempotency_keys (sheet_id, scope, client)
        WHERE client IS NOT NULL;
    `),
  },
  {
    // The servers running on this store, each until its lease runs out (server-lease.ts).
    version: 18,
    up: sql(`
      CREATE TABLE server_leases (
        owner text PRIMARY KEY,
        host text NOT NULL,
        pid integer NOT NULL,
        lease_until timestamptz NOT NULL
      );
    `),
  },
  {
    // Row anchors counted beside push tags in a spreadsheet's budget: the tab an anchor is on
    // (null for a push tag); an anchor's guard_until is when a push last used it.
    version: 19,
    up: sql('ALTER TABLE push_tags ADD COLUMN anchor_tab bigint'),
  },
  {
    // Whether a sheet's rows are in the order of their ids (see SheetRecord.rowsInIdOrder);
    // unknown for sheets made before.
    version: 20,
    up: sql('ALTER TABLE sheets ADD COLUMN in_id_order boolean NOT NULL DEFAULT false'),
  },
];

interface LegacySheet {
  id: string;
  rows_table: string;
  name: string;
  columns: string[];
  source: unknown;
  settings: unknown;
  version: string;
  created_at: Date;
  updated_at: Date;
}

/** A row of release 0.1.0: a number, a text and a marker column per cell ('b', 'd'). */
function legacyCells(raw: unknown[], width: number): Cell[] {
  return Array.from({ length: width }, (_, i) => {
    const number = raw[3 * i] as number | null;
    const text = raw[3 * i + 1] as string | null;
    const marker = raw[3 * i + 2];
    if (number !== null) return number;
    if (marker === 'b') return text === 'true';
    if (marker === 'd') return new DateCell(text ?? '');
    return text;
  });
}

/** Any fixed number: the advisory lock servers take in turn to migrate. */
const migrationLock = 0x5348_5054;

/** Where the applied migrations are recorded (see ../sql/migration-ledger.ts). */
const ledger = migrationLedger(
  postgresSql,
  'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL)',
);

/** Runs pending migrations in one transaction; servers starting together wait for the lock. */
export async function migrate(
  client: PoolClient,
  dialect: Dialect,
  indexThreshold: number,
): Promise<void> {
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [migrationLock]);
    await runAsync(runMigrations(migrations, ledger, dialect, indexThreshold), client);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

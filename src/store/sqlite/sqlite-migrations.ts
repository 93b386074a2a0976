import type Database from 'better-sqlite3';
import { DateCell, type Cell } from '../../cells/cell.ts';
import type { Dialect } from '../dialect.ts';
import { moveLegacyRows } from '../legacy-rows.ts';
import { runMigrations, type Migration } from '../migrations.ts';
import { migrationLedger } from '../sql/migration-ledger.ts';
import type { Sql } from '../sql/sql.ts';
import { runSync } from '../db-work.ts';

type Db = Database.Database;

/** Versioned schema steps, applied in order, each once. Never edit a step that has shipped. */
const migrations: Migration<Db>[] = [
  {
    version: 1,
    up: (db) =>
      db.exec(`
        CREATE TABLE sheets (
          id TEXT PRIMARY KEY,
          rows_table TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          columns TEXT NOT NULL,
          source TEXT NOT NULL,
          settings TEXT NOT NULL,
          row_count INTEGER NOT NULL,
          version INTEGER NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE flags (name TEXT PRIMARY KEY);
      `),
  },
  {
    version: 2,
    up: (db) =>
      db.exec(`
        CREATE TABLE api_keys (
          id TEXT PRIMARY KEY,
          sheet_id TEXT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          scopes TEXT NOT NULL,
          hash TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX api_keys_sheet ON api_keys (sheet_id);
      `),
  },
  {
    // Every sheet's rows in shared tables, so that the schema no longer grows with each sheet.
    version: 3,
    up: (db, dialect, threshold) => {
      db.exec(`
        CREATE TABLE shared_sheets (
          key INTEGER PRIMARY KEY,
          id TEXT NOT NULL UNIQUE,
          name TEXT NOT NULL,
          columns TEXT NOT NULL,
          source TEXT NOT NULL,
          settings TEXT NOT NULL,
          row_count INTEGER NOT NULL,
          version INTEGER NOT NULL,
          next_rid INTEGER NOT NULL,
          indexed INTEGER NOT NULL,
          pushing TEXT,
          state TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
        CREATE TABLE rows (
          sheet INTEGER NOT NULL,
          pos INTEGER NOT NULL,
          rid INTEGER NOT NULL,
          json TEXT NOT NULL,
          dates TEXT,
          PRIMARY KEY (sheet, pos, rid)
        ) WITHOUT ROWID;
        CREATE UNIQUE INDEX rows_by_rid ON rows (sheet, rid);
        CREATE TABLE cells (
          sheet INTEGER NOT NULL,
          col INTEGER NOT NULL,
          value NOT NULL,
          rid INTEGER NOT NULL,
          folded TEXT,
          shown TEXT,
          PRIMARY KEY (sheet, col, value, rid)
        ) WITHOUT ROWID;
        CREATE TABLE blocks (
          sheet INTEGER NOT NULL,
          block INTEGER NOT NULL,
          count INTEGER NOT NULL,
          json TEXT NOT NULL,
          PRIMARY KEY (sheet, block)
        ) WITHOUT ROWID;
        CREATE TABLE events (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          id TEXT NOT NULL UNIQUE,
          sheet_id TEXT NOT NULL,
          type TEXT NOT NULL,
          body TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        CREATE INDEX events_by_sheet ON events (sheet_id, seq);
      `);
      const legacy = db
        .prepare('SELECT * FROM sheets ORDER BY created_at, id')
        .all() as LegacySheet[];
      for (const sheet of legacy) {
        const key = Number(
          db
            .prepare(
              `INSERT INTO shared_sheets (id, name, columns, source, settings, row_count, version, next_rid, indexed, state, created_at, updated_at)
               VALUES (?, ?, ?, ?, ?, 0, ?, 0, 0, 'ready', ?, ?)`,
            )
            .run(
              sheet.id,
              sheet.name,
              sheet.columns,
              sheet.source,
              sheet.settings,
              sheet.version,
              sheet.created_at,
              sheet.updated_at,
            ).lastInsertRowid,
        );
        const width = (JSON.parse(sheet.columns) as string[]).length;
        const rows = (
          db.prepare(`SELECT * FROM ${sheet.rows_table} ORDER BY seq`).raw().all() as unknown[][]
        ).map((raw) => legacyCells(raw.slice(1), width));
        const moved = runSync(
          moveLegacyRows(dialect, key, JSON.parse(sheet.columns) as string[], rows, threshold),
          db,
        );
        db.prepare(
          'UPDATE shared_sheets SET row_count = ?, next_rid = ?, indexed = ? WHERE key = ?',
        ).run(moved.rowCount, moved.nextRid, moved.indexed ? 1 : 0, key);
        db.exec(`DROP TABLE ${sheet.rows_table}`);
      }
      // Tables of imports that a crash cut off before their sheet was registered.
      const orphans = db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'rows\\_%' ESCAPE '\\'",
        )
        .pluck()
        .all() as string[];
      for (const table of orphans) db.exec(`DROP TABLE ${table}`);
      // The steps SQLite gives for changing a table: the new one takes the old one's name, and
      // api_keys, which refers to that name, refers to it.
      db.exec('DROP TABLE sheets; ALTER TABLE shared_sheets RENAME TO sheets;');
    },
  },
  {
    // Webhooks: each with its place in its sheet's outbox, and a log of delivery attempts.
    version: 4,
    up: (db) =>
      db.exec(`
        CREATE TABLE webhooks (
          id TEXT PRIMARY KEY,
          sheet_id TEXT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
          url TEXT NOT NULL,
          events TEXT NOT NULL,
          secret TEXT NOT NULL,
          created_at TEXT NOT NULL,
          cursor INTEGER NOT NULL,
          attempt INTEGER NOT NULL DEFAULT 0,
          first_attempt_at TEXT,
          next_attempt_at TEXT NOT NULL,
          leased_until TEXT,
          disabled_at TEXT,
          disabled_reason TEXT
        );
        CREATE INDEX webhooks_by_sheet ON webhooks (sheet_id);
        CREATE TABLE webhook_deliveries (
          seq INTEGER PRIMARY KEY AUTOINCREMENT,
          webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
          event_id TEXT NOT NULL,
          type TEXT NOT NULL,
          attempt INTEGER NOT NULL,
          status INTEGER,
          error TEXT,
          next_retry_at TEXT,
          at TEXT NOT NULL
        );
        CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, seq);
      `),
  },
  {
    // Events expire: the pruner finds those past the retention by age.
    version: 5,
    up: (db) => db.exec('CREATE INDEX events_by_time ON events (created_at)'),
  },
  {
    // Keys that expire and are rotated; webhook secrets rotated with an overlap. A rotated key
    // names its successor, and forgets it if the successor is revoked, so it can be rotated again.
    version: 6,
    up: (db) =>
      db.exec(`
        ALTER TABLE api_keys ADD COLUMN expires_at TEXT;
        ALTER TABLE api_keys ADD COLUMN rotated_to TEXT REFERENCES api_keys (id) ON DELETE SET NULL;
        ALTER TABLE webhooks ADD COLUMN previous_secret TEXT;
        ALTER TABLE webhooks ADD COLUMN previous_secret_expires_at TEXT;
      `),
  },
  {
    // Idempotency keys: per sheet and credential, kept a day (see idempotency-records.ts).
    version: 7,
    up: (db) =>
      db.exec(`
        CREATE TABLE idempotency_keys (
          sheet_id TEXT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          fingerprint TEXT NOT NULL,
          state TEXT NOT NULL,
          token TEXT NOT NULL,
          lease_until TEXT NOT NULL,
          push TEXT,
          outcome TEXT,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          PRIMARY KEY (sheet_id, scope, key)
        );
        CREATE INDEX idempotency_keys_by_expiry ON idempotency_keys (expires_at);
        CREATE INDEX idempotency_keys_by_push ON idempotency_keys (sheet_id, push)
          WHERE push IS NOT NULL;
      `),
  },
  {
    // Which server watches each watched Google tab for changes, for how long (tab-watcher.ts).
    version: 10,
    up: (db) =>
      db.exec(`
        CREATE TABLE watches (
          sheet_id TEXT PRIMARY KEY REFERENCES sheets (id) ON DELETE CASCADE,
          owner TEXT NOT NULL,
          lease_until TEXT NOT NULL
        );
      `),
  },
  {
    // A provider credential kept for the server: the refresh token of a Microsoft sign-in
    // (provider-credentials.ts).
    version: 11,
    up: (db) =>
      db.exec(`
        CREATE TABLE provider_credentials (
          provider TEXT PRIMARY KEY,
          account TEXT,
          refresh_token TEXT NOT NULL,
          client_id TEXT NOT NULL,
          tenant TEXT NOT NULL,
          scope TEXT NOT NULL,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL
        );
      `),
  },
  {
    // The columns of each large sheet that are in the cell index (SheetRecord.indexedColumns):
    // sheets indexed before keep every column's entries.
    version: 12,
    up: (db) =>
      db.exec(`
        ALTER TABLE sheets ADD COLUMN indexed_columns TEXT NOT NULL DEFAULT '[]';
        UPDATE sheets SET indexed_columns = (
          SELECT json_group_array(key) FROM (SELECT key FROM json_each(sheets.columns) ORDER BY key)
        ) WHERE indexed;
      `),
  },
  {
    // The lock epoch: taking a sheet's lock makes it one greater, and every store write made for a
    // push is checked against it. And when a push's requests can no longer be in flight.
    version: 13,
    up: (db) =>
      db.exec(`
        ALTER TABLE sheets ADD COLUMN lock_epoch INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sheets ADD COLUMN push_settle_after INTEGER;
      `),
  },
  {
    // The push tags a spreadsheet holds, counted for its budget by every server, and a row per
    // spreadsheet that a reservation locks.
    version: 14,
    up: (db) =>
      db.exec(`
        CREATE TABLE push_tag_budgets (spreadsheet TEXT PRIMARY KEY);
        CREATE TABLE push_tags (
          spreadsheet TEXT NOT NULL,
          tag INTEGER NOT NULL,
          chars INTEGER NOT NULL,
          guard_until INTEGER NOT NULL,
          PRIMARY KEY (spreadsheet, tag)
        );
      `),
  },
  {
    // What a provider keeps of a push to settle it from the spreadsheet alone, whatever server
    // asks (an Excel push's session, operations and images): kept while the sheet is marked.
    version: 15,
    up: (db) =>
      db.exec(`
        CREATE TABLE push_records (
          sheet_id TEXT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
          push_id TEXT NOT NULL,
          record TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          PRIMARY KEY (sheet_id, push_id)
        );
      `),
  },
  {
    // The client address of an Idempotency-Key sent without a credential, which bounds how
    // many live keys such callers hold per address (see idempotency-records.ts).
    version: 16,
    up: (db) =>
      db.exec(`
        ALTER TABLE idempotency_keys ADD COLUMN client TEXT;
        CREATE INDEX idempotency_keys_by_client ON idempotency_keys (sheet_id, scope, client)
          WHERE client IS NOT NULL;
      `),
  },
  {
    // The servers running on this store, each until its lease runs out (server-lease.ts):
    // what \`sheetport import\` looks at before it writes to a data directory a server holds.
    version: 17,
    up: (db) =>
      db.exec(`
        CREATE TABLE server_leases (
          owner TEXT PRIMARY KEY,
          host TEXT NOT NULL,
          pid INTEGER NOT NULL,
          lease_until TEXT NOT NULL
        );
      `),
  },
  {
    // Row anchors counted beside push tags in a spreadsheet's budget: the tab an anchor is on
    // (null for a push tag); an anchor's guard_until is when a push last used it.
    version: 18,
    up: (db) => db.exec('ALTER TABLE push_tags ADD COLUMN anchor_tab INTEGER'),
  },
  {
    // Events are pruned by position (sqlite-outbox.ts): the index on their time cost every
    // commit a page written and synced to disk.
    version: 19,
    up: (db) => db.exec('DROP INDEX IF EXISTS events_by_time'),
  },
  {
    // The cell index by row: aggregates read a chosen row's cells here (a typed value each)
    // rather than from its JSON. The primary key's columns complete each entry, value included.
    // Whether a sheet's rows are in the order of their ids is unknown for sheets made before.
    version: 20,
    up: (db) =>
      db.exec(`
        CREATE INDEX cells_by_rid ON cells (sheet, rid, col);
        ALTER TABLE sheets ADD COLUMN in_id_order INTEGER NOT NULL DEFAULT 0;
      `),
  },
  {
    // Events without AUTOINCREMENT and without a unique index on their ids: each cost every
    // commit a page more written and synced to disk, a tenth of a durable POST together
    // (BENCHMARKS.md, case q). Positions still only grow, as the newest event is never deleted
    // (sqlite-outbox.ts); an event is found by the time its id carries.
    version: 21,
    up: (db) => {
      const given = db
        .prepare("SELECT seq FROM sqlite_sequence WHERE name = 'events'")
        .pluck()
        .get() as number | undefined;
      db.exec(`
        CREATE TABLE events_next (
          seq INTEGER PRIMARY KEY,
          id TEXT NOT NULL,
          sheet_id TEXT NOT NULL,
          type TEXT NOT NULL,
          body TEXT NOT NULL,
          created_at TEXT NOT NULL
        );
        INSERT INTO events_next (seq, id, sheet_id, type, body, created_at)
          SELECT seq, id, sheet_id, type, body, created_at FROM events;
        DROP TABLE events;
        ALTER TABLE events_next RENAME TO events;
        CREATE INDEX events_by_sheet ON events (sheet_id, seq);
      `);
      // The last position given, if its event is gone, stays taken by an empty one.
      db.prepare(
        `INSERT INTO events (seq, id, sheet_id, type, body, created_at)
         SELECT $given, '', '', '', '', $now WHERE $given > (SELECT coalesce(max(seq), 0) FROM events)`,
      ).run({ given: given ?? 0, now: new Date().toISOString() });
    },
  },
];

interface LegacySheet {
  id: string;
  rows_table: string;
  name: string;
  columns: string;
  source: string;
  settings: string;
  version: number;
  created_at: string;
  updated_at: string;
}

/** A row of release 0.1.0: a value column and a type marker per cell ('b' boolean, 'd' date). */
function legacyCells(raw: unknown[], width: number): Cell[] {
  return Array.from({ length: width }, (_, i) => {
    const value = raw[2 * i] as Cell;
    const marker = raw[2 * i + 1];
    if (marker === 'b') return value === 'true';
    if (marker === 'd') return new DateCell(String(value));
    return value;
  });
}

/** Where the applied migrations are recorded (see ../sql/migration-ledger.ts). */
const ledgerTable =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)';

/**
 * Runs pending migrations in one transaction, under SQLite's write lock, so that processes
 * starting together take turns. Foreign keys are off while tables are rebuilt, and checked after.
 */
export function migrate(db: Db, dialect: Dialect, sql: Sql, indexThreshold: number): void {
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      const ledger = migrationLedger(sql, ledgerTable);
      runSync(runMigrations(migrations, ledger, dialect, indexThreshold), db);
      const broken = db.pragma('foreign_key_check') as unknown[];
      if (broken.length > 0) throw new Error(`Migration broke ${broken.length} foreign keys.`);
    }).immediate();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}

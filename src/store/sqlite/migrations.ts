import type Database from 'better-sqlite3';

/** Versioned schema steps, applied in order, each once. Never edit a step that has shipped. */
const migrations: { version: number; sql: string }[] = [
  {
    version: 1,
    sql: `
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
    `,
  },
  {
    version: 2,
    sql: `
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        sheet_id TEXT NOT NULL REFERENCES sheets (id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        scopes TEXT NOT NULL,
        hash TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX api_keys_sheet ON api_keys (sheet_id);
    `,
  },
];

/** Runs pending migrations under a write lock, so that processes starting together take turns. */
export function migrate(db: Database.Database): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)',
  );
  db.transaction(() => {
    const applied = new Set(
      db
        .prepare('SELECT version FROM schema_migrations')
        .pluck()
        .all()
        .map((version) => Number(version)),
    );
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      db.exec(migration.sql);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(
        migration.version,
        new Date().toISOString(),
      );
    }
  }).immediate();
}

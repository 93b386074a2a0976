import type { MigrationLedger } from '../migrations.ts';
import type { Sql } from './sql.ts';

/**
 * Where a store records the migrations applied to it: `schema_migrations`, created by `create`
 * (each store's own column types) if there is none.
 */
export function migrationLedger(sql: Sql, create: string): MigrationLedger {
  return {
    *applied() {
      yield* sql.changes(create, []);
      const rows = yield* sql.rows<{ version: number }>(
        'SELECT version FROM schema_migrations',
        [],
      );
      return rows.map((row) => Number(row.version));
    },
    *record(version) {
      yield* sql.changes('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
        version,
        new Date().toISOString(),
      ]);
    },
  };
}

import type { Dialect } from './dialect.ts';
import { driverCall, type DbWork } from './db-work.ts';

/**
 * One versioned schema step of a store, written in its own SQL: `up` runs on the dialect's
 * connection, synchronously (SQLite) or by promise (PostgreSQL). Never edit a step that has
 * shipped.
 */
export interface Migration<Db> {
  version: number;
  up: (db: Db, dialect: Dialect, indexThreshold: number) => unknown;
}

/** Where a store records the migrations applied to it. */
export interface MigrationLedger {
  /** Creates the ledger if there is none, and answers the versions it holds. */
  applied(): DbWork<number[]>;
  record(version: number): DbWork<void>;
}

/**
 * The migration runner both stores share: every migration the ledger does not hold, in order,
 * each recorded as it is applied. Each dialect runs it in one transaction under its own lock, so
 * that servers starting together take turns and a failed step leaves nothing applied.
 */
export function* runMigrations<Db>(
  migrations: Migration<Db>[],
  ledger: MigrationLedger,
  dialect: Dialect,
  indexThreshold: number,
): DbWork<void> {
  const applied = new Set(yield* ledger.applied());
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    yield* driverCall((db: Db) => migration.up(db, dialect, indexThreshold));
    yield* ledger.record(migration.version);
  }
}

import type { PostgresOptions } from './postgres/postgres-dialect.ts';
import { RowStore, type RowStoreOptions } from './row-store.ts';
import { SqliteDialect, type SqliteOptions } from './sqlite/sqlite-dialect.ts';

/** Sheets with more rows than this are indexed; smaller ones are read whole and filtered. */
export const defaultIndexThreshold = 64;

/** The embedded store: one SQLite file, owned by this process. */
export function openSqliteStore(
  options: Omit<SqliteOptions, 'indexThreshold'> & RowStoreOptions,
): RowStore {
  const indexThreshold = options.indexThreshold ?? defaultIndexThreshold;
  const dialect = new SqliteDialect({ ...options, indexThreshold });
  return new RowStore(dialect, { ...options, indexThreshold });
}

/** The shared store: one PostgreSQL database that any number of servers use at once. */
export async function openPostgresStore(
  options: Omit<PostgresOptions, 'indexThreshold'> & RowStoreOptions,
): Promise<RowStore> {
  const indexThreshold = options.indexThreshold ?? defaultIndexThreshold;
  // Loaded only by a server that stores in PostgreSQL.
  const { PostgresDialect } = await import('./postgres/postgres-dialect.ts');
  const dialect = await PostgresDialect.open({ ...options, indexThreshold });
  return new RowStore(dialect, { ...options, indexThreshold });
}

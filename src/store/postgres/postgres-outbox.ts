import { outboxSql, type OutboxStatements } from '../sql/outbox-sql.ts';
import type { StoredEvent } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { postgresSql } from './postgres-sql.ts';

/** Any fixed number: the advisory lock a server holds while it prunes the outbox. */
const pruneLock = 0x5350_4556;

/**
 * The outbox's shared statements, but events inserted as arrays sent whole (`unnest`), and
 * pruned by one server at a time: the others pass while one holds the advisory lock.
 */
export function postgresOutbox(): OutboxStatements {
  const shared = outboxSql(postgresSql);
  return {
    ...shared,
    *insertEvents(events: Omit<StoredEvent, 'seq'>[]): DbWork<void> {
      yield* postgresSql.changes(
        `INSERT INTO events (id, sheet_id, type, body, created_at)
         SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::timestamptz[])`,
        [
          events.map((e) => e.id),
          events.map((e) => e.sheetId),
          events.map((e) => e.type),
          events.map((e) => e.body),
          events.map((e) => e.createdAt),
        ],
      );
    },
    /** Servers sharing the database prune in turn: one that finds another at it leaves it be. */
    *pruneEvents(olderThan: string, heldSince: string, limit: number): DbWork<number> {
      const [lock] = yield* postgresSql.rows<{ locked: boolean }>(
        'SELECT pg_try_advisory_xact_lock($1) AS locked',
        [pruneLock],
      );
      if (lock?.locked !== true) return 0;
      return yield* shared.pruneEvents(olderThan, heldSince, limit);
    },
  };
}

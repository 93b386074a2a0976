import type { DbWork } from '../db-work.ts';
import { pruneEvents } from '../sql/outbox-sql.ts';
import type { Sql } from '../sql/sql.ts';

/**
 * Pruning without an index on the events' time. On SQLite one process makes every event, in
 * time order, so the events past the retention are those up to a position, found by halving the
 * range of positions (a few dozen lookups by the table's own key). An index on the time cost
 * every commit one more page written and synced to disk, for a pruner that runs once a minute.
 * Should the clock step back, an event made before the step waits for a later round.
 */
export function pruneEventsByPosition(
  sql: Sql,
): (olderThan: string, heldSince: string, limit: number) => DbWork<number> {
  return function* (olderThan, heldSince, limit) {
    const through = yield* lastEventBefore(sql, olderThan);
    if (through === null) return 0;
    return yield* pruneEvents(sql, olderThan, heldSince, limit, through);
  };
}

/** The position of the newest event made before `time`, if the oldest was. */
function* lastEventBefore(sql: Sql, time: string): DbWork<number | null> {
  const [range] = yield* sql.rows<{ low: number | null; high: number | null }>(
    'SELECT min(seq) AS low, max(seq) AS high FROM events',
    [],
  );
  let low = range?.low ?? null;
  let high = range?.high ?? null;
  if (low === null || high === null) return null;
  let found: number | null = null;
  // The answer is `found`, or an event in [low, high]; positions may have gaps.
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const [event] = yield* sql.rows<{ seq: number; created_at: string }>(
      'SELECT seq, created_at FROM events WHERE seq >= $1 ORDER BY seq LIMIT 1',
      [middle],
    );
    if (event !== undefined && event.seq <= high && event.created_at < time) {
      found = event.seq;
      low = event.seq + 1;
    } else {
      high = middle - 1;
    }
  }
  return found;
}

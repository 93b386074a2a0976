import type { DbWork } from '../db-work.ts';
import { eventIdTime } from '../event-id.ts';
import { pastRetention, pruneEvents, type EventPosition } from '../sql/outbox-sql.ts';
import type { Sql } from '../sql/sql.ts';

/**
 * The outbox on SQLite keeps no index but `events_by_sheet`: no index on the events' time, none
 * on their ids, and no AUTOINCREMENT. Each cost every commit one more page written and synced to
 * disk (BENCHMARKS.md, case q). One process makes every event, in time order, so what those
 * indexes answered is found by halving the range of positions (a few dozen lookups by the
 * table's own key), and positions only grow because the newest event is never deleted: once it
 * is past its time, or its sheet goes, it is emptied instead (`retireNewest`), and keeps its
 * position until a newer event lets it go. Should the clock step back, an event made before
 * the step waits for a later round of pruning, and may not be found by its id.
 */

/** Prunes as `pruneEvents` does, finding the events past the retention by their positions. */
export function pruneEventsByPosition(
  sql: Sql,
): (olderThan: string, heldSince: string, limit: number) => DbWork<number> {
  return function* (olderThan, heldSince, limit) {
    const { through, newest } = yield* lastEventBefore(sql, olderThan);
    if (through === null) return 0;
    const gone = yield* pruneEvents(
      sql,
      olderThan,
      heldSince,
      limit,
      Math.min(through, newest - 1),
    );
    if (through < newest || gone >= limit) return gone;
    return (
      gone +
      (yield* retireNewest(sql, `${pastRetention} AND sheet_id <> ''`, [olderThan, heldSince]))
    );
  };
}

/**
 * Empties the newest event if it matches `where` (its parameters `params`, from `$1`), so that
 * no sheet reads it and its position is not given again; answers 1 if it did.
 */
export function retireNewest(sql: Sql, where: string, params: unknown[]): DbWork<number> {
  return sql.changes(
    `UPDATE events SET id = '', sheet_id = '', type = '', body = ''
     WHERE seq = (SELECT max(seq) FROM events) AND ${where}`,
    params,
  );
}

/**
 * An event's position, found by the time its id carries: the events made in that millisecond
 * follow the newest one made before it. An id without a time is looked for among its sheet's
 * events, newest first.
 */
export function positionByTime(sql: Sql): EventPosition {
  return function* (id, sheetId) {
    const ms = eventIdTime(id);
    if (ms === null) {
      const [row] = yield* sql.rows<{ seq: number }>(
        'SELECT seq FROM events WHERE sheet_id = $1 AND id = $2 ORDER BY seq DESC LIMIT 1',
        [sheetId, id],
      );
      return row?.seq ?? null;
    }
    const made = new Date(ms).toISOString();
    let after = (yield* lastEventBefore(sql, made)).through ?? 0;
    for (;;) {
      const rows = yield* sql.rows<{ seq: number; id: string; created_at: string }>(
        'SELECT seq, id, created_at FROM events WHERE seq > $1 ORDER BY seq LIMIT $2',
        [after, scanRows],
      );
      for (const row of rows) {
        if (row.created_at > made) return null;
        if (row.id === id) return row.seq;
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < scanRows) return null;
      after = last.seq;
    }
  };
}

/** Events read at a time while looking through those of one millisecond. */
const scanRows = 64;

/**
 * Whether any of the events `ids` is kept, looked for from the newest back: they are those of a
 * commit whose outcome was lost, asked about at once. Their times are not trusted here, as a
 * clock that stepped back would make a written event look missing, and its write be sent twice.
 */
export function* eventsExistFromNewest(sql: Sql, ids: string[]): DbWork<boolean> {
  const wanted = new Set(ids);
  let before = Number.MAX_SAFE_INTEGER;
  for (;;) {
    const rows = yield* sql.rows<{ seq: number; id: string }>(
      'SELECT seq, id FROM events WHERE seq < $1 ORDER BY seq DESC LIMIT $2',
      [before, existRows],
    );
    if (rows.some((row) => wanted.has(row.id))) return true;
    const last = rows.at(-1);
    if (last === undefined || rows.length < existRows) return false;
    before = last.seq;
  }
}

/** Events read at a time while looking for those of a commit. */
const existRows = 512;

/**
 * The position of the newest event made before `time`, if the oldest was (`through`), and the
 * newest position (0 when there are no events).
 */
function* lastEventBefore(
  sql: Sql,
  time: string,
): DbWork<{ through: number | null; newest: number }> {
  const [range] = yield* sql.rows<{ low: number | null; high: number | null }>(
    'SELECT min(seq) AS low, max(seq) AS high FROM events',
    [],
  );
  let low = range?.low ?? null;
  let high = range?.high ?? null;
  if (low === null || high === null) return { through: null, newest: 0 };
  const newest = high;
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
  return { through: found, newest };
}

import type { StoredEvent } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import type { Flavor, Sql } from './sql.ts';

interface EventRow {
  seq: number | string;
  id: string;
  sheet_id: string;
  type: string;
  body: string;
  created_at: unknown;
}

const eventColumns = 'seq, id, sheet_id, type, body, created_at';

function toEvent(flavor: Flavor, row: EventRow): StoredEvent {
  return {
    seq: Number(row.seq),
    id: row.id,
    sheetId: row.sheet_id,
    type: row.type,
    body: row.body,
    createdAt: flavor.time(row.created_at),
  };
}

/** The outbox of row events, as the engine asks for it. */
export interface OutboxStatements {
  /** Written by each dialect its own way (one prepared statement a row, or arrays sent whole). */
  insertEvents(events: Omit<StoredEvent, 'seq'>[]): DbWork<void>;
  /** Events of a sheet after the one with id `after` (or all kept), oldest first. */
  eventsAfter(sheetId: string, after: string | null, limit: number): DbWork<StoredEvent[]>;
  eventAfterSeq(sheetId: string, seq: number): DbWork<StoredEvent | null>;
  latestEventId(sheetId: string): DbWork<string | null>;
  maxEventSeq(sheetId: string): DbWork<number>;
  /** The position of a sheet's event `id`, if it is kept and was made at `notBefore` or later. */
  eventSeq(sheetId: string, id: string, notBefore: string): DbWork<number | null>;
  /**
   * A sheet's events after position `seq` made at `notBefore` or later, oldest first: `limit`
   * at most, and no more once their bodies reach `maxBytes` (the first always comes).
   */
  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: string,
  ): DbWork<StoredEvent[]>;
  /** The newest position of each of these sheets that has events, in one statement. */
  latestEventSeqs(sheetIds: string[]): DbWork<{ sheetId: string; seq: number }[]>;
  /** The bytes of a sheet's next `limit` events after position `seq`. */
  eventBytesAfter(sheetId: string, seq: number, limit: number): DbWork<number>;
  /**
   * Removes up to `limit` events made before `olderThan`, but not those an enabled webhook of
   * their sheet has still to send (after its cursor) made at `heldSince` or later; answers how
   * many went. A dialect whose store several servers share may answer 0 while another prunes.
   */
  pruneEvents(olderThan: string, heldSince: string, limit: number): DbWork<number>;
  eventsExist(ids: string[]): DbWork<boolean>;
}

/** Where the event `id` (of sheet `sheetId`) is in the outbox; null when it is not kept. */
export type EventPosition = (id: string, sheetId: string) => DbWork<number | null>;

/** An event's position looked up by its id, which a unique index on the ids answers. */
function positionById(sql: Sql): EventPosition {
  return function* (id) {
    const [row] = yield* sql.rows<{ seq: number | string }>(
      'SELECT seq FROM events WHERE id = $1',
      [id],
    );
    return row === undefined ? null : Number(row.seq);
  };
}

/**
 * The outbox's statements over a dialect's driver, written once for both databases; a dialect
 * whose events have no index on their ids finds them its own way (`positionOf`).
 */
export function outboxSql(
  sql: Sql,
  positionOf: EventPosition = positionById(sql),
): Omit<OutboxStatements, 'insertEvents'> {
  const { flavor } = sql;
  const event = (row: EventRow) => toEvent(flavor, row);
  return {
    *eventsAfter(sheetId: string, after: string | null, limit: number): DbWork<StoredEvent[]> {
      const seq = after === null ? 0 : ((yield* positionOf(after, sheetId)) ?? 0);
      const rows = yield* sql.rows<EventRow>(
        `SELECT ${eventColumns} FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
        [sheetId, seq, limit],
      );
      return rows.map(event);
    },

    *eventAfterSeq(sheetId: string, seq: number): DbWork<StoredEvent | null> {
      const [row] = yield* sql.rows<EventRow>(
        `SELECT ${eventColumns} FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT 1`,
        [sheetId, seq],
      );
      return row === undefined ? null : event(row);
    },

    *latestEventId(sheetId: string): DbWork<string | null> {
      const [row] = yield* sql.rows<{ id: string }>(
        'SELECT id FROM events WHERE sheet_id = $1 ORDER BY seq DESC LIMIT 1',
        [sheetId],
      );
      return row === undefined ? null : row.id;
    },

    *maxEventSeq(sheetId: string): DbWork<number> {
      const [row] = yield* sql.rows<{ seq: number | string }>(
        'SELECT coalesce(max(seq), 0) AS seq FROM events WHERE sheet_id = $1',
        [sheetId],
      );
      return Number(row?.seq ?? 0);
    },

    *eventSeq(sheetId: string, id: string, notBefore: string): DbWork<number | null> {
      const seq = yield* positionOf(id, sheetId);
      if (seq === null) return null;
      const [row] = yield* sql.rows<{ seq: number | string }>(
        'SELECT seq FROM events WHERE seq = $1 AND sheet_id = $2 AND created_at >= $3',
        [seq, sheetId, notBefore],
      );
      return row === undefined ? null : Number(row.seq);
    },

    *eventsAfterSeq(
      sheetId: string,
      seq: number,
      page: { limit: number; maxBytes: number },
      notBefore: string,
    ): DbWork<StoredEvent[]> {
      const rows = yield* sql.rows<EventRow>(
        `SELECT ${eventColumns} FROM (
           SELECT ${eventColumns}, sum(octet_length(body)) OVER (ORDER BY seq) - octet_length(body) AS before
           FROM events WHERE sheet_id = $1 AND seq > $2 AND created_at >= $3 ORDER BY seq LIMIT $4) AS page
         WHERE before < $5 ORDER BY seq`,
        [sheetId, seq, notBefore, page.limit, page.maxBytes],
      );
      return rows.map(event);
    },

    *latestEventSeqs(sheetIds: string[]): DbWork<{ sheetId: string; seq: number }[]> {
      // One index probe per sheet, rather than a scan of all of a sheet's events.
      const rows = yield* sql.rows<{ sheet_id: string; seq: number | string | null }>(
        `SELECT ids.value AS sheet_id, (SELECT max(seq) FROM events WHERE sheet_id = ids.value) AS seq
         FROM ${flavor.listTable(1, 'text', 'ids')}`,
        [flavor.list(sheetIds)],
      );
      return rows.flatMap((row) =>
        row.seq === null ? [] : [{ sheetId: row.sheet_id, seq: Number(row.seq) }],
      );
    },

    *eventBytesAfter(sheetId: string, seq: number, limit: number): DbWork<number> {
      const [row] = yield* sql.rows<{ bytes: number | string }>(
        `SELECT coalesce(sum(octet_length(body)), 0) AS bytes FROM (
           SELECT body FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) AS due`,
        [sheetId, seq, limit],
      );
      return Number(row?.bytes ?? 0);
    },

    pruneEvents(olderThan: string, heldSince: string, limit: number): DbWork<number> {
      return pruneEvents(sql, olderThan, heldSince, limit, null);
    },

    *eventsExist(ids: string[]): DbWork<boolean> {
      const rows = yield* sql.rows(
        `SELECT 1 AS found FROM events WHERE ${flavor.oneOf('id', 1, 'text')} LIMIT 1`,
        [flavor.list(ids)],
      );
      return rows.length > 0;
    },
  };
}

/**
 * `OutboxStatements.pruneEvents`, among the events at position `throughSeq` and before only when
 * it is given: a range of the table's own key, which needs no index on the time to be found.
 */
export function pruneEvents(
  sql: Sql,
  olderThan: string,
  heldSince: string,
  limit: number,
  throughSeq: number | null,
): DbWork<number> {
  const through = throughSeq === null ? '' : 'seq <= $4 AND ';
  return sql.changes(
    `DELETE FROM events WHERE seq IN (
       SELECT seq FROM events WHERE ${through}${pastRetention} LIMIT $3)`,
    throughSeq === null ? [olderThan, heldSince, limit] : [olderThan, heldSince, limit, throughSeq],
  );
}

/**
 * Whether an event may go: made before `$1`, and not held for an enabled webhook of its sheet
 * that has still to send it, unless made before `$2` as well.
 */
export const pastRetention = `created_at < $1 AND NOT (created_at >= $2 AND EXISTS (
  SELECT 1 FROM webhooks WHERE webhooks.sheet_id = events.sheet_id
    AND webhooks.disabled_at IS NULL AND webhooks.cursor < events.seq))`;

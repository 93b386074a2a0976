import type { StoredEvent } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { RowSql } from './row-sql.ts';
import type { Flavor } from './sql.ts';

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

/** The outbox of row events: the statements both dialects share. */
export abstract class OutboxSql extends RowSql {
  eventsAfter(sheetId: string, after: string | null, limit: number): DbWork<StoredEvent[]> {
    return this.all(
      `SELECT ${eventColumns} FROM events WHERE sheet_id = $1
         AND seq > coalesce((SELECT seq FROM events WHERE id = $2), 0) ORDER BY seq LIMIT $3`,
      [sheetId, after, limit],
      (row: EventRow) => toEvent(this.flavor, row),
    );
  }

  eventAfterSeq(sheetId: string, seq: number): DbWork<StoredEvent | null> {
    return this.one(
      `SELECT ${eventColumns} FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT 1`,
      [sheetId, seq],
      (row: EventRow) => toEvent(this.flavor, row),
    );
  }

  latestEventId(sheetId: string): DbWork<string | null> {
    return this.one(
      'SELECT id FROM events WHERE sheet_id = $1 ORDER BY seq DESC LIMIT 1',
      [sheetId],
      (row: { id: string }) => row.id,
    );
  }

  *maxEventSeq(sheetId: string): DbWork<number> {
    const row = yield* this.one<{ seq: number | string }>(
      'SELECT coalesce(max(seq), 0) AS seq FROM events WHERE sheet_id = $1',
      [sheetId],
    );
    return Number(row?.seq ?? 0);
  }

  eventSeq(sheetId: string, id: string, notBefore: string): DbWork<number | null> {
    return this.one(
      'SELECT seq FROM events WHERE id = $1 AND sheet_id = $2 AND created_at >= $3',
      [id, sheetId, notBefore],
      (row: { seq: number | string }) => Number(row.seq),
    );
  }

  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: string,
  ): DbWork<StoredEvent[]> {
    return this.all(
      `SELECT ${eventColumns} FROM (
         SELECT ${eventColumns}, sum(octet_length(body)) OVER (ORDER BY seq) - octet_length(body) AS before
         FROM events WHERE sheet_id = $1 AND seq > $2 AND created_at >= $3 ORDER BY seq LIMIT $4) AS page
       WHERE before < $5 ORDER BY seq`,
      [sheetId, seq, notBefore, page.limit, page.maxBytes],
      (row: EventRow) => toEvent(this.flavor, row),
    );
  }

  *latestEventSeqs(sheetIds: string[]): DbWork<{ sheetId: string; seq: number }[]> {
    // One index probe per sheet, rather than a scan of all of a sheet's events.
    const rows = yield* this.all<{ sheet_id: string; seq: number | string | null }>(
      `SELECT ids.value AS sheet_id, (SELECT max(seq) FROM events WHERE sheet_id = ids.value) AS seq
       FROM ${this.flavor.listTable(1, 'text', 'ids')}`,
      [this.flavor.list(sheetIds)],
    );
    return rows.flatMap((row) =>
      row.seq === null ? [] : [{ sheetId: row.sheet_id, seq: Number(row.seq) }],
    );
  }

  *eventBytesAfter(sheetId: string, seq: number, limit: number): DbWork<number> {
    const row = yield* this.one<{ bytes: number | string }>(
      `SELECT coalesce(sum(octet_length(body)), 0) AS bytes FROM (
         SELECT body FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) AS due`,
      [sheetId, seq, limit],
    );
    return Number(row?.bytes ?? 0);
  }

  pruneEvents(olderThan: string, heldSince: string, limit: number): DbWork<number> {
    return this.changed(
      `DELETE FROM events WHERE seq IN (
         SELECT seq FROM events WHERE created_at < $1 AND NOT (created_at >= $2 AND EXISTS (
           SELECT 1 FROM webhooks WHERE webhooks.sheet_id = events.sheet_id
             AND webhooks.disabled_at IS NULL AND webhooks.cursor < events.seq))
         LIMIT $3)`,
      [olderThan, heldSince, limit],
    );
  }

  *eventsExist(ids: string[]): DbWork<boolean> {
    const row = yield* this.one(
      `SELECT 1 AS found FROM events WHERE ${this.flavor.oneOf('id', 1, 'text')} LIMIT 1`,
      [this.flavor.list(ids)],
    );
    return row !== null;
  }
}

import type { Dialect } from './dialect.ts';

/** A row event as the outbox keeps it. */
export interface RowEvent {
  id: string;
  sheetId: string;
  type: string;
  /** The event's JSON, as it is delivered. */
  body: string;
  createdAt: string;
}

/** Events the pruner removes per transaction. */
const pruneBatch = 5000;

/** The outbox of row events, as the rest of the server reads and prunes it. */
export interface OutboxStore {
  /** Row events of a sheet after `after` (an event id), oldest first. */
  eventsAfter(sheetId: string, after: string | null, limit: number): Promise<RowEvent[]>;
  /** The id of a sheet's newest row event; null when it has none. */
  latestEventId(sheetId: string): Promise<string | null>;
  /** The outbox position of a sheet's newest event; 0 when it has none. */
  latestEventSeq(sheetId: string): Promise<number>;
  /** The position of a sheet's event `id`, if it is kept and made at `notBefore` or later. */
  eventCursor(sheetId: string, id: string, notBefore: Date): Promise<number | null>;
  /**
   * A sheet's events after position `seq`, made at `notBefore` or later, oldest first: `limit`
   * at most, and no more once their bodies reach `maxBytes` (the first always comes).
   */
  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: Date,
  ): Promise<(RowEvent & { seq: number })[]>;
  /** The newest outbox position of each of these sheets that has events. */
  latestEventSeqs(sheetIds: string[]): Promise<Map<string, number>>;
  /** The bytes of a sheet's next `limit` events after position `seq`. */
  eventBytesAfter(sheetId: string, seq: number, limit: number): Promise<number>;
  /**
   * Removes the events made before `olderThan`, except those an enabled webhook of their sheet
   * has still to send that were made at `heldSince` or later; answers how many went.
   */
  pruneEvents(olderThan: Date, heldSince: Date): Promise<number>;
  /** A sheet's first event after outbox position `seq`, with its position; null when none. */
  eventAfter(sheetId: string, seq: number): Promise<(RowEvent & { seq: number }) | null>;
}

/** The outbox over a dialect: each call one unit of work over its outbox statements. */
export function outboxStore(db: Dialect): OutboxStore {
  return {
    eventsAfter(sheetId: string, after: string | null, limit: number): Promise<RowEvent[]> {
      return db.read(() => db.outbox.eventsAfter(sheetId, after, limit));
    },

    latestEventId(sheetId: string): Promise<string | null> {
      return db.read(() => db.outbox.latestEventId(sheetId));
    },

    latestEventSeq(sheetId: string): Promise<number> {
      return db.read(() => db.outbox.maxEventSeq(sheetId));
    },

    eventCursor(sheetId: string, id: string, notBefore: Date): Promise<number | null> {
      return db.read(() => db.outbox.eventSeq(sheetId, id, notBefore.toISOString()));
    },

    eventsAfterSeq(
      sheetId: string,
      seq: number,
      page: { limit: number; maxBytes: number },
      notBefore: Date,
    ): Promise<(RowEvent & { seq: number })[]> {
      return db.read(() => db.outbox.eventsAfterSeq(sheetId, seq, page, notBefore.toISOString()));
    },

    async latestEventSeqs(sheetIds: string[]): Promise<Map<string, number>> {
      const rows = await db.read(() => db.outbox.latestEventSeqs(sheetIds));
      return new Map(rows.map((row) => [row.sheetId, row.seq]));
    },

    eventBytesAfter(sheetId: string, seq: number, limit: number): Promise<number> {
      return db.read(() => db.outbox.eventBytesAfter(sheetId, seq, limit));
    },

    /** In transactions of `pruneBatch` events, so that writes never wait long behind one. */
    async pruneEvents(olderThan: Date, heldSince: Date): Promise<number> {
      const [before, since] = [olderThan.toISOString(), heldSince.toISOString()];
      let pruned = 0;
      for (;;) {
        const gone = await db.write(() => db.outbox.pruneEvents(before, since, pruneBatch));
        pruned += gone;
        if (gone < pruneBatch) return pruned;
      }
    },

    eventAfter(sheetId: string, seq: number): Promise<(RowEvent & { seq: number }) | null> {
      return db.read(() => db.outbox.eventAfterSeq(sheetId, seq));
    },
  };
}

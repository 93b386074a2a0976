import Database from 'better-sqlite3';
import type { Selection } from '../../query/plan.ts';
import type { RowEntries } from '../cell-index.ts';
import { keyColumns, keyFields, type IdempotencyRecord } from '../idempotency-records.ts';
import type { BlockHead } from '../row-blocks.ts';
import {
  lockNeverLost,
  storeUnavailable,
  type Dialect,
  type SheetRecord,
  type Snapshot,
  type StoredEvent,
} from '../dialect.ts';
import { sqliteCredentials } from '../provider-credentials.ts';
import type { StoredRow } from '../row-json.ts';
import { selectionCondition, SqlParams } from '../row-sets.ts';
import type {
  ApiKeyRecord,
  DeliveryRecord,
  HeldLock,
  KeyId,
  WebhookProgress,
  WebhookRecord,
} from '../store.ts';
import { runSync, step, type Work } from '../work.ts';
import { entryValues, sqliteEntries } from './sqlite-cells.ts';
import { migrate } from './sqlite-migrations.ts';
import { privateDatabaseFile, privateDirectory } from './private-files.ts';

export interface SqliteOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** 'full' syncs to disk at every commit; 'normal' survives a process crash, not a power cut. */
  synchronous: 'full' | 'normal';
  /** Sheets with more rows than this are indexed, when a migration moves old sheets in. */
  indexThreshold: number;
}

type Db = Database.Database;
type Statement = Database.Statement;

interface SheetRow {
  key: number;
  id: string;
  name: string;
  columns: string;
  source: string;
  settings: string;
  row_count: number;
  version: number;
  next_rid: number;
  indexed: number;
  pushing: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * The embedded store: one SQLite file in WAL mode, owned by one process. A unit of work runs
 * synchronously inside one transaction, so nothing interleaves with it; reads sent in pieces use
 * a second, read-only connection whose transaction keeps their snapshot.
 */
export class SqliteDialect implements Dialect {
  readonly credentials = sqliteCredentials;
  readonly ownsStore = true;
  readonly #db: Db;
  readonly #path: string;
  readonly #statements = new Map<string, Statement>();

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') {
      privateDirectory(options.path);
      privateDatabaseFile(options.path);
    }
    this.#path = options.path;
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    // Reads map the file instead of copying it page by page, which a large read does a lot of.
    this.#db.pragma(`mmap_size = ${mmapBytes}`);
    migrate(this.#db, this, options.indexThreshold);
    runSync(this.dropAbandonedImports(), this.#db);
  }

  async read<T>(work: () => Work<T>): Promise<T> {
    return unavailableAs(() => runSync(work(), this.#db));
  }

  async write<T>(work: () => Work<T>): Promise<T> {
    return unavailableAs(() => this.#db.transaction(() => runSync(work(), this.#db)).immediate());
  }

  async snapshot(): Promise<Snapshot> {
    if (this.#path === ':memory:') return { run: (work) => this.read(work), end: async () => {} };
    // A snapshot serves a large read from end to end, once: it reads the file through a small
    // page cache, not the memory map, so that the server's memory does not grow with the sheet.
    const reader = new Database(this.#path, { readonly: true, fileMustExist: true });
    reader.pragma('cache_size = -1024');
    reader.exec('BEGIN');
    return {
      run: async (work) => runSync(work(), reader),
      end: async () => {
        if (reader.inTransaction) reader.exec('COMMIT');
        reader.close();
      },
    };
  }

  /** One process owns the file, and the write queue already runs a sheet's work in turn. */
  exclusive<T>(_sheetId: string, work: (lock: HeldLock) => Promise<T>): Promise<T> {
    return work(lockNeverLost);
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  /** One connection, no pool. */
  connections(): null {
    return null;
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  // Sheets

  sheetById(id: string): Work<SheetRecord | null> {
    return this.#one(`SELECT * FROM sheets WHERE id = ? AND state = 'ready'`, [id], toSheet);
  }

  sheetsById(ids: string[]): Work<SheetRecord[]> {
    return this.#all(
      `SELECT * FROM sheets WHERE id IN (SELECT value FROM json_each(?)) AND state = 'ready'`,
      [JSON.stringify(ids)],
      toSheet,
    );
  }

  listSheets(): Work<SheetRecord[]> {
    return this.#all(`SELECT * FROM sheets WHERE state = 'ready' ORDER BY key`, [], toSheet);
  }

  newSheetKey(): Work<number> {
    // What SQLite would choose for the key: writers are serialised, so no one else takes it.
    return step(
      (db: Db) =>
        this.#statement(db, 'SELECT coalesce(max(key), 0) + 1 FROM sheets').pluck().get() as number,
    );
  }

  insertSheet(sheet: SheetRecord, state: 'importing' | 'ready'): Work<void> {
    return this.#run(
      `INSERT INTO sheets (${sheetColumns}, key, id, state, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [...sheetFields(sheet), sheet.key, sheet.id, state, sheet.createdAt],
    );
  }

  saveSheet(sheet: SheetRecord, publish = false): Work<void> {
    return this.#run(
      `UPDATE sheets SET (${sheetColumns}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?),
         state = CASE WHEN ? THEN 'ready' ELSE state END WHERE key = ?`,
      [...sheetFields(sheet), publish ? 1 : 0, sheet.key],
    );
  }

  deleteSheet(key: number): Work<void> {
    return step((db: Db) => {
      const sheet = this.#statement(db, 'SELECT id FROM sheets WHERE key = ?').pluck().get(key);
      this.#statement(db, 'DELETE FROM rows WHERE sheet = ?').run(key);
      this.#statement(db, 'DELETE FROM cells WHERE sheet = ?').run(key);
      this.#statement(db, 'DELETE FROM blocks WHERE sheet = ?').run(key);
      this.#statement(db, 'DELETE FROM events WHERE sheet_id = ?').run(sheet);
      this.#statement(db, 'DELETE FROM sheets WHERE key = ?').run(key);
    });
  }

  /** Any import still marked as running was cut off: this process is the file's only writer. */
  dropAbandonedImports(): Work<void> {
    return step((db: Db) => {
      const keys = this.#statement(db, `SELECT key FROM sheets WHERE state = 'importing'`)
        .pluck()
        .all() as number[];
      for (const key of keys) {
        this.#statement(db, 'DELETE FROM rows WHERE sheet = ?').run(key);
        this.#statement(db, 'DELETE FROM cells WHERE sheet = ?').run(key);
        this.#statement(db, 'DELETE FROM blocks WHERE sheet = ?').run(key);
        this.#statement(db, 'DELETE FROM sheets WHERE key = ?').run(key);
      }
    });
  }

  // Rows

  rowsBetween(key: number, from: number, to: number): Work<StoredRow[]> {
    return this.#all(
      'SELECT pos, rid, json, dates FROM rows WHERE sheet = ? AND pos >= ? AND pos < ? ORDER BY pos',
      [key, from, to],
    );
  }

  rowsAt(key: number, positions: number[]): Work<StoredRow[]> {
    return this.#all(
      'SELECT pos, rid, json, dates FROM rows WHERE sheet = ? AND pos IN (SELECT value FROM json_each(?)) ORDER BY pos',
      [key, JSON.stringify(positions)],
    );
  }

  insertRows(key: number, rows: StoredRow[]): Work<void> {
    return step((db: Db) => {
      const insert = this.#statement(
        db,
        'INSERT INTO rows (sheet, pos, rid, json, dates) VALUES (?, ?, ?, ?, ?)',
      );
      for (const row of rows) insert.run(key, row.pos, row.rid, row.json, row.dates);
    });
  }

  updateRows(key: number, rows: StoredRow[]): Work<void> {
    return step((db: Db) => {
      const update = this.#statement(
        db,
        'UPDATE rows SET json = ?, dates = ? WHERE sheet = ? AND pos = ? AND rid = ?',
      );
      for (const row of rows) update.run(row.json, row.dates, key, row.pos, row.rid);
    });
  }

  deleteRows(key: number, positions: number[]): Work<void> {
    return step((db: Db) => {
      this.#statement(
        db,
        'DELETE FROM rows WHERE sheet = ? AND pos IN (SELECT value FROM json_each(?))',
      ).run(key, JSON.stringify(positions));
      const first = Math.min(...positions);
      // The rows below the first gap are numbered again, in order, from it.
      this.#statement(
        db,
        `UPDATE rows SET pos = renumbered.pos FROM (
           SELECT rid, ?2 + row_number() OVER (ORDER BY pos) - 1 AS pos FROM rows WHERE sheet = ?1 AND pos > ?2
         ) AS renumbered WHERE rows.sheet = ?1 AND rows.rid = renumbered.rid`,
      ).run(numbered([key, first]));
    });
  }

  openRows(key: number, at: number, count: number): Work<void> {
    return this.#run('UPDATE rows SET pos = pos + ? WHERE sheet = ? AND pos >= ?', [
      count,
      key,
      at,
    ]);
  }

  deleteAllRows(key: number): Work<void> {
    return this.#run('DELETE FROM rows WHERE sheet = ?', [key]);
  }

  // The cell index

  insertEntries(key: number, rows: RowEntries[]): Work<void> {
    return step((db: Db) => {
      const insert = this.#statement(
        db,
        'INSERT INTO cells (sheet, col, value, rid, folded, shown) VALUES (?, ?, ?, ?, ?, ?)',
      );
      for (const { rid, entries } of rows) {
        for (const entry of entries) insert.run(key, entry.col, ...valuesAt(entry, rid));
      }
    });
  }

  deleteEntries(key: number, rows: RowEntries[]): Work<void> {
    return step((db: Db) => {
      const remove = this.#statement(
        db,
        'DELETE FROM cells WHERE sheet = ? AND col = ? AND value = ? AND rid = ?',
      );
      for (const { rid, entries } of rows) {
        for (const entry of entries) remove.run(key, entry.col, entryValues(entry)[0], rid);
      }
    });
  }

  deleteAllEntries(key: number): Work<void> {
    return this.#run('DELETE FROM cells WHERE sheet = ?', [key]);
  }

  matchingPositions(key: number, selection: Exclude<Selection, { ids: number[] }>): Work<number[]> {
    const p = new SqlParams((n) => `?${n}`);
    const where = selectionCondition(selection, key, sqliteEntries, p);
    return step((db: Db) =>
      // By row id through its index: without statistics SQLite would walk the whole sheet.
      this.#statement(
        db,
        `SELECT pos FROM rows INDEXED BY rows_by_rid WHERE sheet = ${p.add(key)}${where} ORDER BY pos`,
      )
        .pluck()
        .all(numbered(p.values)),
    );
  }

  // Blocks

  blockHeads(key: number): Work<BlockHead[]> {
    return this.#all(
      'SELECT block, count, length(json) AS bytes FROM blocks WHERE sheet = ? ORDER BY block',
      [key],
    );
  }

  insertBlocks(key: number, blocks: { block: number; count: number; json: string }[]): Work<void> {
    return step((db: Db) => {
      const insert = this.#statement(
        db,
        'INSERT INTO blocks (sheet, block, count, json) VALUES (?, ?, ?, ?)',
      );
      for (const { block, count, json } of blocks) insert.run(key, block, count, json);
    });
  }

  appendToBlock(key: number, block: number, count: number, json: string): Work<void> {
    return this.#run(
      `UPDATE blocks SET count = count + ?, json = json || ',' || ? WHERE sheet = ? AND block = ?`,
      [count, json, key, block],
    );
  }

  rejoinBlock(key: number, block: number, start: number, count: number): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `UPDATE blocks SET count = ?3, json = (
             SELECT group_concat(json, ',') FROM rows WHERE sheet = ?1 AND pos >= ?4 AND pos < ?4 + ?3
           ) WHERE sheet = ?1 AND block = ?2 RETURNING length(json)`,
        )
          .pluck()
          .get(numbered([key, block, count, start])) as number,
    );
  }

  deleteBlocks(key: number, blocks: number[]): Work<void> {
    return this.#run(
      'DELETE FROM blocks WHERE sheet = ? AND block IN (SELECT value FROM json_each(?))',
      [key, JSON.stringify(blocks)],
    );
  }

  deleteAllBlocks(key: number): Work<void> {
    return this.#run('DELETE FROM blocks WHERE sheet = ?', [key]);
  }

  /** The blocks come as bytes, joined only as they are sent: cheaper than joining them in SQL. */
  jsonOfBlocks(key: number, maxRows: number): Work<Buffer[] | null> {
    return step((db: Db) => {
      const rowCount = this.#statement(db, 'SELECT row_count FROM sheets WHERE key = ?')
        .pluck()
        .get(key) as number;
      if (rowCount > maxRows) return null;
      return this.#statement(db, 'SELECT CAST(json AS BLOB) FROM blocks WHERE sheet = ?')
        .pluck()
        .all(key) as Buffer[];
    });
  }

  // Answers

  jsonBetween(key: number, from: number, to: number, withIds: boolean): Work<Buffer> {
    return this.#json(`pos >= ? AND pos < ?`, [key, from, to], withIds);
  }

  jsonAt(key: number, positions: number[], withIds: boolean): Work<Buffer> {
    return this.#json(
      `pos IN (SELECT value FROM json_each(?))`,
      [key, JSON.stringify(positions)],
      withIds,
    );
  }

  jsonMatching(
    key: number,
    selection: Exclude<Selection, { ids: number[] }>,
    withIds: boolean,
  ): Work<{ count: number; json: Buffer }> {
    const p = new SqlParams((n) => `?${n}`);
    const where = selectionCondition(selection, key, sqliteEntries, p);
    // The few rows a filter finds are sorted into sheet order as they are joined.
    const sql = `SELECT count(*) AS count, CAST(group_concat(${rowJson(withIds)}, ',' ORDER BY pos) AS BLOB) AS json
      FROM rows INDEXED BY rows_by_rid WHERE sheet = ${p.add(key)}${where}`;
    return step((db: Db) => {
      const found = this.#statement(db, sql).get(numbered(p.values)) as {
        count: number;
        json: Buffer | null;
      };
      return { count: found.count, json: found.json ?? Buffer.alloc(0) };
    });
  }

  /**
   * The rows' stored JSON joined by SQLite itself, handed over as bytes: no per-row work here.
   * The primary key range scan yields rows in position order, which is the order joined; an
   * ORDER BY inside group_concat would sort them again, at five times the cost.
   */
  #json(where: string, params: unknown[], withIds: boolean): Work<Buffer> {
    return step((db: Db) => {
      const joined = this.#statement(
        db,
        `SELECT CAST(group_concat(${rowJson(withIds)}, ',') AS BLOB) FROM rows WHERE sheet = ? AND ${where}`,
      )
        .pluck()
        .get(...params) as Buffer | null;
      return joined ?? Buffer.alloc(0);
    });
  }

  // Events

  insertEvents(events: Omit<StoredEvent, 'seq'>[]): Work<void> {
    return step((db: Db) => {
      const insert = this.#statement(
        db,
        'INSERT INTO events (id, sheet_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)',
      );
      for (const event of events) {
        insert.run(event.id, event.sheetId, event.type, event.body, event.createdAt);
      }
    });
  }

  eventsAfter(sheetId: string, after: string | null, limit: number): Work<StoredEvent[]> {
    return this.#all(
      `SELECT seq, id, sheet_id AS sheetId, type, body, created_at AS createdAt FROM events
       WHERE sheet_id = ? AND seq > coalesce((SELECT seq FROM events WHERE id = ?), 0) ORDER BY seq LIMIT ?`,
      [sheetId, after, limit],
    );
  }

  latestEventId(sheetId: string): Work<string | null> {
    return step(
      (db: Db) =>
        (this.#statement(db, 'SELECT id FROM events WHERE sheet_id = ? ORDER BY seq DESC LIMIT 1')
          .pluck()
          .get(sheetId) as string | undefined) ?? null,
    );
  }

  eventSeq(sheetId: string, id: string, notBefore: string): Work<number | null> {
    return this.#one<{ seq: number }, number>(
      'SELECT seq FROM events WHERE id = ? AND sheet_id = ? AND created_at >= ?',
      [id, sheetId, notBefore],
      (row) => row.seq,
    );
  }

  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: string,
  ): Work<StoredEvent[]> {
    return this.#all(
      `SELECT seq, id, sheetId, type, body, createdAt FROM (
         SELECT seq, id, sheet_id AS sheetId, type, body, created_at AS createdAt,
           sum(length(CAST(body AS BLOB))) OVER (ORDER BY seq) - length(CAST(body AS BLOB)) AS before
         FROM events WHERE sheet_id = ? AND seq > ? AND created_at >= ? ORDER BY seq LIMIT ?)
       WHERE before < ? ORDER BY seq`,
      [sheetId, seq, notBefore, page.limit, page.maxBytes],
    );
  }

  latestEventSeqs(sheetIds: string[]): Work<{ sheetId: string; seq: number }[]> {
    return this.#all(
      `SELECT sheet_id AS sheetId, max(seq) AS seq FROM events
       WHERE sheet_id IN (SELECT value FROM json_each(?)) GROUP BY sheet_id`,
      [JSON.stringify(sheetIds)],
    );
  }

  eventBytesAfter(sheetId: string, seq: number, limit: number): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `SELECT coalesce(sum(length(CAST(body AS BLOB))), 0) FROM (
             SELECT body FROM events WHERE sheet_id = ? AND seq > ? ORDER BY seq LIMIT ?)`,
        )
          .pluck()
          .get(sheetId, seq, limit) as number,
    );
  }

  pruneEvents(olderThan: string, heldSince: string, limit: number): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `DELETE FROM events WHERE seq IN (
             SELECT seq FROM events WHERE created_at < ? AND NOT (created_at >= ? AND EXISTS (
               SELECT 1 FROM webhooks WHERE webhooks.sheet_id = events.sheet_id
                 AND webhooks.disabled_at IS NULL AND webhooks.cursor < events.seq))
             LIMIT ?)`,
        ).run(olderThan, heldSince, limit).changes,
    );
  }

  // Webhooks: times are ISO text, which sorts as time does.

  insertWebhook(webhook: WebhookRecord): Work<void> {
    return this.#run(
      `INSERT INTO webhooks (id, sheet_id, url, events, secret, created_at, cursor, attempt, next_attempt_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      [
        webhook.id,
        webhook.sheetId,
        webhook.url,
        JSON.stringify(webhook.events),
        webhook.secret,
        webhook.createdAt,
        webhook.cursor,
        webhook.nextAttemptAt,
      ],
    );
  }

  maxEventSeq(sheetId: string): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(db, 'SELECT coalesce(max(seq), 0) FROM events WHERE sheet_id = ?')
          .pluck()
          .get(sheetId) as number,
    );
  }

  webhookBacklog(): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `SELECT count(*) AS n FROM webhooks JOIN events
         ON events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor
       WHERE webhooks.disabled_at IS NULL`,
        )
          .pluck()
          .get() as number,
    );
  }

  webhooksOf(sheetId: string): Work<WebhookRecord[]> {
    return this.#all(
      'SELECT * FROM webhooks WHERE sheet_id = ? ORDER BY created_at, id',
      [sheetId],
      toWebhook,
    );
  }

  webhookSheets(): Work<string[]> {
    return this.#all<{ sheet_id: string }, string>(
      'SELECT DISTINCT sheet_id FROM webhooks WHERE disabled_at IS NULL',
      [],
      (row) => row.sheet_id,
    );
  }

  deleteWebhook(sheetId: string, id: string): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(db, 'DELETE FROM webhooks WHERE sheet_id = ? AND id = ?').run(sheetId, id)
          .changes > 0,
    );
  }

  rotateWebhookSecret(
    sheetId: string,
    id: string,
    secret: string,
    previousUntil: string | null,
  ): Work<WebhookRecord | null> {
    // Every right-hand side reads the row as it was: the previous secret is the one replaced.
    const previous = previousUntil === null ? 'NULL' : 'secret';
    return this.#one(
      `UPDATE webhooks SET previous_secret = ${previous}, previous_secret_expires_at = ?, secret = ?
       WHERE sheet_id = ? AND id = ? RETURNING *`,
      [previousUntil, secret, sheetId, id],
      toWebhook,
    );
  }

  claimWebhooks(now: Date, leaseUntil: Date, limit: number): Work<WebhookRecord[]> {
    return this.#all(
      `UPDATE webhooks SET leased_until = ?
       WHERE id IN (SELECT id FROM webhooks WHERE disabled_at IS NULL AND next_attempt_at <= ?
         AND (leased_until IS NULL OR leased_until < ?)
         AND EXISTS (SELECT 1 FROM events WHERE events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor) ORDER BY next_attempt_at LIMIT ?)
       RETURNING *`,
      [leaseUntil.toISOString(), now.toISOString(), now.toISOString(), limit],
      toWebhook,
    );
  }

  eventAfterSeq(sheetId: string, seq: number): Work<StoredEvent | null> {
    return this.#one(
      `SELECT seq, id, sheet_id AS sheetId, type, body, created_at AS createdAt FROM events
       WHERE sheet_id = ? AND seq > ? ORDER BY seq LIMIT 1`,
      [sheetId, seq],
      (row) => row as StoredEvent,
    );
  }

  saveWebhookProgress(webhookId: string, progress: WebhookProgress, release: boolean): Work<void> {
    return this.#run(
      `UPDATE webhooks SET cursor = ?, attempt = ?, first_attempt_at = ?, next_attempt_at = ?,
         disabled_at = ?, disabled_reason = ?,
         leased_until = CASE WHEN ? THEN NULL ELSE leased_until END WHERE id = ?`,
      [
        progress.cursor,
        progress.attempt,
        progress.firstAttemptAt,
        progress.nextAttemptAt,
        progress.disabledAt,
        progress.disabledReason,
        release ? 1 : 0,
        webhookId,
      ],
    );
  }

  *insertDelivery(delivery: DeliveryRecord, keep: number): Work<void> {
    yield* this.#run(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, type, attempt, status, error, next_retry_at, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        delivery.webhookId,
        delivery.eventId,
        delivery.type,
        delivery.attempt,
        delivery.status,
        delivery.error,
        delivery.nextRetryAt,
        delivery.at,
      ],
    );
    yield* this.#run(
      `DELETE FROM webhook_deliveries WHERE webhook_id = ? AND seq <= (
         SELECT seq FROM webhook_deliveries WHERE webhook_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)`,
      [delivery.webhookId, delivery.webhookId, keep],
    );
  }

  deliveriesOf(webhookId: string, limit: number): Work<DeliveryRecord[]> {
    return this.#all(
      `SELECT webhook_id AS webhookId, event_id AS eventId, type, attempt, status, error,
         next_retry_at AS nextRetryAt, at FROM webhook_deliveries
       WHERE webhook_id = ? ORDER BY seq DESC LIMIT ?`,
      [webhookId, limit],
    );
  }

  eventsExist(ids: string[]): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          'SELECT 1 FROM events WHERE id IN (SELECT value FROM json_each(?)) LIMIT 1',
        )
          .pluck()
          .get(JSON.stringify(ids)) !== undefined,
    );
  }

  // Flags and keys

  *holdWatches(owner: string, sheetIds: string[], now: Date, leaseUntil: Date): Work<string[]> {
    const ids = JSON.stringify(sheetIds);
    yield* this.#run(
      'DELETE FROM watches WHERE owner = ? AND sheet_id NOT IN (SELECT value FROM json_each(?))',
      [owner, ids],
    );
    return yield* this.#all(
      `INSERT INTO watches (sheet_id, owner, lease_until)
       SELECT id, ?, ? FROM sheets WHERE id IN (SELECT value FROM json_each(?))
       ON CONFLICT (sheet_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
       WHERE watches.owner = excluded.owner OR watches.lease_until < ?
       RETURNING sheet_id`,
      [owner, leaseUntil.toISOString(), ids, now.toISOString()],
      (row: { sheet_id: string }) => row.sheet_id,
    );
  }

  claimFlag(name: string): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(db, 'INSERT OR IGNORE INTO flags (name) VALUES (?)').run(name).changes ===
        1,
    );
  }

  releaseFlag(name: string): Work<void> {
    return this.#run('DELETE FROM flags WHERE name = ?', [name]);
  }

  insertKey(key: ApiKeyRecord): Work<void> {
    return this.#run(
      'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      [
        key.id,
        key.sheetId,
        key.name,
        JSON.stringify(key.scopes),
        key.hash,
        key.createdAt,
        key.expiresAt,
      ],
    );
  }

  markKeyRotated(sheetId: string, id: string, successor: string, expiresAt: string): Work<boolean> {
    // Times are ISO text in UTC, which sorts as time does.
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `UPDATE api_keys SET rotated_to = ?,
             expires_at = CASE WHEN expires_at < ? THEN expires_at ELSE ? END
           WHERE sheet_id = ? AND id = ? AND rotated_to IS NULL`,
        ).run(successor, expiresAt, expiresAt, sheetId, id).changes === 1,
    );
  }

  keysOf(sheetId: string): Work<ApiKeyRecord[]> {
    return this.#all(
      'SELECT * FROM api_keys WHERE sheet_id = ? ORDER BY created_at, id',
      [sheetId],
      toKey,
    );
  }

  keyById(id: string): Work<ApiKeyRecord | null> {
    return this.#one('SELECT * FROM api_keys WHERE id = ?', [id], toKey);
  }

  deleteKey(sheetId: string, id: string): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(db, 'DELETE FROM api_keys WHERE sheet_id = ? AND id = ?').run(sheetId, id)
          .changes === 1,
    );
  }

  // Idempotency keys: one writer at a time, so `lock` needs nothing more here.

  idempotencyKey(id: KeyId): Work<IdempotencyRecord | null> {
    return this.#one(
      'SELECT * FROM idempotency_keys WHERE sheet_id = ? AND scope = ? AND key = ?',
      [id.sheetId, id.scope, id.key],
      toIdempotencyKey,
    );
  }

  idempotencyKeysOfPush(sheetId: string, pushId: string): Work<IdempotencyRecord[]> {
    return this.#all(
      'SELECT * FROM idempotency_keys WHERE sheet_id = ? AND push = ?',
      [sheetId, pushId],
      toIdempotencyKey,
    );
  }

  insertIdempotencyKey(record: IdempotencyRecord): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `INSERT INTO idempotency_keys (sheet_id, scope, key, ${keyColumns})
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        ).run(record.sheetId, record.scope, record.key, ...keyFields(record)).changes === 1,
    );
  }

  updateIdempotencyKey(record: IdempotencyRecord, token: string): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          `UPDATE idempotency_keys SET (${keyColumns}) = (?, ?, ?, ?, ?, ?, ?, ?)
           WHERE sheet_id = ? AND scope = ? AND key = ? AND token = ?`,
        ).run(...keyFields(record), record.sheetId, record.scope, record.key, token).changes === 1,
    );
  }

  deleteIdempotencyKey(id: KeyId, token: string): Work<boolean> {
    return step(
      (db: Db) =>
        this.#statement(
          db,
          'DELETE FROM idempotency_keys WHERE sheet_id = ? AND scope = ? AND key = ? AND token = ?',
        ).run(id.sheetId, id.scope, id.key, token).changes === 1,
    );
  }

  pruneIdempotencyKeys(before: string): Work<number> {
    return step(
      (db: Db) =>
        this.#statement(db, 'DELETE FROM idempotency_keys WHERE expires_at < ?').run(before)
          .changes,
    );
  }

  // Statements

  /** Statements prepared once per connection and text; SQL text never holds request data. */
  #statement(db: Db, sql: string): Statement {
    if (db !== this.#db) return db.prepare(sql);
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      if (this.#statements.size > 2000) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #run(sql: string, params: unknown[]): Work<void> {
    return step((db: Db) => {
      this.#statement(db, sql).run(...params);
    });
  }

  #all<R, T = R>(sql: string, params: unknown[], map?: (row: R) => T): Work<T[]> {
    return step((db: Db) => {
      const rows = this.#statement(db, sql).all(...params) as R[];
      return map === undefined ? (rows as unknown as T[]) : rows.map(map);
    });
  }

  #one<R, T>(sql: string, params: unknown[], map: (row: R) => T): Work<T | null> {
    return step((db: Db) => {
      const row = this.#statement(db, sql).get(...params) as R | undefined;
      return row === undefined ? null : map(row);
    });
  }
}

interface IdempotencyRow {
  sheet_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  state: IdempotencyRecord['state'];
  token: string;
  lease_until: string;
  push: string | null;
  outcome: string | null;
  created_at: string;
  expires_at: string;
}

function toIdempotencyKey(row: IdempotencyRow): IdempotencyRecord {
  return {
    sheetId: row.sheet_id,
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state,
    token: row.token,
    leaseUntil: row.lease_until,
    push: row.push,
    outcome: row.outcome,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  };
}

/** Up to this many bytes of the file are mapped into memory for reading. */
const mmapBytes = 1 << 30;

/** A stored row's JSON, with its position first when `_with_id=true` asks for it. */
function rowJson(withIds: boolean): string {
  return withIds
    ? `CASE json WHEN '{}' THEN '{"_id":' || pos || '}' ELSE '{"_id":' || pos || ',' || substr(json, 2) END`
    : 'json';
}

/**
 * A file another process holds locked past the busy timeout, a full disk or a failing one: the
 * store cannot answer now, and the transaction changed nothing (SQLite rolled it back).
 */
function unavailableAs<T>(run: () => T): T {
  try {
    return run();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (
      typeof code === 'string' &&
      /^SQLITE_(BUSY|LOCKED|FULL|IOERR|CANTOPEN|READONLY)/.test(code)
    ) {
      throw storeUnavailable();
    }
    throw error;
  }
}

/** Values for `?1`, `?2`...: better-sqlite3 binds numbered parameters by name. */
function numbered(values: unknown[]): Record<number, unknown> {
  return Object.fromEntries(values.map((value, i) => [i + 1, value]));
}

function valuesAt(entry: RowEntries['entries'][number], rid: number) {
  const [value, folded, shown] = entryValues(entry);
  return [value, rid, folded, shown] as const;
}

/** The columns of `sheets` that a save writes, in the order of `sheetFields`. */
const sheetColumns =
  'name, columns, source, settings, row_count, version, next_rid, indexed, pushing, updated_at';

/** A sheet's values for `sheetColumns`: the inverse of `toSheet`. */
function sheetFields(sheet: SheetRecord): unknown[] {
  return [
    sheet.name,
    JSON.stringify(sheet.columns),
    JSON.stringify(sheet.source),
    JSON.stringify(sheet.settings),
    sheet.rowCount,
    sheet.version,
    sheet.nextRid,
    sheet.indexed ? 1 : 0,
    sheet.pushing,
    sheet.updatedAt,
  ];
}

function toSheet(row: SheetRow): SheetRecord {
  return {
    key: row.key,
    id: row.id,
    name: row.name,
    columns: JSON.parse(row.columns) as string[],
    rowCount: row.row_count,
    source: JSON.parse(row.source) as SheetRecord['source'],
    settings: JSON.parse(row.settings) as SheetRecord['settings'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    nextRid: row.next_rid,
    indexed: row.indexed === 1,
    pushing: row.pushing,
  };
}

interface KeyRow {
  id: string;
  sheet_id: string;
  name: string;
  scopes: string;
  hash: string;
  created_at: string;
  expires_at: string | null;
  rotated_to: string | null;
}

interface WebhookRow {
  id: string;
  sheet_id: string;
  url: string;
  events: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  cursor: number;
  attempt: number;
  first_attempt_at: string | null;
  next_attempt_at: string;
  disabled_at: string | null;
  disabled_reason: string | null;
}

function toWebhook(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at,
    createdAt: row.created_at,
    cursor: row.cursor,
    attempt: row.attempt,
    firstAttemptAt: row.first_attempt_at,
    nextAttemptAt: row.next_attempt_at,
    disabledAt: row.disabled_at,
    disabledReason: row.disabled_reason,
  };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    hash: row.hash,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    rotatedTo: row.rotated_to,
  };
}

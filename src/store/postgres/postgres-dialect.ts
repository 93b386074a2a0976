import pg, { type Pool, type PoolClient } from 'pg';
import type { Selection } from '../../query/plan.ts';
import type { RowEntries } from '../cell-index.ts';
import { keyColumns, keyFields, type IdempotencyRecord } from '../idempotency-records.ts';
import type { BlockHead } from '../row-blocks.ts';
import {
  CommitOutcomeUnknown,
  LockLost,
  storeUnavailable,
  type Dialect,
  type SheetRecord,
  type Snapshot,
  type StoredEvent,
} from '../dialect.ts';
import { postgresCredentials } from '../provider-credentials.ts';
import type { StoredRow } from '../row-json.ts';
import { selectionCondition, SqlParams } from '../row-sets.ts';
import type {
  ApiKeyRecord,
  ConnectionCounts,
  DeliveryRecord,
  HeldLock,
  KeyId,
  WebhookProgress,
  WebhookRecord,
} from '../store.ts';
import { runAsync, step, type Work } from '../work.ts';
import { copyFirstColumn } from './binary-copy.ts';
import { entryColumns, postgresEntries } from './postgres-cells.ts';
import { isUnreachable } from './postgres-errors.ts';
import { migrate } from './postgres-migrations.ts';

export interface PostgresOptions {
  connectionString: string;
  /** Connections this server keeps open for requests. */
  poolSize?: number;
  /** How long a request waits for a connection before the store counts as unavailable. */
  connectTimeoutMs?: number;
  /** Sheets with more rows than this are indexed, when a migration moves old sheets in. */
  indexThreshold: number;
}

type Db = PoolClient;
/** Any fixed number: the advisory lock a server holds while it prunes the outbox. */
const pruneLock = 0x5350_4556;

/** Sheets whose last lookup a server keeps, least recently read first out. */
const seenSheets = 10_000;
type Query = (db: Db) => Promise<unknown>;

interface SheetRow {
  key: number;
  id: string;
  name: string;
  columns: string[];
  source: SheetRecord['source'];
  settings: SheetRecord['settings'];
  row_count: number;
  version: string;
  next_rid: string;
  indexed: boolean;
  pushing: string | null;
  /** A Date from a query, an ISO string from row_to_json. */
  created_at: Date | string;
  updated_at: Date | string;
}

/**
 * The shared store: many servers on one PostgreSQL database. Nothing about a sheet is kept
 * between requests, so a read on any server sees every write acknowledged on any other; a write
 * locks its sheet's row, which keeps positions right with writes arriving through every server.
 * Locks held across units (a provider's push) sit on connections of their own, outside the
 * pool that units draw from, so that no number of them can starve the units they wait for.
 */
export class PostgresDialect implements Dialect {
  readonly credentials = postgresCredentials;
  readonly ownsStore = false;
  readonly #pool: Pool;
  readonly #locks: Pool;
  /** Sheets as last looked up, with a digest of the row they were read from (see sheetsById). */
  readonly #seen = new Map<string, { digest: string; sheet: SheetRecord }>();

  private constructor(pool: Pool, locks: Pool) {
    this.#pool = pool;
    this.#locks = locks;
  }

  static async open(options: PostgresOptions): Promise<PostgresDialect> {
    const settings = {
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    };
    const pool = new pg.Pool({ ...settings, max: options.poolSize ?? 10 });
    const locks = new pg.Pool({ ...settings, max: options.poolSize ?? 10 });
    for (const each of [pool, locks]) {
      // An idle connection that dies is replaced on next use; there is no request to fail. One
      // that dies while in use fails that use's query, which answers for it.
      each.on('error', () => {});
      each.on('connect', (client) => client.on('error', () => {}));
    }
    const dialect = new PostgresDialect(pool, locks);
    await dialect.#unit(async (client) => {
      await migrate(client, dialect, options.indexThreshold);
    });
    await dialect.write(() => dialect.dropAbandonedImports());
    return dialect;
  }

  /**
   * Most reads are one statement, which sees one snapshot by itself: such a read runs without a
   * transaction, saving two round trips. A read that turns out to need a second statement is
   * started again, in a transaction whose statements all see one snapshot.
   */
  async read<T>(work: () => Work<T>): Promise<T> {
    const client = await this.#connect(this.#pool);
    let single: IteratorResult<unknown, T>;
    try {
      const attempt = work();
      single = attempt.next();
      if (!single.done) {
        single = attempt.next(await (single.value as Query)(client));
        if (!single.done) attempt.return(undefined as never);
      }
    } catch (error) {
      client.release(isUnreachable(error) ? true : undefined);
      throw unreachableAs(error);
    }
    if (single.done) {
      client.release();
      return single.value;
    }
    return this.#transaction(
      client,
      'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
      work,
      false,
    );
  }

  async write<T>(work: () => Work<T>): Promise<T> {
    return this.#transaction(await this.#connect(this.#pool), 'BEGIN', work, true);
  }

  async snapshot(): Promise<Snapshot> {
    const client = await this.#connect(this.#pool);
    try {
      await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    } catch (error) {
      client.release(true);
      throw unreachableAs(error);
    }
    let ended = false;
    return {
      run: (work) =>
        runAsync(work(), client).catch((error: unknown) => Promise.reject(unreachableAs(error))),
      end: async () => {
        if (ended) return;
        ended = true;
        await client.query('COMMIT').then(
          () => client.release(),
          (error: unknown) => client.release(error instanceof Error ? error : true),
        );
      },
    };
  }

  /**
   * A session lock on the sheet, held on a connection of its own while `work` runs. The lock
   * lives as long as that connection: when it dies the lock is gone (another server may take
   * it), which `work` learns from the signal or from `verify`, a query on that connection.
   */
  async exclusive<T>(sheetId: string, work: (lock: HeldLock) => Promise<T>): Promise<T> {
    const client = await this.#connect(this.#locks);
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [sheetId]);
    } catch (error) {
      client.release(true);
      throw unreachableAs(error);
    }
    const lost = new AbortController();
    const onLost = () => lost.abort(new LockLost(`The lock of sheet ${sheetId} was lost.`));
    client.on('error', onLost);
    client.on('end', onLost);
    const lock: HeldLock = {
      signal: lost.signal,
      verify: async () => {
        if (!lost.signal.aborted) await client.query('SELECT 1').catch(onLost);
        if (lost.signal.aborted) throw new LockLost(`The lock of sheet ${sheetId} was lost.`);
      },
    };
    try {
      return await work(lock);
    } finally {
      client.off('error', onLost);
      client.off('end', onLost);
      // A connection whose unlock failed may still hold the lock: it is closed, not reused,
      // and closing it is what releases the lock.
      await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [sheetId]).then(
        () => client.release(),
        () => client.release(true),
      );
    }
  }

  async ping(): Promise<void> {
    await this.#unit((client) => client.query('SELECT 1'));
  }

  /** The pool that serves requests (the lock pool is held only while a sheet is locked). */
  connections(): ConnectionCounts {
    const pool = this.#pool;
    return { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
  }

  async close(): Promise<void> {
    await Promise.all([this.#pool.end(), this.#locks.end()]);
  }

  // Sheets

  sheetById(id: string, lock = false): Work<SheetRecord | null> {
    // An id PostgreSQL cannot even compare (a NUL in it) names no sheet.
    if (id.includes('\u0000')) return step(async () => null);
    return this.#one(
      `SELECT * FROM sheets WHERE id = $1 AND state = 'ready'${lock ? ' FOR UPDATE' : ''}`,
      [id],
      toSheet,
    );
  }

  /**
   * Each sheet comes with a digest of its row; a sheet read before whose digest is unchanged is
   * answered with the record kept from then, so the common lookup (a sheet nobody changed) sends
   * and parses a few bytes per sheet instead of its whole row.
   */
  *sheetsById(ids: string[]): Work<SheetRecord[]> {
    const asked = ids.filter((id) => !id.includes('\u0000'));
    const known = asked.map((id) => this.#seen.get(id));
    const rows = yield* this.#all<{ i: number; digest: string; record: string | null }>(
      `SELECT k.i, d.digest, CASE WHEN d.digest = k.digest THEN NULL ELSE row_to_json(s)::text END AS record
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS k(id, digest, i)
       JOIN sheets s ON s.id = k.id AND s.state = 'ready', LATERAL (SELECT md5(s::text) AS digest) d`,
      [asked, known.map((seen) => seen?.digest ?? '')],
    );
    return rows.map(({ i, digest, record }) => {
      const seen = known[i - 1];
      const sheet =
        record === null && seen !== undefined
          ? seen.sheet
          : toSheet(JSON.parse(record as string) as SheetRow);
      this.#seen.delete(sheet.id);
      this.#seen.set(sheet.id, { digest, sheet });
      if (this.#seen.size > seenSheets) this.#seen.delete(this.#seen.keys().next().value as string);
      return sheet;
    });
  }

  listSheets(): Work<SheetRecord[]> {
    return this.#all(`SELECT * FROM sheets WHERE state = 'ready' ORDER BY key`, [], toSheet);
  }

  *newSheetKey(): Work<number> {
    const rows = yield* this.#all<{ key: string }>(
      "SELECT nextval(pg_get_serial_sequence('sheets', 'key')) AS key",
      [],
    );
    return Number((rows[0] as { key: string }).key);
  }

  insertSheet(sheet: SheetRecord, state: 'importing' | 'ready'): Work<void> {
    return this.#run(
      `INSERT INTO sheets (${sheetColumns}, key, id, state, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [...sheetFields(sheet), sheet.key, sheet.id, state, sheet.createdAt],
    );
  }

  saveSheet(sheet: SheetRecord, publish = false): Work<void> {
    return this.#run(
      `UPDATE sheets SET (${sheetColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10),
         state = CASE WHEN $11 THEN 'ready' ELSE state END WHERE key = $12`,
      [...sheetFields(sheet), publish, sheet.key],
    );
  }

  *deleteSheet(key: number): Work<void> {
    yield* this.#run('DELETE FROM rows WHERE sheet = $1', [key]);
    yield* this.#run('DELETE FROM cells WHERE sheet = $1', [key]);
    yield* this.#run('DELETE FROM blocks WHERE sheet = $1', [key]);
    yield* this.#run('DELETE FROM events WHERE sheet_id = (SELECT id FROM sheets WHERE key = $1)', [
      key,
    ]);
    yield* this.#run('DELETE FROM sheets WHERE key = $1', [key]);
  }

  /** Imports that have not finished within an hour are taken to have crashed. */
  *dropAbandonedImports(): Work<void> {
    const abandoned = yield* this.#all<{ key: number }>(
      `SELECT key FROM sheets WHERE state = 'importing' AND created_at < now() - interval '1 hour'`,
      [],
    );
    for (const { key } of abandoned) yield* this.deleteSheet(key);
  }

  // Rows

  rowsBetween(key: number, from: number, to: number): Work<StoredRow[]> {
    return this.#all(
      'SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND pos >= $2 AND pos < $3 ORDER BY pos',
      [key, from, to],
    );
  }

  rowsAt(key: number, positions: number[]): Work<StoredRow[]> {
    return this.#all(
      'SELECT pos, rid, json, dates FROM rows WHERE sheet = $1 AND pos = ANY($2::int[]) ORDER BY pos',
      [key, positions],
    );
  }

  insertRows(key: number, rows: StoredRow[]): Work<void> {
    return this.#run(
      `INSERT INTO rows (sheet, pos, rid, json, dates)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[])`,
      [key, ...columnsOf(rows)],
    );
  }

  updateRows(key: number, rows: StoredRow[]): Work<void> {
    return this.#run(
      `UPDATE rows SET json = changed.json, dates = changed.dates
       FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS changed (pos, rid, json, dates)
       WHERE rows.sheet = $1 AND rows.pos = changed.pos AND rows.rid = changed.rid`,
      [key, ...columnsOf(rows)],
    );
  }

  *deleteRows(key: number, positions: number[]): Work<void> {
    yield* this.#run('DELETE FROM rows WHERE sheet = $1 AND pos = ANY($2::int[])', [
      key,
      positions,
    ]);
    // The rows below the first gap are numbered again, in order, from it.
    yield* this.#run(
      `UPDATE rows SET pos = renumbered.pos FROM (
         SELECT rid, $2 + row_number() OVER (ORDER BY pos) - 1 AS pos FROM rows WHERE sheet = $1 AND pos > $2
       ) AS renumbered WHERE rows.sheet = $1 AND rows.rid = renumbered.rid`,
      [key, Math.min(...positions)],
    );
  }

  openRows(key: number, at: number, count: number): Work<void> {
    return this.#run('UPDATE rows SET pos = pos + $2 WHERE sheet = $1 AND pos >= $3', [
      key,
      count,
      at,
    ]);
  }

  deleteAllRows(key: number): Work<void> {
    return this.#run('DELETE FROM rows WHERE sheet = $1', [key]);
  }

  // The cell index

  insertEntries(key: number, rows: RowEntries[]): Work<void> {
    const flat = rows.flatMap(({ rid, entries }) =>
      entries.map((entry) => ({ col: entry.col, rid, ...entryColumns(entry) })),
    );
    if (flat.length === 0) return step(async () => undefined);
    return this.#run(
      `INSERT INTO cells (sheet, col, rid, num, txt, bool, folded, shown)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::float8[], $5::text[], $6::bool[], $7::text[], $8::text[])`,
      [
        key,
        flat.map((e) => e.col),
        flat.map((e) => e.rid),
        flat.map((e) => e.num),
        flat.map((e) => e.txt),
        flat.map((e) => e.bool),
        flat.map((e) => e.folded),
        flat.map((e) => e.shown),
      ],
    );
  }

  *deleteEntries(key: number, rows: RowEntries[]): Work<void> {
    const flat = rows.flatMap(({ rid, entries }) =>
      entries.map((entry) => ({ col: entry.col, rid, ...entryColumns(entry) })),
    );
    const numbers = flat.filter((e) => e.num !== null);
    const texts = flat.filter((e) => e.txt !== null);
    // By value as well as row, so that each goes through the value's index.
    if (numbers.length > 0) {
      yield* this.#run(
        `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::float8[]) AS gone (col, rid, num)
         WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.num = gone.num AND cells.rid = gone.rid`,
        [key, numbers.map((e) => e.col), numbers.map((e) => e.rid), numbers.map((e) => e.num)],
      );
    }
    if (texts.length > 0) {
      yield* this.#run(
        `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::text[]) AS gone (col, rid, txt)
         WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.txt = gone.txt AND cells.rid = gone.rid`,
        [key, texts.map((e) => e.col), texts.map((e) => e.rid), texts.map((e) => e.txt)],
      );
    }
  }

  deleteAllEntries(key: number): Work<void> {
    return this.#run('DELETE FROM cells WHERE sheet = $1', [key]);
  }

  *matchingPositions(
    key: number,
    selection: Exclude<Selection, { ids: number[] }>,
  ): Work<number[]> {
    const p = new SqlParams((n) => `$${n}`);
    const where = selectionCondition(selection, key, postgresEntries, p);
    const rows = yield* this.#all<{ pos: number }>(
      `SELECT pos FROM rows WHERE sheet = ${p.add(key)}${where} ORDER BY pos`,
      p.values,
    );
    return rows.map((row) => row.pos);
  }

  // Blocks

  blockHeads(key: number): Work<BlockHead[]> {
    // octet_length is read from the stored value's header; length would fetch it to count
    // its characters.
    return this.#all(
      'SELECT block, count, octet_length(json) AS bytes FROM blocks WHERE sheet = $1 ORDER BY block',
      [key],
    );
  }

  insertBlocks(key: number, blocks: { block: number; count: number; json: string }[]): Work<void> {
    return this.#run(
      'INSERT INTO blocks (sheet, block, count, json) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[])',
      [key, blocks.map((b) => b.block), blocks.map((b) => b.count), blocks.map((b) => b.json)],
    );
  }

  appendToBlock(key: number, block: number, count: number, json: string): Work<void> {
    return this.#run(
      `UPDATE blocks SET count = count + $3, json = json || ',' || $4 WHERE sheet = $1 AND block = $2`,
      [key, block, count, json],
    );
  }

  *rejoinBlock(key: number, block: number, start: number, count: number): Work<number> {
    const rows = yield* this.#all<{ bytes: number }>(
      `UPDATE blocks SET count = $3, json = (
         SELECT string_agg(json, ',') FROM (
           SELECT json FROM rows WHERE sheet = $1 AND pos >= $4 AND pos < $4 + $3 ORDER BY pos
         ) AS ordered
       ) WHERE sheet = $1 AND block = $2 RETURNING octet_length(json) AS bytes`,
      [key, block, count, start],
    );
    return (rows[0] as { bytes: number }).bytes;
  }

  deleteBlocks(key: number, blocks: number[]): Work<void> {
    return this.#run('DELETE FROM blocks WHERE sheet = $1 AND block = ANY($2::int[])', [
      key,
      blocks,
    ]);
  }

  deleteAllBlocks(key: number): Work<void> {
    return this.#run('DELETE FROM blocks WHERE sheet = $1', [key]);
  }

  /**
   * Blocks arrive as rows of a few kilobytes each, which PostgreSQL sends far faster than one,
   * and as the bytes stored (see binary-copy.ts).
   */
  jsonOfBlocks(key: number, maxRows: number): Work<Buffer[] | null> {
    return step<Query, Buffer[] | null>(async (db) => {
      // A sheet of more rows than asked for answers nothing, without sending its blocks.
      const blocks = await copyFirstColumn(
        db,
        `SELECT blocks.json FROM sheets LEFT JOIN blocks ON blocks.sheet = sheets.key
         WHERE sheets.key = ${integer(key)} AND sheets.row_count <= ${integer(maxRows)}
         ORDER BY blocks.block`,
      );
      if (blocks.length === 0) return null;
      return blocks.filter((block): block is Buffer => block !== null);
    });
  }

  // Answers

  /**
   * A few rows come by a prepared statement; more come by COPY, as bytes (see binary-copy.ts),
   * which costs a plan each time but saves decoding and encoding their text: from about 200
   * rows on, and a streamed answer's every piece, it is the faster, and it leaves less garbage.
   */
  jsonBetween(
    key: number,
    from: number,
    to: number,
    withIds: boolean,
    expected: number,
  ): Work<Buffer> {
    if (expected < copiedRows)
      return this.#json('pos >= $2 AND pos < $3', [key, from, to], withIds);
    return step<Query, Buffer>(async (db) => {
      const [joined] = await copyFirstColumn(
        db,
        `SELECT string_agg(${rowJson(withIds)}, ',') FROM (
           SELECT pos, json FROM rows
           WHERE sheet = ${integer(key)} AND pos >= ${integer(from)} AND pos < ${integer(to)}
           ORDER BY pos
         ) AS ordered`,
      );
      return joined ?? Buffer.alloc(0);
    });
  }

  jsonAt(key: number, positions: number[], withIds: boolean): Work<Buffer> {
    return this.#json('pos = ANY($2::int[])', [key, positions], withIds);
  }

  *jsonMatching(
    key: number,
    selection: Exclude<Selection, { ids: number[] }>,
    withIds: boolean,
  ): Work<{ count: number; json: Buffer }> {
    const p = new SqlParams((n) => `$${n}`);
    const where = selectionCondition(selection, key, postgresEntries, p);
    // The few rows a filter finds are sorted into sheet order as they are joined.
    const rows = yield* this.#all<{ count: number; json: string }>(
      `SELECT count(*)::int AS count, coalesce(string_agg(${rowJson(withIds)}, ',' ORDER BY pos), '') AS json
       FROM rows WHERE sheet = ${p.add(key)}${where}`,
      p.values,
    );
    const found = rows[0] as { count: number; json: string };
    return { count: found.count, json: Buffer.from(found.json) };
  }

  /** Joined by PostgreSQL itself: one text for the whole answer, no per-row work here. */
  *#json(where: string, values: unknown[], withIds: boolean): Work<Buffer> {
    const rows = yield* this.#all<{ joined: string }>(
      // From a subquery in position order: an ORDER BY inside string_agg would sort again.
      `SELECT coalesce(string_agg(${rowJson(withIds)}, ','), '') AS joined FROM (SELECT pos, json FROM rows WHERE sheet = $1 AND ${where} ORDER BY pos) AS ordered`,
      values,
    );
    return Buffer.from((rows[0] as { joined: string }).joined);
  }

  // Events

  insertEvents(events: Omit<StoredEvent, 'seq'>[]): Work<void> {
    return this.#run(
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
  }

  // Webhooks

  insertWebhook(webhook: WebhookRecord): Work<void> {
    return this.#run(
      `INSERT INTO webhooks (id, sheet_id, url, events, secret, created_at, cursor, attempt, next_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8)`,
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

  *maxEventSeq(sheetId: string): Work<number> {
    const rows = yield* this.#all<{ seq: string }>(
      'SELECT coalesce(max(seq), 0) AS seq FROM events WHERE sheet_id = $1',
      [sheetId],
    );
    return Number(rows[0]?.seq ?? 0);
  }

  *webhookBacklog(): Work<number> {
    const rows = yield* this.#all<{ n: string }>(
      `SELECT count(*) AS n FROM webhooks JOIN events
         ON events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor
       WHERE webhooks.disabled_at IS NULL`,
      [],
    );
    return Number(rows[0]?.n ?? 0);
  }

  webhooksOf(sheetId: string): Work<WebhookRecord[]> {
    return this.#all(
      'SELECT * FROM webhooks WHERE sheet_id = $1 ORDER BY created_at, id',
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

  *deleteWebhook(sheetId: string, id: string): Work<boolean> {
    const rows = yield* this.#all(
      'DELETE FROM webhooks WHERE sheet_id = $1 AND id = $2 RETURNING id',
      [sheetId, id],
    );
    return rows.length > 0;
  }

  /** Rows another server holds are skipped, not waited for. */
  rotateWebhookSecret(
    sheetId: string,
    id: string,
    secret: string,
    previousUntil: string | null,
  ): Work<WebhookRecord | null> {
    if (id.includes('\u0000')) return step(async () => null);
    // Every right-hand side reads the row as it was: the previous secret is the one replaced.
    const previous = previousUntil === null ? 'NULL' : 'secret';
    return this.#one(
      `UPDATE webhooks SET previous_secret = ${previous}, previous_secret_expires_at = $1, secret = $2
       WHERE sheet_id = $3 AND id = $4 RETURNING *`,
      [previousUntil, secret, sheetId, id],
      toWebhook,
    );
  }

  claimWebhooks(now: Date, leaseUntil: Date, limit: number): Work<WebhookRecord[]> {
    return this.#all(
      `UPDATE webhooks SET leased_until = $1
       WHERE id IN (SELECT id FROM webhooks WHERE disabled_at IS NULL AND next_attempt_at <= $2
         AND (leased_until IS NULL OR leased_until < $2)
         AND EXISTS (SELECT 1 FROM events WHERE events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor) ORDER BY next_attempt_at LIMIT $3
         FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [leaseUntil, now, limit],
      toWebhook,
    );
  }

  *eventAfterSeq(sheetId: string, seq: number): Work<StoredEvent | null> {
    const rows = yield* this.#all<StoredEvent & { seq: string; createdAt: Date }>(
      `SELECT seq, id, sheet_id AS "sheetId", type, body, created_at AS "createdAt" FROM events
       WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT 1`,
      [sheetId, seq],
    );
    const row = rows[0];
    return row === undefined
      ? null
      : { ...row, seq: Number(row.seq), createdAt: row.createdAt.toISOString() };
  }

  saveWebhookProgress(webhookId: string, progress: WebhookProgress, release: boolean): Work<void> {
    return this.#run(
      `UPDATE webhooks SET cursor = $2, attempt = $3, first_attempt_at = $4, next_attempt_at = $5,
         disabled_at = $6, disabled_reason = $7,
         leased_until = CASE WHEN $8 THEN NULL ELSE leased_until END WHERE id = $1`,
      [
        webhookId,
        progress.cursor,
        progress.attempt,
        progress.firstAttemptAt,
        progress.nextAttemptAt,
        progress.disabledAt,
        progress.disabledReason,
        release,
      ],
    );
  }

  *insertDelivery(delivery: DeliveryRecord, keep: number): Work<void> {
    yield* this.#run(
      `INSERT INTO webhook_deliveries (webhook_id, event_id, type, attempt, status, error, next_retry_at, at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
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
      `DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND seq <= (
         SELECT seq FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
      [delivery.webhookId, keep],
    );
  }

  deliveriesOf(webhookId: string, limit: number): Work<DeliveryRecord[]> {
    return this.#all<DeliveryRow, DeliveryRecord>(
      `SELECT webhook_id, event_id, type, attempt, status, error, next_retry_at, at
       FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT $2`,
      [webhookId, limit],
      (row) => ({
        webhookId: row.webhook_id,
        eventId: row.event_id,
        type: row.type,
        attempt: row.attempt,
        status: row.status,
        error: row.error,
        nextRetryAt: row.next_retry_at?.toISOString() ?? null,
        at: row.at.toISOString(),
      }),
    );
  }

  *latestEventId(sheetId: string): Work<string | null> {
    const rows = yield* this.#all<{ id: string }>(
      'SELECT id FROM events WHERE sheet_id = $1 ORDER BY seq DESC LIMIT 1',
      [sheetId],
    );
    return rows[0]?.id ?? null;
  }

  *eventsAfter(sheetId: string, after: string | null, limit: number): Work<StoredEvent[]> {
    const rows = yield* this.#all<StoredEvent & { seq: string; createdAt: Date }>(
      `SELECT seq, id, sheet_id AS "sheetId", type, body, created_at AS "createdAt" FROM events
       WHERE sheet_id = $1 AND seq > coalesce((SELECT seq FROM events WHERE id = $2), 0) ORDER BY seq LIMIT $3`,
      [sheetId, after, limit],
    );
    return rows.map((row) => ({
      ...row,
      seq: Number(row.seq),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  *eventSeq(sheetId: string, id: string, notBefore: string): Work<number | null> {
    const rows = yield* this.#all<{ seq: string }>(
      'SELECT seq FROM events WHERE id = $1 AND sheet_id = $2 AND created_at >= $3',
      [id, sheetId, notBefore],
    );
    return rows[0] === undefined ? null : Number(rows[0].seq);
  }

  *eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: string,
  ): Work<StoredEvent[]> {
    const rows = yield* this.#all<StoredEvent & { seq: string; createdAt: Date }>(
      `SELECT seq, id, "sheetId", type, body, "createdAt" FROM (
         SELECT seq, id, sheet_id AS "sheetId", type, body, created_at AS "createdAt",
           sum(octet_length(body)) OVER (ORDER BY seq) - octet_length(body) AS before
         FROM events WHERE sheet_id = $1 AND seq > $2 AND created_at >= $3 ORDER BY seq LIMIT $4) AS page
       WHERE before < $5 ORDER BY seq`,
      [sheetId, seq, notBefore, page.limit, page.maxBytes],
    );
    return rows.map((row) => ({
      ...row,
      seq: Number(row.seq),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  *latestEventSeqs(sheetIds: string[]): Work<{ sheetId: string; seq: number }[]> {
    // One index probe per sheet, rather than a scan of all of a sheet's events.
    const rows = yield* this.#all<{ sheetId: string; seq: string | null }>(
      `SELECT id AS "sheetId", (SELECT max(seq) FROM events WHERE sheet_id = ids.id) AS seq
       FROM unnest($1::text[]) AS ids (id)`,
      [sheetIds],
    );
    return rows.flatMap((row) =>
      row.seq === null ? [] : [{ sheetId: row.sheetId, seq: Number(row.seq) }],
    );
  }

  *eventBytesAfter(sheetId: string, seq: number, limit: number): Work<number> {
    const rows = yield* this.#all<{ bytes: string }>(
      `SELECT coalesce(sum(octet_length(body)), 0) AS bytes FROM (
         SELECT body FROM events WHERE sheet_id = $1 AND seq > $2 ORDER BY seq LIMIT $3) AS due`,
      [sheetId, seq, limit],
    );
    return Number(rows[0]?.bytes ?? 0);
  }

  *pruneEvents(olderThan: string, heldSince: string, limit: number): Work<number> {
    // Servers sharing the database prune in turn: one that finds another at it leaves it be.
    const [lock] = yield* this.#all<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1) AS locked',
      [pruneLock],
    );
    if (lock?.locked !== true) return 0;
    const rows = yield* this.#all<{ n: string }>(
      `WITH gone AS (DELETE FROM events WHERE seq IN (
         SELECT seq FROM events WHERE created_at < $1 AND NOT (created_at >= $2 AND EXISTS (
           SELECT 1 FROM webhooks WHERE webhooks.sheet_id = events.sheet_id
             AND webhooks.disabled_at IS NULL AND webhooks.cursor < events.seq))
         LIMIT $3) RETURNING 1)
       SELECT count(*) AS n FROM gone`,
      [olderThan, heldSince, limit],
    );
    return Number(rows[0]?.n ?? 0);
  }

  *eventsExist(ids: string[]): Work<boolean> {
    const rows = yield* this.#all('SELECT 1 FROM events WHERE id = ANY($1::text[]) LIMIT 1', [ids]);
    return rows.length > 0;
  }

  // Idempotency keys

  idempotencyKey(id: KeyId, lock: boolean): Work<IdempotencyRecord | null> {
    return this.#one(
      `SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3${lock ? ' FOR UPDATE' : ''}`,
      [id.sheetId, id.scope, id.key],
      toIdempotencyKey,
    );
  }

  idempotencyKeysOfPush(sheetId: string, pushId: string): Work<IdempotencyRecord[]> {
    return this.#all(
      'SELECT * FROM idempotency_keys WHERE sheet_id = $1 AND push = $2 FOR UPDATE',
      [sheetId, pushId],
      toIdempotencyKey,
    );
  }

  /** A key another server inserts at once waits for its transaction, then is left alone. */
  *insertIdempotencyKey(record: IdempotencyRecord): Work<boolean> {
    const rows = yield* this.#all(
      `INSERT INTO idempotency_keys (sheet_id, scope, key, ${keyColumns})
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT DO NOTHING RETURNING key`,
      [record.sheetId, record.scope, record.key, ...keyFields(record)],
    );
    return rows.length === 1;
  }

  *updateIdempotencyKey(record: IdempotencyRecord, token: string): Work<boolean> {
    const rows = yield* this.#all(
      `UPDATE idempotency_keys SET (${keyColumns}) = ($1, $2, $3, $4, $5, $6, $7, $8)
       WHERE sheet_id = $9 AND scope = $10 AND key = $11 AND token = $12 RETURNING key`,
      [...keyFields(record), record.sheetId, record.scope, record.key, token],
    );
    return rows.length === 1;
  }

  *deleteIdempotencyKey(id: KeyId, token: string): Work<boolean> {
    const rows = yield* this.#all(
      'DELETE FROM idempotency_keys WHERE sheet_id = $1 AND scope = $2 AND key = $3 AND token = $4 RETURNING key',
      [id.sheetId, id.scope, id.key, token],
    );
    return rows.length === 1;
  }

  *pruneIdempotencyKeys(before: string): Work<number> {
    const rows = yield* this.#all(
      'DELETE FROM idempotency_keys WHERE expires_at < $1 RETURNING key',
      [before],
    );
    return rows.length;
  }

  // Flags, keys and rate limits

  *holdWatches(owner: string, sheetIds: string[], now: Date, leaseUntil: Date): Work<string[]> {
    yield* this.#run('DELETE FROM watches WHERE owner = $1 AND NOT (sheet_id = ANY($2))', [
      owner,
      sheetIds,
    ]);
    return yield* this.#all(
      `INSERT INTO watches (sheet_id, owner, lease_until)
       SELECT id, $1, $2 FROM sheets WHERE id = ANY($3)
       ON CONFLICT (sheet_id) DO UPDATE SET owner = excluded.owner, lease_until = excluded.lease_until
       WHERE watches.owner = excluded.owner OR watches.lease_until < $4
       RETURNING sheet_id`,
      [owner, leaseUntil, sheetIds, now],
      (row: { sheet_id: string }) => row.sheet_id,
    );
  }

  *claimFlag(name: string): Work<boolean> {
    const rows = yield* this.#all(
      'INSERT INTO flags (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING name',
      [name],
    );
    return rows.length === 1;
  }

  releaseFlag(name: string): Work<void> {
    return this.#run('DELETE FROM flags WHERE name = $1', [name]);
  }

  insertKey(key: ApiKeyRecord): Work<void> {
    return this.#run(
      'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
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

  *markKeyRotated(
    sheetId: string,
    id: string,
    successor: string,
    expiresAt: string,
  ): Work<boolean> {
    // A rotation that waited on another's row lock finds rotated_to set, and changes nothing.
    const rows = yield* this.#all(
      `UPDATE api_keys SET rotated_to = $1, expires_at = least(expires_at, $2::timestamptz)
       WHERE sheet_id = $3 AND id = $4 AND rotated_to IS NULL RETURNING id`,
      [successor, expiresAt, sheetId, id],
    );
    return rows.length === 1;
  }

  keysOf(sheetId: string): Work<ApiKeyRecord[]> {
    return this.#all(
      'SELECT * FROM api_keys WHERE sheet_id = $1 ORDER BY created_at, id',
      [sheetId],
      toKey,
    );
  }

  keyById(id: string): Work<ApiKeyRecord | null> {
    if (id.includes('\u0000')) return step(async () => null);
    return this.#one('SELECT * FROM api_keys WHERE id = $1', [id], toKey);
  }

  *deleteKey(sheetId: string, id: string): Work<boolean> {
    if (id.includes('\u0000')) return false;
    const rows = yield* this.#all(
      'DELETE FROM api_keys WHERE sheet_id = $1 AND id = $2 RETURNING id',
      [sheetId, id],
    );
    return rows.length === 1;
  }

  /** A fixed window per key, counted in one statement so that servers never race. */
  async countHit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    return this.#unit(async (client) => {
      const { rows } = await client.query<{ count: number; reset_in_ms: number }>(
        `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
         ON CONFLICT (key) DO UPDATE SET
           count = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN 1 ELSE r.count + 1 END,
           window_start = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN now() ELSE r.window_start END
         RETURNING count, extract(epoch FROM r.window_start + $2 * interval '1 millisecond' - now())::float8 * 1000 AS reset_in_ms`,
        [key, windowMs],
      );
      const row = rows[0] as { count: number; reset_in_ms: number };
      return { count: row.count, resetInMs: Math.max(0, Math.ceil(row.reset_in_ms)) };
    });
  }

  // Units and statements

  /** Runs a unit in a transaction; a connection that failed is closed rather than reused. */
  async #transaction<T>(
    client: Db,
    begin: string,
    work: () => Work<T>,
    writes: boolean,
  ): Promise<T> {
    let committing = false;
    try {
      await client.query(begin);
      const result = await runAsync(work(), client);
      committing = true;
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      if (isUnreachable(error)) {
        client.release(true);
        // Only a write's commit can have landed unseen; a read's changed nothing either way.
        throw committing && writes ? new CommitOutcomeUnknown(String(error)) : storeUnavailable();
      }
      await client.query('ROLLBACK').then(
        () => client.release(),
        () => client.release(true),
      );
      throw error;
    }
  }

  async #unit<T>(work: (client: Db) => Promise<T>): Promise<T> {
    const client = await this.#connect(this.#pool);
    try {
      const result = await work(client);
      client.release();
      return result;
    } catch (error) {
      client.release(isUnreachable(error) ? true : undefined);
      throw unreachableAs(error);
    }
  }

  async #connect(pool: Pool): Promise<PoolClient> {
    try {
      return await pool.connect();
    } catch (error) {
      throw unreachableAs(error);
    }
  }

  #run(text: string, values: unknown[]): Work<void> {
    return step<Query, void>(async (db) => {
      await db.query({ text, values, name: statementName(text) });
    });
  }

  #all<R, T = R>(text: string, values: unknown[], map?: (row: R) => T): Work<T[]> {
    return step<Query, T[]>(async (db) => {
      const { rows } = await db.query({ text, values, name: statementName(text) });
      return map === undefined ? (rows as T[]) : (rows as R[]).map(map);
    });
  }

  *#one<R, T>(text: string, values: unknown[], map: (row: R) => T): Work<T | null> {
    const rows = yield* this.#all(text, values, map);
    return rows[0] ?? null;
  }
}

/**
 * Statements that each connection prepares once and then runs by name, skipping their parsing
 * and, once PostgreSQL settles on a generic plan, their planning. Statements are told apart by
 * their text, which holds no values; only the first `preparedStatements` texts are prepared, so
 * that filters of ever new shapes cannot fill a connection with plans. (Run once, a statement
 * costs the same prepared or not.)
 */
const preparedStatements = 250;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < preparedStatements) {
    name = `s${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

/** A stored row's JSON, with its position first when `_with_id=true` asks for it. */
function rowJson(withIds: boolean): string {
  return withIds
    ? `CASE json WHEN '{}' THEN '{"_id":' || pos || '}' ELSE '{"_id":' || pos || ',' || substr(json, 2) END`
    : 'json';
}

function unreachableAs(error: unknown): unknown {
  return isUnreachable(error) ? storeUnavailable() : error;
}

function columnsOf(rows: StoredRow[]): [number[], number[], string[], (string | null)[]] {
  return [
    rows.map((r) => r.pos),
    rows.map((r) => r.rid),
    rows.map((r) => r.json),
    rows.map((r) => r.dates),
  ];
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
    sheet.indexed,
    sheet.pushing,
    sheet.updatedAt,
  ];
}

function toSheet(row: SheetRow): SheetRecord {
  return {
    key: row.key,
    id: row.id,
    name: row.name,
    columns: row.columns,
    rowCount: row.row_count,
    source: row.source,
    settings: row.settings,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    version: Number(row.version),
    nextRid: Number(row.next_rid),
    indexed: row.indexed,
    pushing: row.pushing,
  };
}

interface KeyRow {
  id: string;
  sheet_id: string;
  name: string;
  scopes: string[];
  hash: string;
  created_at: Date;
  expires_at: Date | null;
  rotated_to: string | null;
}

interface WebhookRow {
  id: string;
  sheet_id: string;
  url: string;
  events: string[];
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  cursor: string;
  attempt: number;
  first_attempt_at: Date | null;
  next_attempt_at: Date;
  disabled_at: Date | null;
  disabled_reason: string | null;
}

interface DeliveryRow {
  webhook_id: string;
  event_id: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  next_retry_at: Date | null;
  at: Date;
}

function toWebhook(row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    url: row.url,
    events: row.events,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    cursor: Number(row.cursor),
    attempt: row.attempt,
    firstAttemptAt: row.first_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.next_attempt_at.toISOString(),
    disabledAt: row.disabled_at?.toISOString() ?? null,
    disabledReason: row.disabled_reason,
  };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    name: row.name,
    scopes: row.scopes,
    hash: row.hash,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at?.toISOString() ?? null,
    rotatedTo: row.rotated_to,
  };
}

interface IdempotencyRow {
  sheet_id: string;
  scope: string;
  key: string;
  fingerprint: string;
  state: IdempotencyRecord['state'];
  token: string;
  lease_until: Date;
  push: string | null;
  outcome: string | null;
  created_at: Date;
  expires_at: Date;
}

function toIdempotencyKey(row: IdempotencyRow): IdempotencyRecord {
  return {
    sheetId: row.sheet_id,
    scope: row.scope,
    key: row.key,
    fingerprint: row.fingerprint,
    state: row.state,
    token: row.token,
    leaseUntil: row.lease_until.toISOString(),
    push: row.push,
    outcome: row.outcome,
    createdAt: row.created_at.toISOString(),
    expiresAt: row.expires_at.toISOString(),
  };
}

/** Rows from which `jsonBetween` reads by COPY. */
const copiedRows = 250;

/** A number to write into a statement's text, checked to be the integer it claims to be. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
}

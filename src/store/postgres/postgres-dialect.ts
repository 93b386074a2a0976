import pg, { type Pool, type PoolClient } from 'pg';
import type { RowEntries } from '../cell-index.ts';
import { CommitOutcomeUnknown, storeUnavailable, type Dialect, type Snapshot } from '../dialect.ts';
import { type SheetRecord, type StoredEvent } from '../store-records.ts';
import { credentialSql } from '../sql/credential-sql.ts';
import { outboxSql, type OutboxStatements } from '../sql/outbox-sql.ts';
import { pushSql } from '../sql/push-tag-sql.ts';
import { webhookSql } from '../sql/webhook-sql.ts';
import { apiKeySql } from '../sql/key-sql.ts';
import { idempotencySql } from '../sql/idempotency-sql.ts';
import { leaseSql } from '../sql/lease-sql.ts';
import type { StoredRow } from '../row-json.ts';
import { rowJson } from '../sql/row-sql.ts';
import { toSheet, type SheetRow } from '../sql/sheet-sql.ts';
import { SqlDialect } from '../sql/sql-dialect.ts';
import { nameable } from '../sql/sql.ts';
import type { ConnectionCounts, HeldLock } from '../store-records.ts';
import { runAsync, driverCall, type DbWork } from '../db-work.ts';
import { copyFirstColumn } from './binary-copy.ts';
import { entryColumns } from './postgres-cells.ts';
import { isUnreachable, unreachableAs } from './postgres-errors.ts';
import { countHit, holdSheetLock } from './postgres-locks.ts';
import { migrate } from './postgres-migrations.ts';
import { postgresSql } from './postgres-sql.ts';

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

/**
 * The shared store: many servers on one PostgreSQL database. Nothing about a sheet is kept
 * between requests, so a read on any server sees every write acknowledged on any other; a write
 * locks its sheet's row, which keeps positions right with writes arriving through every server.
 * Locks held across units (a provider's push) sit on connections of their own, outside the
 * pool that units draw from, so that no number of them can starve the units they wait for.
 * Its statements are the shared ones (see ../sql/), but for arrays sent whole (`unnest`), bulk
 * reads by binary COPY, advisory locks and the sheet lookup that keeps what it has seen.
 */
export class PostgresDialect extends SqlDialect implements Dialect {
  readonly ownsStore = false;
  protected readonly sql = postgresSql;
  readonly credentials = credentialSql(postgresSql);
  readonly outbox = postgresOutbox();
  readonly pushes = pushSql(postgresSql);
  readonly webhooks = webhookSql(postgresSql);
  readonly apiKeys = apiKeySql(postgresSql);
  readonly idempotency = idempotencySql(postgresSql);
  readonly leases = leaseSql(postgresSql);
  /** Imports that have not finished within an hour are taken to have crashed. */
  protected readonly abandonedImport = ` AND created_at < now() - interval '1 hour'`;
  readonly #pool: Pool;
  readonly #locks: Pool;
  /** Sheets as last looked up, with a digest of the row they were read from (see sheetsById). */
  readonly #seen = new Map<string, { digest: string; sheet: SheetRecord }>();

  private constructor(pool: Pool, locks: Pool) {
    super();
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
  async read<T>(work: () => DbWork<T>): Promise<T> {
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

  async write<T>(work: () => DbWork<T>): Promise<T> {
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

  /** A session lock on the sheet, on a connection of its own (see postgres-locks.ts). */
  async withSheetLock<T>(sheetId: string, work: (lock: HeldLock) => Promise<T>): Promise<T> {
    return holdSheetLock(await this.#connect(this.#locks), sheetId, work);
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

  // Statements PostgreSQL runs its own way

  /**
   * Each sheet comes with a digest of its row; a sheet read before whose digest is unchanged is
   * answered with the record kept from then, so the common lookup (a sheet nobody changed) sends
   * and parses a few bytes per sheet instead of its whole row.
   */
  override *sheetsById(ids: string[]): DbWork<SheetRecord[]> {
    const asked = ids.filter(nameable);
    const known = asked.map((id) => this.#seen.get(id));
    const rows = yield* this.all<{ i: number; digest: string; record: string | null }>(
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
          : toSheet(this.flavor, JSON.parse(record as string) as SheetRow);
      this.#seen.delete(sheet.id);
      this.#seen.set(sheet.id, { digest, sheet });
      if (this.#seen.size > seenSheets) this.#seen.delete(this.#seen.keys().next().value as string);
      return sheet;
    });
  }

  *newSheetKey(): DbWork<number> {
    const row = yield* this.one<{ key: string }>(
      "SELECT nextval(pg_get_serial_sequence('sheets', 'key')) AS key",
      [],
    );
    return Number(row?.key);
  }

  insertRows(key: number, rows: StoredRow[]): DbWork<void> {
    return this.run(
      `INSERT INTO rows (sheet, pos, rid, json, dates)
       SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[], $5::text[])`,
      [key, ...columnsOf(rows)],
    );
  }

  updateRows(key: number, rows: StoredRow[]): DbWork<void> {
    return this.run(
      `UPDATE rows SET json = changed.json, dates = changed.dates
       FROM unnest($2::int[], $3::int[], $4::text[], $5::text[]) AS changed (pos, rid, json, dates)
       WHERE rows.sheet = $1 AND rows.pos = changed.pos AND rows.rid = changed.rid`,
      [key, ...columnsOf(rows)],
    );
  }

  *placeRows(key: number, rows: StoredRow[]): DbWork<void> {
    if (rows.length === 0) return;
    yield* this.run(
      `UPDATE rows SET pos = placed.pos
       FROM unnest($2::int[], $3::int[]) AS placed (rid, pos)
       WHERE rows.sheet = $1 AND rows.rid = placed.rid`,
      [key, rows.map((row) => row.rid), rows.map((row) => row.pos)],
    );
  }

  *insertEntries(key: number, rows: RowEntries[]): DbWork<void> {
    const flat = flatEntries(rows);
    if (flat.length === 0) return;
    yield* this.run(
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

  *deleteEntries(key: number, rows: RowEntries[]): DbWork<void> {
    const flat = flatEntries(rows);
    const numbers = flat.filter((e) => e.num !== null);
    const texts = flat.filter((e) => e.txt !== null);
    // By value as well as row, so that each goes through the value's index.
    if (numbers.length > 0) {
      yield* this.run(
        `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::float8[]) AS gone (col, rid, num)
         WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.num = gone.num AND cells.rid = gone.rid`,
        [key, numbers.map((e) => e.col), numbers.map((e) => e.rid), numbers.map((e) => e.num)],
      );
    }
    if (texts.length > 0) {
      yield* this.run(
        `DELETE FROM cells USING unnest($2::int[], $3::int[], $4::text[]) AS gone (col, rid, txt)
         WHERE cells.sheet = $1 AND cells.col = gone.col AND cells.txt = gone.txt AND cells.rid = gone.rid`,
        [key, texts.map((e) => e.col), texts.map((e) => e.rid), texts.map((e) => e.txt)],
      );
    }
  }

  insertBlocks(
    key: number,
    blocks: { block: number; count: number; json: string }[],
  ): DbWork<void> {
    return this.run(
      'INSERT INTO blocks (sheet, block, count, json) SELECT $1, * FROM unnest($2::int[], $3::int[], $4::text[])',
      [key, blocks.map((b) => b.block), blocks.map((b) => b.count), blocks.map((b) => b.json)],
    );
  }

  /** Servers sharing the database prune in turn: one that finds another at it leaves it be. */
  // Answers

  /**
   * Blocks arrive as rows of a few kilobytes each, which PostgreSQL sends far faster than one,
   * and as the bytes stored (see binary-copy.ts).
   */
  jsonOfBlocks(key: number, maxRows: number): DbWork<Buffer[] | null> {
    return driverCall<Query, Buffer[] | null>(async (db) => {
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
  ): DbWork<Buffer> {
    if (expected < copiedRows)
      return this.#json('pos >= $2 AND pos < $3', [key, from, to], withIds);
    return driverCall<Query, Buffer>(async (db) => {
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

  jsonAt(key: number, positions: number[], withIds: boolean): DbWork<Buffer> {
    return this.#json('pos = ANY($2::int[])', [key, positions], withIds);
  }

  /** Joined by PostgreSQL itself: one text for the whole answer, no per-row work here. */
  *#json(where: string, values: unknown[], withIds: boolean): DbWork<Buffer> {
    const row = yield* this.one<{ joined: string }>(
      // From a subquery in position order: an ORDER BY inside string_agg would sort again.
      `SELECT coalesce(string_agg(${rowJson(withIds)}, ','), '') AS joined FROM (SELECT pos, json FROM rows WHERE sheet = $1 AND ${where} ORDER BY pos) AS ordered`,
      values,
    );
    return Buffer.from((row as { joined: string }).joined);
  }

  /** A fixed window per key, counted in one statement so that servers never race. */
  async countHit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    return this.#unit((client) => countHit(client, key, windowMs));
  }

  // Units and statements

  /** Runs a unit in a transaction; a connection that failed is closed rather than reused. */
  async #transaction<T>(
    client: Db,
    begin: string,
    work: () => DbWork<T>,
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
}

function columnsOf(rows: StoredRow[]): [number[], number[], string[], (string | null)[]] {
  return [
    rows.map((r) => r.pos),
    rows.map((r) => r.rid),
    rows.map((r) => r.json),
    rows.map((r) => r.dates),
  ];
}

function flatEntries(rows: RowEntries[]) {
  return rows.flatMap(({ rid, entries }) =>
    entries.map((entry) => ({ col: entry.col, rid, ...entryColumns(entry) })),
  );
}

/** Rows from which `jsonBetween` reads by COPY. */
const copiedRows = 250;

/** A number to write into a statement's text, checked to be the integer it claims to be. */
function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`Not an integer: ${value}`);
  return String(value);
}

/**
 * The outbox's shared statements, but events inserted as arrays sent whole (`unnest`), and
 * pruned by one server at a time: the others pass while one holds the advisory lock.
 */
function postgresOutbox(): OutboxStatements {
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

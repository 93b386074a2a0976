import Database from 'better-sqlite3';
import { lockNeverLost, storeUnavailable, type Dialect, type Snapshot } from '../dialect.ts';
import { credentialSql } from '../sql/credential-sql.ts';
import { outboxSql, type OutboxStatements } from '../sql/outbox-sql.ts';
import { pushSql, type PushStatements } from '../sql/push-tag-sql.ts';
import { webhookSql, type WebhookStatements } from '../sql/webhook-sql.ts';
import { apiKeySql, type ApiKeyStatements } from '../sql/key-sql.ts';
import { idempotencySql, type IdempotencyStatements } from '../sql/idempotency-sql.ts';
import { leaseSql, type LeaseStatements } from '../sql/lease-sql.ts';
import type { CredentialStatements } from '../store-records.ts';
import { bumpLockEpoch, type SheetStatements } from '../sql/sheet-sql.ts';
import type { RowStatements } from '../sql/row-sql.ts';
import type { BlockStatements } from '../sql/block-sql.ts';
import type { HeldLock } from '../store-records.ts';
import { runSync, type DbWork } from '../db-work.ts';
import { migrate } from './sqlite-migrations.ts';
import { SqliteSql } from './sqlite-sql.ts';
import { eventsExistFromNewest, positionByTime, pruneEventsByPosition } from './sqlite-outbox.ts';
import { sqliteBlocks, sqliteRows, sqliteSheets } from './sqlite-rows.ts';
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

/**
 * The embedded store: one SQLite file in WAL mode, owned by one process. A unit of work runs
 * synchronously inside one transaction, so nothing interleaves with it; reads sent in pieces use
 * a second, read-only connection whose transaction keeps their snapshot. Its statements are the
 * shared ones (see ../sql/), but for loops of one prepared statement where PostgreSQL sends arrays
 * (see sqlite-rows.ts).
 */
export class SqliteDialect implements Dialect {
  readonly ownsStore = true;
  readonly #db: Db;
  readonly #path: string;
  /**
   * Runs a unit of work in one transaction: made once, as better-sqlite3 builds a transaction
   * function's wrappers each time `transaction()` is called, and a write runs one per commit.
   */
  readonly #inTransaction: Database.Transaction<(work: () => DbWork<unknown>) => unknown>;
  readonly sheets: SheetStatements;
  readonly rows: RowStatements;
  readonly blocks: BlockStatements;
  readonly credentials: CredentialStatements;
  readonly outbox: OutboxStatements;
  readonly pushes: PushStatements;
  readonly webhooks: WebhookStatements;
  readonly apiKeys: ApiKeyStatements;
  readonly idempotency: IdempotencyStatements;
  readonly leases: LeaseStatements;

  constructor(options: SqliteOptions) {
    if (options.path !== ':memory:') {
      privateDirectory(options.path);
      privateDatabaseFile(options.path);
    }
    this.#path = options.path;
    this.#db = new Database(options.path);
    this.#inTransaction = this.#db.transaction((work: () => DbWork<unknown>) =>
      runSync(work(), this.#db),
    );
    const sql = new SqliteSql(this.#db);
    this.sheets = sqliteSheets(sql);
    this.rows = sqliteRows(sql);
    this.blocks = sqliteBlocks(sql);
    this.credentials = credentialSql(sql);
    this.outbox = {
      ...outboxSql(sql, positionByTime(sql)),
      // One prepared statement run for each event.
      insertEvents: (events) =>
        sql.each(
          'INSERT INTO events (id, sheet_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)',
          events,
          (event) => [event.id, event.sheetId, event.type, event.body, event.createdAt],
        ),
      pruneEvents: pruneEventsByPosition(sql),
      eventsExist: (ids) => eventsExistFromNewest(sql, ids),
    };
    this.pushes = pushSql(sql);
    this.webhooks = webhookSql(sql);
    this.apiKeys = apiKeySql(sql);
    this.idempotency = idempotencySql(sql);
    this.leases = leaseSql(sql);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    // Reads map the file instead of copying it page by page, which a large read does a lot of.
    this.#db.pragma(`mmap_size = ${mmapBytes}`);
    migrate(this.#db, this, sql, options.indexThreshold);
    runSync(this.sheets.dropAbandonedImports(), this.#db);
  }

  async read<T>(work: () => DbWork<T>): Promise<T> {
    return unavailableAs(() => runSync(work(), this.#db));
  }

  async write<T>(work: () => DbWork<T>): Promise<T> {
    return unavailableAs(() => this.#inTransaction.immediate(work) as T);
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

  /**
   * One process owns the file, and the write queue already runs a sheet's work in turn: the lock
   * is never lost, but its epoch moves as on PostgreSQL, so that both stores fence alike.
   */
  async withSheetLock<T>(sheetId: string, work: (lock: HeldLock) => Promise<T>): Promise<T> {
    const row = this.#db.prepare(bumpLockEpoch.replace('$1', '?')).get(sheetId) as
      { lock_epoch: number } | undefined;
    return work(lockNeverLost(row?.lock_epoch ?? 0));
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
}

/** Up to this many bytes of the file are mapped into memory for reading. */
const mmapBytes = 1 << 30;

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

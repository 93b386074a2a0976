import Database from 'better-sqlite3';
import type { RowEntries } from '../cell-index.ts';
import { lockNeverLost, storeUnavailable, type Dialect, type Snapshot } from '../dialect.ts';
import { credentialSql } from '../sql/credential-sql.ts';
import { outboxSql, type OutboxStatements } from '../sql/outbox-sql.ts';
import { pushSql, type PushStatements } from '../sql/push-tag-sql.ts';
import { webhookSql, type WebhookStatements } from '../sql/webhook-sql.ts';
import { apiKeySql, type ApiKeyStatements } from '../sql/key-sql.ts';
import { idempotencySql, type IdempotencyStatements } from '../sql/idempotency-sql.ts';
import { leaseSql, type LeaseStatements } from '../sql/lease-sql.ts';
import type { CredentialStatements } from '../store-records.ts';
import type { StoredRow } from '../row-json.ts';
import { rowJson } from '../sql/row-sql.ts';
import { bumpLockEpoch } from '../sql/sheet-sql.ts';
import { SqlDialect } from '../sql/sql-dialect.ts';
import type { HeldLock } from '../store-records.ts';
import { runSync, driverCall, type DbWork } from '../db-work.ts';
import { entryValues } from './sqlite-cells.ts';
import { migrate } from './sqlite-migrations.ts';
import { SqliteSql } from './sqlite-sql.ts';
import { pruneEventsByPosition } from './sqlite-outbox.ts';
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
 * shared ones (see ../sql/), but for loops of one prepared statement where PostgreSQL sends arrays.
 */
export class SqliteDialect extends SqlDialect implements Dialect {
  readonly ownsStore = true;
  readonly #db: Db;
  readonly #path: string;
  protected readonly sql: SqliteSql;
  readonly credentials: CredentialStatements;
  readonly outbox: OutboxStatements;
  readonly pushes: PushStatements;
  readonly webhooks: WebhookStatements;
  readonly apiKeys: ApiKeyStatements;
  readonly idempotency: IdempotencyStatements;
  readonly leases: LeaseStatements;
  /** Any import still marked as running was cut off: this process is the file's only writer. */
  protected readonly abandonedImport = '';

  constructor(options: SqliteOptions) {
    super();
    if (options.path !== ':memory:') {
      privateDirectory(options.path);
      privateDatabaseFile(options.path);
    }
    this.#path = options.path;
    this.#db = new Database(options.path);
    this.sql = new SqliteSql(this.#db);
    this.credentials = credentialSql(this.sql);
    this.outbox = {
      ...outboxSql(this.sql),
      insertEvents: (events) =>
        this.#each(
          'INSERT INTO events (id, sheet_id, type, body, created_at) VALUES (?, ?, ?, ?, ?)',
          events,
          (event) => [event.id, event.sheetId, event.type, event.body, event.createdAt],
        ),
      pruneEvents: pruneEventsByPosition(this.sql),
    };
    this.pushes = pushSql(this.sql);
    this.webhooks = webhookSql(this.sql);
    this.apiKeys = apiKeySql(this.sql);
    this.idempotency = idempotencySql(this.sql);
    this.leases = leaseSql(this.sql);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    // Reads map the file instead of copying it page by page, which a large read does a lot of.
    this.#db.pragma(`mmap_size = ${mmapBytes}`);
    migrate(this.#db, this, this.sql, options.indexThreshold);
    runSync(this.dropAbandonedImports(), this.#db);
  }

  async read<T>(work: () => DbWork<T>): Promise<T> {
    return unavailableAs(() => runSync(work(), this.#db));
  }

  async write<T>(work: () => DbWork<T>): Promise<T> {
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

  /** What SQLite would choose for the key: writers are serialised, so no one else takes it. */
  *newSheetKey(): DbWork<number> {
    const [row] = yield* this.sql.rows<{ key: number }>(
      'SELECT coalesce(max(key), 0) + 1 AS key FROM sheets',
      [],
    );
    return (row as { key: number }).key;
  }

  // Rows, entries, blocks and events (see the outbox above): one prepared statement run for each.

  insertRows(key: number, rows: StoredRow[]): DbWork<void> {
    return this.#each(
      'INSERT INTO rows (sheet, pos, rid, json, dates) VALUES (?, ?, ?, ?, ?)',
      rows,
      (row) => [key, row.pos, row.rid, row.json, row.dates],
    );
  }

  updateRows(key: number, rows: StoredRow[]): DbWork<void> {
    return this.#each(
      'UPDATE rows SET json = ?, dates = ? WHERE sheet = ? AND pos = ? AND rid = ?',
      rows,
      (row) => [row.json, row.dates, key, row.pos, row.rid],
    );
  }

  placeRows(key: number, rows: StoredRow[]): DbWork<void> {
    return this.#each('UPDATE rows SET pos = ? WHERE sheet = ? AND rid = ?', rows, (row) => [
      row.pos,
      key,
      row.rid,
    ]);
  }

  insertEntries(key: number, rows: RowEntries[]): DbWork<void> {
    return this.#each(
      'INSERT INTO cells (sheet, col, value, rid, folded, shown) VALUES (?, ?, ?, ?, ?, ?)',
      entriesOf(rows),
      ({ rid, entry }) => {
        const [value, folded, shown] = entryValues(entry);
        return [key, entry.col, value, rid, folded, shown];
      },
    );
  }

  deleteEntries(key: number, rows: RowEntries[]): DbWork<void> {
    return this.#each(
      'DELETE FROM cells WHERE sheet = ? AND col = ? AND value = ? AND rid = ?',
      entriesOf(rows),
      ({ rid, entry }) => [key, entry.col, entryValues(entry)[0], rid],
    );
  }

  insertBlocks(
    key: number,
    blocks: { block: number; count: number; json: string }[],
  ): DbWork<void> {
    return this.#each(
      'INSERT INTO blocks (sheet, block, count, json) VALUES (?, ?, ?, ?)',
      blocks,
      (b) => [key, b.block, b.count, b.json],
    );
  }

  // Answers: joined by SQLite itself and handed over as bytes, with no per-row work here.

  /** The blocks come as bytes, joined only as they are sent: cheaper than joining them in SQL. */
  jsonOfBlocks(key: number, maxRows: number): DbWork<Buffer[] | null> {
    return driverCall((db: Db) => {
      const rowCount = this.sql
        .statement(db, 'SELECT row_count FROM sheets WHERE key = ?')
        .pluck()
        .get(key) as number;
      if (rowCount > maxRows) return null;
      return this.sql
        .statement(db, 'SELECT CAST(json AS BLOB) FROM blocks WHERE sheet = ?')
        .pluck()
        .all(key) as Buffer[];
    });
  }

  jsonBetween(key: number, from: number, to: number, withIds: boolean): DbWork<Buffer> {
    return this.#json(`pos >= ? AND pos < ?`, [key, from, to], withIds);
  }

  jsonAt(key: number, positions: number[], withIds: boolean): DbWork<Buffer> {
    return this.#json(
      `pos IN (SELECT value FROM json_each(?))`,
      [key, JSON.stringify(positions)],
      withIds,
    );
  }

  /**
   * The primary key range scan yields rows in position order, which is the order joined; an
   * ORDER BY inside group_concat would sort them again, at five times the cost.
   */
  #json(where: string, params: unknown[], withIds: boolean): DbWork<Buffer> {
    return driverCall((db: Db) => {
      const joined = this.sql
        .statement(
          db,
          `SELECT CAST(group_concat(${rowJson(withIds)}, ',') AS BLOB) FROM rows WHERE sheet = ? AND ${where}`,
        )
        .pluck()
        .get(...params) as Buffer | null;
      return joined ?? Buffer.alloc(0);
    });
  }

  /** Runs one prepared statement once for each item, with the values `bind` gives it. */
  #each<T>(text: string, items: Iterable<T>, bind: (item: T) => unknown[]): DbWork<void> {
    return driverCall((db: Db) => {
      const statement = this.sql.statement(db, text);
      for (const item of items) statement.run(...bind(item));
    });
  }
}

/** Up to this many bytes of the file are mapped into memory for reading. */
const mmapBytes = 1 << 30;

function* entriesOf(rows: RowEntries[]) {
  for (const { rid, entries } of rows) for (const entry of entries) yield { rid, entry };
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

import pg, { type Pool, type PoolClient } from 'pg';
import { CommitOutcomeUnknown, storeUnavailable, type Dialect, type Snapshot } from '../dialect.ts';
import { credentialSql } from '../sql/credential-sql.ts';
import { pushSql } from '../sql/push-tag-sql.ts';
import { webhookSql } from '../sql/webhook-sql.ts';
import { apiKeySql } from '../sql/key-sql.ts';
import { idempotencySql } from '../sql/idempotency-sql.ts';
import { leaseSql } from '../sql/lease-sql.ts';
import type { ConnectionCounts, HeldLock } from '../store-records.ts';
import { runAsync, type DbWork } from '../db-work.ts';
import { isUnreachable, unreachableAs } from './postgres-errors.ts';
import { countHit, holdSheetLock } from './postgres-locks.ts';
import { migrate } from './postgres-migrations.ts';
import { postgresSql } from './postgres-sql.ts';
import { postgresOutbox } from './postgres-outbox.ts';
import { postgresBlocks, postgresRows } from './postgres-rows.ts';
import { postgresSheets } from './postgres-sheets.ts';

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
type Query = (db: Db) => Promise<unknown>;

/**
 * The shared store: many servers on one PostgreSQL database. Nothing about a sheet is kept
 * between requests, so a read on any server sees every write acknowledged on any other; a write
 * locks its sheet's row, which keeps positions right with writes arriving through every server.
 * Locks held across units (a provider's push) sit on connections of their own, outside the
 * pool that units draw from, so that no number of them can starve the units they wait for.
 * Its statements are the shared ones (see ../sql/), but for arrays sent whole (`unnest`), bulk
 * reads by binary COPY, advisory locks and the sheet lookup that keeps what it has seen (see
 * postgres-sheets.ts, postgres-rows.ts and postgres-outbox.ts).
 */
export class PostgresDialect implements Dialect {
  readonly ownsStore = false;
  readonly sheets = postgresSheets();
  readonly rows = postgresRows();
  readonly blocks = postgresBlocks();
  readonly credentials = credentialSql(postgresSql);
  readonly outbox = postgresOutbox();
  readonly pushes = pushSql(postgresSql);
  readonly webhooks = webhookSql(postgresSql);
  readonly apiKeys = apiKeySql(postgresSql);
  readonly idempotency = idempotencySql(postgresSql);
  readonly leases = leaseSql(postgresSql);
  readonly #pool: Pool;
  readonly #locks: Pool;

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
    await dialect.write(() => dialect.sheets.dropAbandonedImports());
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

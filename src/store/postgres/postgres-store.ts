import pg, { type Pool, type PoolClient } from 'pg';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ReadPlan, WriteOp } from '../../query/plan.ts';
import type { Sheet } from '../../sheets/sheet.ts';
import type { WriteResult } from '../../sheets/write-effect.ts';
import type { ApiKeyRecord, NewSheet, RowsRead, SheetChanges, SheetStore } from '../store.ts';
import { migrate } from './migrations.ts';
import { RowTable } from './row-table.ts';

export interface PostgresStoreOptions {
  connectionString: string;
  /** Connections this server keeps open. */
  poolSize?: number;
}

interface SheetRecord {
  id: string;
  rows_table: string;
  name: string;
  columns: string[];
  source: Sheet['source'];
  settings: Sheet['settings'];
  row_count: number;
  version: string;
  created_at: Date;
  updated_at: Date;
}

const importChunkRows = 5000;
/** Imports that have not finished within this long are taken to have crashed. */
const abandonedImportMs = 3_600_000;

/**
 * The shared store: many servers on one PostgreSQL database. Nothing about a sheet is cached
 * between requests: each reads the sheet's row (and so its version) afresh, so a read on any
 * server sees every write acknowledged on any other. Writes to a sheet lock its row, which
 * keeps positions right with clients writing through different servers at once.
 */
export class PostgresStore implements SheetStore {
  readonly #pool: Pool;

  private constructor(pool: Pool) {
    this.#pool = pool;
  }

  static async open(options: PostgresStoreOptions): Promise<PostgresStore> {
    const pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
    });
    pool.on('error', () => {
      // An idle connection that dies is replaced on next use; there is no request to fail.
    });
    await migrate(pool);
    const store = new PostgresStore(pool);
    await store.#dropAbandonedImports();
    return store;
  }

  async listSheets(): Promise<Sheet[]> {
    const { rows } = await this.#pool.query<SheetRecord>(
      'SELECT * FROM sheets ORDER BY created_at, id',
    );
    return rows.map(toSheet);
  }

  async getSheet(id: string): Promise<Sheet | null> {
    const record = await this.#record(this.#pool, id);
    return record === null ? null : toSheet(record);
  }

  async createSheet(
    draft: NewSheet,
    rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>,
  ): Promise<Sheet> {
    const table = RowTable.named(draft.columns.length);
    await this.#pool.query('INSERT INTO staging_tables (name) VALUES ($1)', [table.name]);
    await table.create(this.#pool);
    try {
      let rowCount = 0;
      for await (const chunk of rows) {
        for (let i = 0; i < chunk.length; i += importChunkRows) {
          await table.insert(this.#pool, chunk.slice(i, i + importChunkRows));
        }
        rowCount += chunk.length;
      }
      return await this.#transaction(async (db) => {
        await table.index(db);
        await db.query('DELETE FROM staging_tables WHERE name = $1', [table.name]);
        const { rows: created } = await db.query<SheetRecord>(
          `INSERT INTO sheets (id, rows_table, name, columns, source, settings, row_count, version, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, 1, now(), now()) RETURNING *`,
          [
            draft.id,
            table.name,
            draft.name,
            JSON.stringify(draft.columns),
            JSON.stringify(draft.source),
            JSON.stringify(draft.settings),
            rowCount,
          ],
        );
        return toSheet(created[0] as SheetRecord);
      });
    } catch (error) {
      await table.drop(this.#pool);
      await this.#pool.query('DELETE FROM staging_tables WHERE name = $1', [table.name]);
      throw error;
    }
  }

  async updateSheet(id: string, changes: SheetChanges): Promise<Sheet | null> {
    const { rows } = await this.#pool.query<SheetRecord>(
      `UPDATE sheets SET name = coalesce($2, name), settings = settings || $3::jsonb,
         source = coalesce($4::jsonb, source), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [
        id,
        changes.name ?? null,
        JSON.stringify(changes.settings ?? {}),
        changes.source === undefined ? null : JSON.stringify(changes.source),
      ],
    );
    return rows[0] === undefined ? null : toSheet(rows[0]);
  }

  async deleteSheet(id: string): Promise<boolean> {
    return this.#transaction(async (db) => {
      const { rows } = await db.query<{ rows_table: string }>(
        'DELETE FROM sheets WHERE id = $1 RETURNING rows_table',
        [id],
      );
      if (rows[0] === undefined) return false;
      await new RowTable(rows[0].rows_table, 0).drop(db);
      return true;
    });
  }

  async readRows(sheet: Sheet, plan: ReadPlan): Promise<RowsRead> {
    // One snapshot for the sheet's row and its rows, so a concurrent re-read cannot swap the
    // table out from under the read.
    return this.#transaction(async (db) => {
      const record = await this.#record(db, sheet.id);
      if (record === null) throw new Problem('sheet-not-found', `No sheet with id "${sheet.id}".`);
      return new RowTable(record.rows_table, record.columns.length).read(db, toSheet(record), plan);
    }, 'REPEATABLE READ');
  }

  async applyWrites(
    sheetId: string,
    ops: WriteOp[],
    mode: 'commit' | 'plan' = 'commit',
  ): Promise<(WriteResult | Problem)[]> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const record = await this.#record(client, sheetId, 'FOR UPDATE');
      if (record === null) throw new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
      let sheet = toSheet(record);
      const table = new RowTable(record.rows_table, sheet.columns.length);
      const results: (WriteResult | Problem)[] = [];
      let committed = 0;
      for (const op of ops) {
        await client.query('SAVEPOINT write');
        try {
          const result = await table.apply(client, sheet, op, mode === 'plan');
          const { outcome } = result;
          const change =
            'created' in outcome ? outcome.created : 'deleted' in outcome ? -outcome.deleted : 0;
          sheet = { ...sheet, rowCount: sheet.rowCount + change };
          await client.query('RELEASE SAVEPOINT write');
          results.push(
            mode === 'plan' ? result : { ...result, version: sheet.version + ++committed },
          );
        } catch (error) {
          if (!(error instanceof Problem)) throw error;
          await client.query('ROLLBACK TO SAVEPOINT write');
          results.push(error);
        }
      }
      if (mode === 'plan' || committed === 0) {
        // A plan keeps nothing; a batch of failed writes changes nothing, not even updatedAt.
        await client.query('ROLLBACK');
        return results;
      }
      await client.query(
        'UPDATE sheets SET row_count = $2, version = version + $3, updated_at = now() WHERE id = $1',
        [sheetId, sheet.rowCount, committed],
      );
      await client.query('COMMIT');
      return results;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async replaceRows(sheetId: string, columns: string[], rows: Cell[][]): Promise<Sheet> {
    return this.#transaction(async (db) => {
      const record = await this.#record(db, sheetId, 'FOR UPDATE');
      if (record === null) throw new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
      const table = RowTable.named(columns.length);
      await table.create(db);
      await table.insert(db, rows);
      await table.index(db);
      await new RowTable(record.rows_table, 0).drop(db);
      const { rows: updated } = await db.query<SheetRecord>(
        `UPDATE sheets SET rows_table = $2, columns = $3, row_count = $4, version = version + 1, updated_at = now()
         WHERE id = $1 RETURNING *`,
        [sheetId, table.name, JSON.stringify(columns), rows.length],
      );
      return toSheet(updated[0] as SheetRecord);
    });
  }

  async claimFlag(name: string): Promise<boolean> {
    const { rowCount } = await this.#pool.query(
      'INSERT INTO flags (name) VALUES ($1) ON CONFLICT DO NOTHING',
      [name],
    );
    return rowCount === 1;
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    await this.#pool.query(
      'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)',
      [key.id, key.sheetId, key.name, JSON.stringify(key.scopes), key.hash, key.createdAt],
    );
  }

  async listKeys(sheetId: string): Promise<ApiKeyRecord[]> {
    const { rows } = await this.#pool.query<KeyRow>(
      'SELECT * FROM api_keys WHERE sheet_id = $1 ORDER BY created_at, id',
      [sheetId],
    );
    return rows.map(toKey);
  }

  async findKey(id: string): Promise<ApiKeyRecord | null> {
    const { rows } = await this.#pool.query<KeyRow>('SELECT * FROM api_keys WHERE id = $1', [id]);
    return rows[0] === undefined ? null : toKey(rows[0]);
  }

  async deleteKey(sheetId: string, id: string): Promise<boolean> {
    if (id.includes('\u0000')) return false;
    const { rowCount } = await this.#pool.query(
      'DELETE FROM api_keys WHERE sheet_id = $1 AND id = $2',
      [sheetId, id],
    );
    return rowCount === 1;
  }

  /** A fixed window per key, counted in one statement so that servers never race. */
  async countHit(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }> {
    const { rows } = await this.#pool.query<{ count: number; reset_in_ms: number }>(
      `INSERT INTO rate_limits AS r (key, window_start, count) VALUES ($1, now(), 1)
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN 1 ELSE r.count + 1 END,
         window_start = CASE WHEN r.window_start + $2 * interval '1 millisecond' <= now() THEN now() ELSE r.window_start END
       RETURNING count, extract(epoch FROM r.window_start + $2 * interval '1 millisecond' - now())::float8 * 1000 AS reset_in_ms`,
      [key, windowMs],
    );
    const row = rows[0] as { count: number; reset_in_ms: number };
    return { count: row.count, resetInMs: Math.max(0, Math.ceil(row.reset_in_ms)) };
  }

  async releaseFlag(name: string): Promise<void> {
    await this.#pool.query('DELETE FROM flags WHERE name = $1', [name]);
  }

  /** A session advisory lock on the sheet, held on a connection of its own while `work` runs. */
  async exclusive<T>(sheetId: string, work: () => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [sheetId]);
      try {
        return await work();
      } finally {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [sheetId]);
      }
    } finally {
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }

  async #record(
    db: Pick<PoolClient, 'query'>,
    id: string,
    lock: '' | 'FOR UPDATE' = '',
  ): Promise<SheetRecord | null> {
    // An id PostgreSQL cannot even compare (a NUL in it) names no sheet.
    if (id.includes('\u0000')) return null;
    const { rows } = await db.query<SheetRecord>(`SELECT * FROM sheets WHERE id = $1 ${lock}`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  async #transaction<T>(
    work: (db: PoolClient) => Promise<T>,
    isolation: 'READ COMMITTED' | 'REPEATABLE READ' = 'READ COMMITTED',
  ): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query(`BEGIN ISOLATION LEVEL ${isolation}`);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async #dropAbandonedImports(): Promise<void> {
    const { rows } = await this.#pool.query<{ name: string }>(
      `DELETE FROM staging_tables WHERE created_at < now() - make_interval(secs => $1) RETURNING name`,
      [abandonedImportMs / 1000],
    );
    for (const { name } of rows) await new RowTable(name, 0).drop(this.#pool);
  }
}

interface KeyRow {
  id: string;
  sheet_id: string;
  name: string;
  scopes: string[];
  hash: string;
  created_at: Date;
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    name: row.name,
    scopes: row.scopes,
    hash: row.hash,
    createdAt: row.created_at.toISOString(),
  };
}

function toSheet(record: SheetRecord): Sheet {
  return {
    id: record.id,
    name: record.name,
    columns: record.columns,
    rowCount: record.row_count,
    source: record.source,
    settings: record.settings,
    createdAt: record.created_at.toISOString(),
    updatedAt: record.updated_at.toISOString(),
    version: Number(record.version),
  };
}

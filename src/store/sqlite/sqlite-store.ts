import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ReadPlan, WriteOp } from '../../query/plan.ts';
import type { Sheet } from '../../sheets/sheet.ts';
import type { WriteResult } from '../../sheets/write-effect.ts';
import type { ApiKeyRecord, NewSheet, RowsRead, SheetChanges, SheetStore } from '../store.ts';
import { migrate } from './migrations.ts';
import { RowTable } from './row-table.ts';
import { Statements } from './statements.ts';

export interface SqliteStoreOptions {
  /** A file path, or ':memory:'. */
  path: string;
  /** 'full' syncs to disk at every commit; 'normal' survives a process crash, not a power cut. */
  synchronous: 'full' | 'normal';
}

interface SheetRecord {
  id: string;
  rows_table: string;
  name: string;
  columns: string;
  source: string;
  settings: string;
  row_count: number;
  version: number;
  created_at: string;
  updated_at: string;
}

const importChunkRows = 5000;

/** Thrown inside a transaction to roll it back after a dry run. */
class PlanOnly extends Error {}

/** The embedded store: one SQLite file, one table of rows per sheet. */
export class SqliteStore implements SheetStore {
  readonly #db: Database.Database;
  readonly #sql: Statements;
  /** Sheets by id with their rows table; this process is the file's only writer. */
  readonly #sheets = new Map<string, { sheet: Sheet; rows: RowTable }>();

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    this.#db.pragma('busy_timeout = 5000');
    this.#db.pragma('foreign_keys = ON');
    this.#sql = new Statements(this.#db);
    migrate(this.#db);
    const records = this.#db
      .prepare('SELECT * FROM sheets ORDER BY created_at, id')
      .all() as SheetRecord[];
    for (const record of records) {
      const sheet = toSheet(record);
      this.#sheets.set(sheet.id, {
        sheet,
        rows: new RowTable(this.#sql, record.rows_table, sheet.columns.length),
      });
    }
    this.#dropOrphanTables();
  }

  async listSheets(): Promise<Sheet[]> {
    return [...this.#sheets.values()].map((entry) => entry.sheet);
  }

  async getSheet(id: string): Promise<Sheet | null> {
    return this.#sheets.get(id)?.sheet ?? null;
  }

  async createSheet(
    draft: NewSheet,
    rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>,
  ): Promise<Sheet> {
    const table = RowTable.create(this.#sql, draft.columns.length);
    try {
      const insertChunk = this.#db.transaction((chunk: Cell[][]) => table.insert(chunk));
      let rowCount = 0;
      for await (const chunk of rows) {
        // Large chunks are split so that no one transaction holds the event loop for long.
        for (let i = 0; i < chunk.length; i += importChunkRows) {
          insertChunk(chunk.slice(i, i + importChunkRows));
        }
        rowCount += chunk.length;
      }
      const now = new Date().toISOString();
      const sheet: Sheet = { ...draft, rowCount, createdAt: now, updatedAt: now, version: 1 };
      this.#db.transaction(() => {
        table.index();
        this.#sql
          .get(
            `INSERT INTO sheets (id, rows_table, name, columns, source, settings, row_count, version, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            sheet.id,
            table.name,
            sheet.name,
            JSON.stringify(sheet.columns),
            JSON.stringify(sheet.source),
            JSON.stringify(sheet.settings),
            rowCount,
            sheet.version,
            now,
            now,
          );
      })();
      this.#sheets.set(sheet.id, { sheet, rows: table });
      return sheet;
    } catch (error) {
      table.drop();
      throw error;
    }
  }

  async updateSheet(id: string, changes: SheetChanges): Promise<Sheet | null> {
    const entry = this.#sheets.get(id);
    if (entry === undefined) return null;
    const sheet: Sheet = {
      ...entry.sheet,
      name: changes.name ?? entry.sheet.name,
      settings: { ...entry.sheet.settings, ...changes.settings },
      source: changes.source ?? entry.sheet.source,
      updatedAt: new Date().toISOString(),
    };
    this.#sql
      .get('UPDATE sheets SET name = ?, settings = ?, source = ?, updated_at = ? WHERE id = ?')
      .run(
        sheet.name,
        JSON.stringify(sheet.settings),
        JSON.stringify(sheet.source),
        sheet.updatedAt,
        id,
      );
    entry.sheet = sheet;
    return sheet;
  }

  async deleteSheet(id: string): Promise<boolean> {
    const entry = this.#sheets.get(id);
    if (entry === undefined) return false;
    this.#db.transaction(() => {
      this.#sql.get('DELETE FROM sheets WHERE id = ?').run(id);
      entry.rows.drop();
    })();
    this.#sheets.delete(id);
    return true;
  }

  async readRows(sheet: Sheet, plan: ReadPlan): Promise<RowsRead> {
    const entry = this.#entry(sheet.id);
    return entry.rows.read(entry.sheet, plan);
  }

  async applyWrites(
    sheetId: string,
    ops: WriteOp[],
    mode: 'commit' | 'plan' = 'commit',
  ): Promise<(WriteResult | Problem)[]> {
    const entry = this.#entry(sheetId);
    const results: (WriteResult | Problem)[] = [];
    let sheet = entry.sheet;
    let committed = 0;
    const applyOne = this.#db.transaction((op: WriteOp) =>
      entry.rows.apply(sheet, op, mode === 'plan'),
    );
    const now = new Date().toISOString();
    try {
      this.#db.transaction(() => {
        for (const op of ops) {
          try {
            const result = applyOne(op);
            const { outcome } = result;
            const change =
              'created' in outcome ? outcome.created : 'deleted' in outcome ? -outcome.deleted : 0;
            sheet = { ...sheet, rowCount: sheet.rowCount + change };
            results.push(
              mode === 'plan' ? result : { ...result, version: sheet.version + ++committed },
            );
          } catch (error) {
            if (!(error instanceof Problem)) throw error;
            results.push(error);
          }
        }
        if (mode === 'plan') throw new PlanOnly();
        if (committed === 0) return;
        this.#sql
          .get(
            'UPDATE sheets SET row_count = ?, version = version + ?, updated_at = ? WHERE id = ?',
          )
          .run(sheet.rowCount, committed, now, sheetId);
      })();
    } catch (error) {
      if (error instanceof PlanOnly) return results;
      throw error;
    }
    if (committed > 0)
      entry.sheet = { ...sheet, version: sheet.version + committed, updatedAt: now };
    return results;
  }

  async replaceRows(sheetId: string, columns: string[], rows: Cell[][]): Promise<Sheet> {
    const entry = this.#entry(sheetId);
    const table = RowTable.create(this.#sql, columns.length);
    const now = new Date().toISOString();
    const sheet: Sheet = {
      ...entry.sheet,
      columns,
      rowCount: rows.length,
      version: entry.sheet.version + 1,
      updatedAt: now,
    };
    try {
      this.#db.transaction(() => {
        table.insert(rows);
        table.index();
        this.#sql
          .get(
            'UPDATE sheets SET rows_table = ?, columns = ?, row_count = ?, version = ?, updated_at = ? WHERE id = ?',
          )
          .run(table.name, JSON.stringify(columns), rows.length, sheet.version, now, sheetId);
        entry.rows.drop();
      })();
    } catch (error) {
      table.drop();
      throw error;
    }
    this.#sheets.set(sheetId, { sheet, rows: table });
    return sheet;
  }

  async claimFlag(name: string): Promise<boolean> {
    return this.#sql.get('INSERT OR IGNORE INTO flags (name) VALUES (?)').run(name).changes === 1;
  }

  async createKey(key: ApiKeyRecord): Promise<void> {
    this.#sql
      .get(
        'INSERT INTO api_keys (id, sheet_id, name, scopes, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
      )
      .run(key.id, key.sheetId, key.name, JSON.stringify(key.scopes), key.hash, key.createdAt);
  }

  async listKeys(sheetId: string): Promise<ApiKeyRecord[]> {
    const rows = this.#sql
      .get('SELECT * FROM api_keys WHERE sheet_id = ? ORDER BY created_at, id')
      .all(sheetId) as KeyRow[];
    return rows.map(toKey);
  }

  async findKey(id: string): Promise<ApiKeyRecord | null> {
    const row = this.#sql.get('SELECT * FROM api_keys WHERE id = ?').get(id) as KeyRow | undefined;
    return row === undefined ? null : toKey(row);
  }

  async deleteKey(sheetId: string, id: string): Promise<boolean> {
    return (
      this.#sql.get('DELETE FROM api_keys WHERE sheet_id = ? AND id = ?').run(sheetId, id)
        .changes === 1
    );
  }

  async releaseFlag(name: string): Promise<void> {
    this.#sql.get('DELETE FROM flags WHERE name = ?').run(name);
  }

  /** One process owns the file, and the write queue already runs a sheet's work in turn. */
  exclusive<T>(_sheetId: string, work: () => Promise<T>): Promise<T> {
    return work();
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #entry(id: string): { sheet: Sheet; rows: RowTable } {
    const entry = this.#sheets.get(id);
    if (entry === undefined) throw new Problem('sheet-not-found', `No sheet with id "${id}".`);
    return entry;
  }

  /** Rows tables of imports that a crash interrupted before their sheet was registered. */
  #dropOrphanTables(): void {
    const tables = this.#db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE 'rows\\_%' ESCAPE '\\' AND name NOT IN (SELECT rows_table FROM sheets)",
      )
      .pluck()
      .all() as string[];
    for (const table of tables) new RowTable(this.#sql, table, 0).drop();
  }
}

interface KeyRow {
  id: string;
  sheet_id: string;
  name: string;
  scopes: string;
  hash: string;
  created_at: string;
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    name: row.name,
    scopes: JSON.parse(row.scopes) as string[],
    hash: row.hash,
    createdAt: row.created_at,
  };
}

function toSheet(record: SheetRecord): Sheet {
  return {
    id: record.id,
    name: record.name,
    columns: JSON.parse(record.columns) as string[],
    rowCount: record.row_count,
    source: JSON.parse(record.source) as Sheet['source'],
    settings: JSON.parse(record.settings) as Sheet['settings'],
    createdAt: record.created_at,
    updatedAt: record.updated_at,
    version: record.version,
  };
}

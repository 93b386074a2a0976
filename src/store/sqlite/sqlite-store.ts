import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ReadPlan, Selection, WriteOp, WriteOutcome } from '../../query/plan.ts';
import type { Sheet } from '../../sheets/sheet.ts';
import type { NewSheet, SheetChanges, SheetStore } from '../store.ts';
import { migrate } from './migrations.ts';
import {
  cellColumnList,
  compileFilters,
  decodeRow,
  encodeCell,
  markerColumn,
  valueColumn,
  type SqlFragment,
  type SqlValue,
} from './sqlite-rows.ts';

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

/** Columns beyond this many are stored but not indexed, to keep appends cheap on wide sheets. */
const indexedColumns = 64;
const importChunkRows = 5000;

/** The embedded store: one SQLite file, one table of rows per sheet. */
export class SqliteStore implements SheetStore {
  readonly #db: Database.Database;
  /** Sheets by id with the name of their rows table; this process is the file's only writer. */
  readonly #sheets = new Map<string, { sheet: Sheet; table: string }>();

  constructor(options: SqliteStoreOptions) {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    this.#db = new Database(options.path);
    this.#db.pragma('journal_mode = WAL');
    this.#db.pragma(`synchronous = ${options.synchronous.toUpperCase()}`);
    this.#db.pragma('busy_timeout = 5000');
    migrate(this.#db);
    const records = this.#db
      .prepare('SELECT * FROM sheets ORDER BY created_at, id')
      .all() as SheetRecord[];
    for (const record of records) {
      this.#sheets.set(record.id, { sheet: toSheet(record), table: record.rows_table });
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
    const table = `rows_${randomBytes(8).toString('hex')}`;
    const width = draft.columns.length;
    this.#db.exec(`CREATE TABLE ${table} (seq INTEGER PRIMARY KEY, ${cellColumnList(width)})`);
    try {
      const insert = this.#insertStatement(table, width);
      const insertChunk = this.#db.transaction((chunk: Cell[][]) => {
        for (const row of chunk) insert.run(encodeRow(row, width));
      });
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
        for (let i = 0; i < Math.min(width, indexedColumns); i++) {
          this.#db.exec(`CREATE INDEX ${table}_${valueColumn(i)} ON ${table} (${valueColumn(i)})`);
        }
        this.#db
          .prepare(
            `INSERT INTO sheets (id, rows_table, name, columns, source, settings, row_count, version, created_at, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          )
          .run(
            sheet.id,
            table,
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
      this.#sheets.set(sheet.id, { sheet, table });
      return sheet;
    } catch (error) {
      this.#db.exec(`DROP TABLE IF EXISTS ${table}`);
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
      updatedAt: new Date().toISOString(),
    };
    this.#db
      .prepare('UPDATE sheets SET name = ?, settings = ?, updated_at = ? WHERE id = ?')
      .run(sheet.name, JSON.stringify(sheet.settings), sheet.updatedAt, id);
    entry.sheet = sheet;
    return sheet;
  }

  async deleteSheet(id: string): Promise<boolean> {
    const entry = this.#sheets.get(id);
    if (entry === undefined) return false;
    this.#db.transaction(() => {
      this.#db.prepare('DELETE FROM sheets WHERE id = ?').run(id);
      this.#db.exec(`DROP TABLE ${entry.table}`);
    })();
    this.#sheets.delete(id);
    return true;
  }

  async readRows(sheet: Sheet, plan: ReadPlan): Promise<Cell[][]> {
    const { table } = this.#entry(sheet.id);
    const where = this.#where(table, sheet, plan.selection);
    const order = plan.sort
      .map(({ index, descending }) => {
        const column = valueColumn(index);
        return `${column} IS NULL, ${column}${descending ? ' DESC' : ''}`;
      })
      .concat('seq')
      .join(', ');
    const sql = `SELECT ${cellColumnList(sheet.columns.length)} FROM ${table} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`;
    const raw = this.#statement(sql)
      .raw()
      .all(...where.params, plan.limit ?? -1, plan.offset) as unknown[][];
    return raw.map(decodeRow);
  }

  async applyWrites(sheetId: string, ops: WriteOp[]): Promise<(WriteOutcome | Problem)[]> {
    const entry = this.#entry(sheetId);
    const outcomes: (WriteOutcome | Problem)[] = [];
    let rowCount = entry.sheet.rowCount;
    const applyOne = this.#db.transaction((op: WriteOp) =>
      this.#apply(entry.table, entry.sheet, rowCount, op),
    );
    this.#db.transaction(() => {
      for (const op of ops) {
        try {
          const outcome = applyOne(op);
          if ('created' in outcome) rowCount += outcome.created;
          if ('deleted' in outcome) rowCount -= outcome.deleted;
          outcomes.push(outcome);
        } catch (error) {
          if (!(error instanceof Problem)) throw error;
          outcomes.push(error);
        }
      }
      const now = new Date().toISOString();
      this.#statement(
        'UPDATE sheets SET row_count = ?, version = version + 1, updated_at = ? WHERE id = ?',
      ).run(rowCount, now, sheetId);
      entry.sheet = { ...entry.sheet, rowCount, version: entry.sheet.version + 1, updatedAt: now };
    })();
    return outcomes;
  }

  async getFlag(name: string): Promise<boolean> {
    return this.#db.prepare('SELECT 1 FROM flags WHERE name = ?').get(name) !== undefined;
  }

  async setFlag(name: string): Promise<void> {
    this.#db.prepare('INSERT OR IGNORE INTO flags (name) VALUES (?)').run(name);
  }

  async close(): Promise<void> {
    this.#db.close();
  }

  #apply(table: string, sheet: Sheet, rowCount: number, op: WriteOp): WriteOutcome {
    const width = sheet.columns.length;
    if (op.kind === 'append') {
      const insert = this.#insertStatement(table, width);
      for (const row of op.rows) insert.run(encodeRow(row, width));
      return { created: op.rows.length };
    }
    const where = this.#where(table, { ...sheet, rowCount }, op.selection);
    if (op.kind === 'delete') {
      const { changes } = this.#statement(`DELETE FROM ${table} WHERE ${where.sql}`).run(
        ...where.params,
      );
      return { deleted: changes };
    }
    const cells: [number, Cell][] =
      op.kind === 'replace' ? op.cells.map((cell, index) => [index, cell]) : [...op.cells];
    if (cells.length === 0) {
      // An empty PATCH changes nothing but still reports the rows it chose.
      const count = this.#statement(`SELECT count(*) FROM ${table} WHERE ${where.sql}`)
        .pluck()
        .get(...where.params) as number;
      return { updated: count };
    }
    const assignments = cells
      .map(([index]) => `${valueColumn(index)} = ?, ${markerColumn(index)} = ?`)
      .join(', ');
    const values = cells.flatMap(([, cell]) => encodeCell(cell));
    const { changes } = this.#statement(
      `UPDATE ${table} SET ${assignments} WHERE ${where.sql}`,
    ).run(...values, ...where.params);
    return { updated: changes };
  }

  /** The WHERE clause for a selection; positions are checked and turned into row keys first. */
  #where(table: string, sheet: Sheet, selection: Selection): SqlFragment {
    if ('filters' in selection) return compileFilters(selection.filters);
    const missing = selection.ids.filter((id) => id >= sheet.rowCount);
    if (missing.length > 0) {
      throw new Problem(
        'row-not-found',
        `No row at _id ${missing.join(', ')}: sheet "${sheet.name}" has ${sheet.rowCount} rows, numbered 0 to ${sheet.rowCount - 1}.`,
        { ids: missing },
      );
    }
    // One pass over the rows finds every position, however many were asked for.
    const seqs = (
      selection.ids.length === 1
        ? [
            this.#statement(`SELECT seq FROM ${table} ORDER BY seq LIMIT 1 OFFSET ?`)
              .pluck()
              .get(selection.ids[0]),
          ]
        : this.#statement(
            `SELECT seq FROM (SELECT seq, row_number() OVER (ORDER BY seq) - 1 AS position FROM ${table})
             WHERE position IN (SELECT value FROM json_each(?))`,
          )
            .pluck()
            .all(JSON.stringify(selection.ids))
    ) as number[];
    return { sql: `seq IN (${seqs.map(() => '?').join(', ')})`, params: seqs };
  }

  #insertStatement(table: string, width: number): Database.Statement {
    const placeholders = new Array(width * 2).fill('?').join(', ');
    return this.#statement(
      `INSERT INTO ${table} (${cellColumnList(width)}) VALUES (${placeholders})`,
    );
  }

  /** Prepared statements are cached by their text; SQL text never contains request data. */
  readonly #statements = new Map<string, Database.Statement>();
  #statement(sql: string): Database.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      if (this.#statements.size > 2000) this.#statements.clear();
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  #entry(id: string): { sheet: Sheet; table: string } {
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
    for (const table of tables) this.#db.exec(`DROP TABLE ${table}`);
  }
}

function encodeRow(row: Cell[], width: number): SqlValue[] {
  const values: SqlValue[] = new Array(width * 2);
  for (let i = 0; i < width; i++) {
    const [value, marker] = encodeCell(row[i] ?? null);
    values[2 * i] = value;
    values[2 * i + 1] = marker;
  }
  return values;
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

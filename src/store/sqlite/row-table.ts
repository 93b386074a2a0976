import { randomBytes } from 'node:crypto';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ReadPlan, Selection, WriteOp } from '../../query/plan.ts';
import type { Sheet } from '../../sheets/sheet.ts';
import type { WriteEffect, WriteResult } from '../../sheets/write-effect.ts';
import type { RowsRead } from '../store.ts';
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
import type { Statements } from './statements.ts';

/** Columns beyond this many are stored but not indexed, to keep appends cheap on wide sheets. */
const indexedColumns = 64;

/** One sheet's rows in their own table, in sheet order by `seq`. */
export class RowTable {
  constructor(
    private readonly sql: Statements,
    readonly name: string,
    readonly width: number,
  ) {}

  /** A new, empty table under a fresh name, so that a sheet's old rows stay until it is swapped. */
  static create(sql: Statements, width: number): RowTable {
    const table = new RowTable(sql, `rows_${randomBytes(8).toString('hex')}`, width);
    sql.db.exec(`CREATE TABLE ${table.name} (seq INTEGER PRIMARY KEY, ${cellColumnList(width)})`);
    return table;
  }

  /** Indexes are built once the rows are in, which is faster than growing them row by row. */
  index(): void {
    for (let i = 0; i < Math.min(this.width, indexedColumns); i++) {
      this.sql.db.exec(
        `CREATE INDEX ${this.name}_${valueColumn(i)} ON ${this.name} (${valueColumn(i)})`,
      );
    }
  }

  drop(): void {
    this.sql.db.exec(`DROP TABLE IF EXISTS ${this.name}`);
  }

  insert(rows: Cell[][]): void {
    const placeholders = new Array(this.width * 2).fill('?').join(', ');
    const insert = this.sql.get(
      `INSERT INTO ${this.name} (${cellColumnList(this.width)}) VALUES (${placeholders})`,
    );
    for (const row of rows) insert.run(this.#encodeRow(row));
  }

  read(sheet: Sheet, plan: ReadPlan): RowsRead {
    const where = this.#where(sheet, plan.selection);
    const order = plan.sort
      .map(({ index, descending }) => {
        const column = valueColumn(index);
        return `${column} IS NULL, ${column}${descending ? ' DESC' : ''}`;
      })
      .concat('seq')
      .join(', ');
    // Positions are counted over the whole sheet before filtering, so only when asked for.
    const from = plan.withIds
      ? `(SELECT row_number() OVER (ORDER BY seq) - 1 AS position, * FROM ${this.name})`
      : this.name;
    const raw = this.sql
      .get(
        `SELECT ${plan.withIds ? 'position, ' : ''}${cellColumnList(this.width)} FROM ${from} WHERE ${where.sql} ORDER BY ${order} LIMIT ? OFFSET ?`,
      )
      .raw()
      .all(...where.params, plan.limit ?? -1, plan.offset) as unknown[][];
    if (!plan.withIds) return { rows: raw.map(decodeRow), positions: null };
    return {
      rows: raw.map((row) => decodeRow(row.slice(1))),
      positions: raw.map((row) => row[0] as number),
    };
  }

  /** Applies one write; with `withEffect`, also says which positions it touched. */
  apply(sheet: Sheet, op: WriteOp, withEffect: boolean): WriteResult {
    if (op.kind === 'append') {
      this.insert(op.rows);
      return { outcome: { created: op.rows.length }, effect: { kind: 'append', rows: op.rows } };
    }
    const where = this.#where(sheet, op.selection);
    const positions = withEffect ? this.#positions(where) : [];
    if (op.kind === 'delete') {
      const { changes } = this.sql
        .get(`DELETE FROM ${this.name} WHERE ${where.sql}`)
        .run(...where.params);
      return { outcome: { deleted: changes }, effect: { kind: 'delete', positions } };
    }
    const cells =
      op.kind === 'replace' ? new Map(op.cells.map((cell, index) => [index, cell])) : op.cells;
    const effect: WriteEffect = { kind: 'update', positions, cells };
    if (cells.size === 0) {
      // An empty PATCH changes nothing but still reports the rows it chose.
      const count = this.sql
        .get(`SELECT count(*) FROM ${this.name} WHERE ${where.sql}`)
        .pluck()
        .get(...where.params) as number;
      return { outcome: { updated: count }, effect };
    }
    const assignments = [...cells.keys()]
      .map((index) => `${valueColumn(index)} = ?, ${markerColumn(index)} = ?`)
      .join(', ');
    const values = [...cells.values()].flatMap((cell) => encodeCell(cell));
    const { changes } = this.sql
      .get(`UPDATE ${this.name} SET ${assignments} WHERE ${where.sql}`)
      .run(...values, ...where.params);
    return { outcome: { updated: changes }, effect };
  }

  #positions(where: SqlFragment): number[] {
    return this.sql
      .get(
        `SELECT position FROM (SELECT row_number() OVER (ORDER BY seq) - 1 AS position, * FROM ${this.name})
         WHERE ${where.sql} ORDER BY position`,
      )
      .pluck()
      .all(...where.params) as number[];
  }

  /** The WHERE clause for a selection; positions are checked and turned into row keys first. */
  #where(sheet: Sheet, selection: Selection): SqlFragment {
    if ('filters' in selection && selection.any.length > 0) {
      throw new Error('This store has no SQL for _or: it would choose rows without it.');
    }
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
            this.sql
              .get(`SELECT seq FROM ${this.name} ORDER BY seq LIMIT 1 OFFSET ?`)
              .pluck()
              .get(selection.ids[0]),
          ]
        : this.sql
            .get(
              `SELECT seq FROM (SELECT seq, row_number() OVER (ORDER BY seq) - 1 AS position FROM ${this.name})
               WHERE position IN (SELECT value FROM json_each(?))`,
            )
            .pluck()
            .all(JSON.stringify(selection.ids))
    ) as number[];
    return { sql: `seq IN (${seqs.map(() => '?').join(', ')})`, params: seqs };
  }

  #encodeRow(row: Cell[]): SqlValue[] {
    const values: SqlValue[] = new Array(this.width * 2);
    for (let i = 0; i < this.width; i++) {
      const [value, marker] = encodeCell(row[i] ?? null);
      values[2 * i] = value;
      values[2 * i + 1] = marker;
    }
    return values;
  }
}

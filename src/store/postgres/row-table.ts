import { randomBytes } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ReadPlan, Selection, WriteOp } from '../../query/plan.ts';
import type { Sheet } from '../../sheets/sheet.ts';
import type { WriteEffect, WriteResult } from '../../sheets/write-effect.ts';
import type { RowsRead } from '../store.ts';
import {
  cellColumnDefinitions,
  cellColumnList,
  compileFilters,
  decodeRow,
  encodeCell,
  markerColumn,
  numberColumn,
  orderTerm,
  SqlBuilder,
  textColumn,
  type SqlValue,
} from './postgres-rows.ts';

/** Columns beyond this many are stored but not indexed, to keep appends cheap on wide sheets. */
const indexedColumns = 32;
/** PostgreSQL takes at most 65,535 parameters in one statement. */
const maxParameters = 60_000;

type Queryable = Pick<PoolClient, 'query'>;

/** One sheet's rows in their own table, in sheet order by `seq`. */
export class RowTable {
  constructor(
    readonly name: string,
    readonly width: number,
  ) {}

  /** A fresh name, so that a sheet's old rows stay until the new table is swapped in. */
  static named(width: number): RowTable {
    return new RowTable(`rows_${randomBytes(8).toString('hex')}`, width);
  }

  async create(db: Queryable): Promise<void> {
    await db.query(
      `CREATE TABLE ${this.name} (seq bigserial PRIMARY KEY${this.width > 0 ? ', ' : ''}${cellColumnDefinitions(this.width)})`,
    );
  }

  async index(db: Queryable): Promise<void> {
    for (let i = 0; i < Math.min(this.width, indexedColumns); i++) {
      await db.query(`CREATE INDEX ON ${this.name} (${numberColumn(i)})`);
      await db.query(`CREATE INDEX ON ${this.name} (${textColumn(i)})`);
    }
  }

  async drop(db: Queryable): Promise<void> {
    await db.query(`DROP TABLE IF EXISTS ${this.name}`);
  }

  async insert(db: Queryable, rows: Cell[][]): Promise<void> {
    if (this.width === 0) {
      for (let i = 0; i < rows.length; i++)
        await db.query(`INSERT INTO ${this.name} DEFAULT VALUES`);
      return;
    }
    const perStatement = Math.max(1, Math.floor(maxParameters / (this.width * 3)));
    for (let start = 0; start < rows.length; start += perStatement) {
      const sql = new SqlBuilder();
      const tuples = rows.slice(start, start + perStatement).map(
        (row) =>
          `(${this.#encodeRow(row)
            .map((value) => sql.param(value))
            .join(', ')})`,
      );
      await db.query(
        `INSERT INTO ${this.name} (${cellColumnList(this.width)}) VALUES ${tuples.join(', ')}`,
        sql.params,
      );
    }
  }

  async read(db: Queryable, sheet: Sheet, plan: ReadPlan): Promise<RowsRead> {
    const sql = new SqlBuilder();
    const where = await this.#where(db, sheet, plan.selection, sql);
    const order = plan.sort
      .map(({ index, descending }) => orderTerm(index, descending))
      .concat('seq')
      .join(', ');
    const limit = plan.limit === null ? '' : ` LIMIT ${sql.param(plan.limit)}`;
    // Positions are counted over the whole sheet before filtering, so only when asked for.
    const from = plan.withIds
      ? `(SELECT (row_number() OVER (ORDER BY seq) - 1)::int AS position, * FROM ${this.name}) AS numbered`
      : this.name;
    const result = await db.query({
      text: `SELECT ${plan.withIds ? 'position, ' : ''}${cellColumnList(this.width) || '1'} FROM ${from} WHERE ${where} ORDER BY ${order}${limit} OFFSET ${sql.param(plan.offset)}`,
      values: sql.params,
      rowMode: 'array',
    });
    const raw = result.rows as unknown[][];
    const cells = (row: unknown[]) => (this.width === 0 ? [] : decodeRow(row));
    if (!plan.withIds) return { rows: raw.map(cells), positions: null };
    return {
      rows: raw.map((row) => cells(row.slice(1))),
      positions: raw.map((row) => row[0] as number),
    };
  }

  /** Applies one write; with `withEffect`, also says which positions it touched. */
  async apply(db: Queryable, sheet: Sheet, op: WriteOp, withEffect: boolean): Promise<WriteResult> {
    if (op.kind === 'append') {
      await this.insert(db, op.rows);
      return { outcome: { created: op.rows.length }, effect: { kind: 'append', rows: op.rows } };
    }
    const sql = new SqlBuilder();
    const where = await this.#where(db, sheet, op.selection, sql);
    const positions = withEffect ? await this.#positions(db, where, sql.params) : [];
    if (op.kind === 'delete') {
      const { rowCount } = await db.query(`DELETE FROM ${this.name} WHERE ${where}`, sql.params);
      return { outcome: { deleted: rowCount ?? 0 }, effect: { kind: 'delete', positions } };
    }
    const cells =
      op.kind === 'replace' ? new Map(op.cells.map((cell, index) => [index, cell])) : op.cells;
    const effect: WriteEffect = { kind: 'update', positions, cells };
    if (cells.size === 0) {
      // An empty PATCH changes nothing but still reports the rows it chose.
      const { rows } = await db.query(
        `SELECT count(*)::int AS n FROM ${this.name} WHERE ${where}`,
        sql.params,
      );
      return { outcome: { updated: (rows[0] as { n: number }).n }, effect };
    }
    const assignments = [...cells].map(([index, cell]) => {
      const [n, t, k] = encodeCell(cell);
      return `${numberColumn(index)} = ${sql.param(n)}::float8, ${textColumn(index)} = ${sql.param(t)}, ${markerColumn(index)} = ${sql.param(k)}`;
    });
    const { rowCount } = await db.query(
      `UPDATE ${this.name} SET ${assignments.join(', ')} WHERE ${where}`,
      sql.params,
    );
    return { outcome: { updated: rowCount ?? 0 }, effect };
  }

  async #positions(db: Queryable, where: string, params: SqlValue[]): Promise<number[]> {
    const { rows } = await db.query({
      text: `SELECT position FROM (SELECT (row_number() OVER (ORDER BY seq) - 1)::int AS position, * FROM ${this.name}) AS numbered
             WHERE ${where} ORDER BY position`,
      values: params,
      rowMode: 'array',
    });
    return (rows as number[][]).map((row) => row[0] as number);
  }

  /** The WHERE clause for a selection; positions are checked and turned into row keys first. */
  async #where(
    db: Queryable,
    sheet: Sheet,
    selection: Selection,
    sql: SqlBuilder,
  ): Promise<string> {
    if ('filters' in selection && selection.any.length > 0) {
      throw new Error('This store has no SQL for _or: it would choose rows without it.');
    }
    if ('filters' in selection) return compileFilters(selection.filters, sql);
    const missing = selection.ids.filter((id) => id >= sheet.rowCount);
    if (missing.length > 0) {
      throw new Problem(
        'row-not-found',
        `No row at _id ${missing.join(', ')}: sheet "${sheet.name}" has ${sheet.rowCount} rows, numbered 0 to ${sheet.rowCount - 1}.`,
        { ids: missing },
      );
    }
    const { rows } = await db.query({
      text: `SELECT seq::text FROM (SELECT seq, (row_number() OVER (ORDER BY seq) - 1)::int AS position FROM ${this.name}) AS numbered
             WHERE position = ANY($1::int[])`,
      values: [selection.ids],
      rowMode: 'array',
    });
    const seqs = (rows as string[][]).map((row) => row[0] ?? '');
    return `seq = ANY(${sql.param(`{${seqs.join(',')}}`)}::bigint[])`;
  }

  #encodeRow(row: Cell[]): SqlValue[] {
    const values: SqlValue[] = [];
    for (let i = 0; i < this.width; i++) values.push(...encodeCell(row[i] ?? null));
    return values;
  }
}

import { cellText, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { RowQuery } from '../query/parse-row-query.ts';
import type { WriteOp } from '../query/plan.ts';

/** Bounds on what one request or one sheet may hold; each is a setting (see the README). */
export interface Limits {
  rowsPerRequest: number;
  columnsPerSheet: number;
  /** Characters in one cell; Google Sheets allows 50,000. */
  cellLength: number;
  filtersPerRequest: number;
}

export const defaultLimits: Limits = {
  rowsPerRequest: 1000,
  columnsPerSheet: 500,
  cellLength: 50_000,
  filtersPerRequest: 20,
};

function over(limit: keyof Limits, value: number, detail: string): Problem {
  return new Problem('limit-exceeded', detail, { limit, max: value });
}

/** Each alternative of an `_or` costs a store as much as a filter, so it counts as one. */
export function checkQuery(query: RowQuery, limits: Limits): void {
  const filters = query.any.reduce((count, any) => count + any.length, query.filters.length);
  if (filters > limits.filtersPerRequest) {
    throw over(
      'filtersPerRequest',
      limits.filtersPerRequest,
      `A request may carry at most ${limits.filtersPerRequest} filters, each _or alternative counting as one; this one has ${filters}.`,
    );
  }
}

export function checkColumns(columns: string[], limits: Limits): void {
  if (columns.length > limits.columnsPerSheet) {
    throw over(
      'columnsPerSheet',
      limits.columnsPerSheet,
      `A sheet may have at most ${limits.columnsPerSheet} columns; this one has ${columns.length}.`,
    );
  }
}

/**
 * Names the row a cell over the limit is in, for its message: `row 3 of the body`, or, for rows
 * read from a file or a spreadsheet, `the row at _id=41`, numbered as `_id` numbers rows.
 */
export type RowNamer = (index: number) => string;

/** Rows of a sheet being made, numbered from `first` as `_id` will number them. */
export const rowAtId =
  (first = 0): RowNamer =>
  (index) =>
    `the row at _id=${first + index}`;

/** Rows of a request body, as the client sent them; `name` is how they are called there. */
export const bodyRow =
  (name = 'the body'): RowNamer =>
  (index) =>
    `row ${index} of ${name}`;

export function checkCells(
  rows: Cell[][],
  limits: Limits,
  columns: readonly string[],
  rowName: RowNamer,
): void {
  rows.forEach((row, r) => {
    row.forEach((cell, c) => {
      if (typeof cell === 'string' && cell.length > limits.cellLength) {
        const column = columns[c] ?? `${c + 1}`;
        throw new Problem(
          'limit-exceeded',
          `A cell may hold at most ${limits.cellLength} characters; ${rowName(r)} gives column ${JSON.stringify(column)} ${cellText(cell).length}.`,
          { limit: 'cellLength', max: limits.cellLength, column },
        );
      }
    });
  });
}

/** Checks a write's rows and cells against the limits; `rows` names the body's rows. */
export function checkWrite(
  op: WriteOp,
  limits: Limits,
  columns: readonly string[],
  rows: RowNamer = bodyRow(),
): void {
  if (op.kind === 'append' || op.kind === 'upsert') {
    if (op.rows.length > limits.rowsPerRequest) {
      throw over(
        'rowsPerRequest',
        limits.rowsPerRequest,
        `One request may add at most ${limits.rowsPerRequest} rows; this one has ${op.rows.length}. Send them in several requests.`,
      );
    }
    checkCells(
      op.kind === 'append' ? op.rows : op.rows.map((row) => row.full),
      limits,
      columns,
      rows,
    );
  } else if (op.kind === 'replace') {
    checkCells([op.cells], limits, columns, () => 'the body');
  } else if (op.kind === 'patch') {
    const row = columns.map((_, index) => op.cells.get(index) ?? null);
    checkCells([row], limits, columns, () => 'the body');
  }
}

/** Passes rows through, refusing a cell over the limit wherever it comes in a stream. */
export async function* limitedRows(
  rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>,
  limits: Limits,
  columns: readonly string[],
): AsyncGenerator<Cell[][]> {
  let seen = 0;
  for await (const chunk of rows) {
    checkCells(chunk, limits, columns, rowAtId(seen));
    seen += chunk.length;
    yield chunk;
  }
}

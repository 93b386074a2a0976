import type { Cell } from '../cells/cell.ts';
import { isFiltered } from '../query/plan.ts';
import type { AggregatePlan } from '../query/plan-aggregate.ts';
import { filterColumns } from './cell-index.ts';
import type { DbWork } from './db-work.ts';
import type { Dialect } from './dialect.ts';
import type { SheetRecord } from './store-records.ts';
import { chooseRows } from './read-rows.ts';
import type { RowChoice } from './sql/aggregate-sql.ts';

/** Groups as answered: how many there are before paging, and the page, one row of cells each. */
export interface Groups {
  total: number;
  /** Each group's cells: the group columns' cells, then the aggregates' values. */
  rows: Cell[][];
}

/**
 * Answers `_group` and `_agg`: the rows are chosen as a read chooses them, then grouped,
 * aggregated, sorted and paged by the database in one statement. Only the page of groups comes
 * back, however many groups there are. The cells are read from the cell index when it chose
 * the rows and holds every column the statement reads (see `aggregateIndexColumns`), and from
 * the rows' JSON otherwise.
 */
export function* aggregateRows(
  dialect: Dialect,
  sheet: SheetRecord,
  plan: AggregatePlan,
): DbWork<Groups> {
  const choice = yield* rowChoice(dialect, sheet, plan);
  const column = (index: number) => ({ name: sheet.columns[index] ?? '', col: index });
  const fromIndex =
    choice.kind === 'matching' &&
    dialect.rows.readsCellsByRow &&
    cellColumns(plan).every((col) => sheet.indexedColumns.includes(col));
  const { groups, total } = yield* dialect.rows.aggregateRows(sheet.key, choice, {
    group: plan.group.map(column),
    aggregates: plan.aggregates.map(({ fn, index }) => ({
      fn,
      column: index === null ? null : column(index),
    })),
    sort: plan.sort,
    limit: plan.limit,
    offset: plan.offset,
    fromIndex,
    inIdOrder: sheet.rowsInIdOrder,
  });
  const rows = groups.map((group): Cell[] => [...group.cells, ...group.values]);
  return { total, rows };
}

/**
 * The columns an aggregate needs in a large sheet's cell index: those its filters read and,
 * where the rows are chosen through the index and the store can read the index by row, those
 * it groups and aggregates, so that their cells are read from it rather than from each row's
 * JSON, a tenth of the bytes. As with a filter, the first such aggregate puts them in.
 */
export function aggregateIndexColumns(dialect: Dialect, plan: AggregatePlan): number[] {
  const { selection } = plan;
  const filters = filterColumns(selection);
  const throughIndex = isFiltered(selection) && !('ids' in selection) && !('keys' in selection);
  return throughIndex && dialect.rows.readsCellsByRow
    ? [...filters, ...cellColumns(plan)]
    : filters;
}

/** The columns whose cells an aggregate reads. */
function cellColumns(plan: AggregatePlan): number[] {
  const aggregated = plan.aggregates.flatMap(({ index }) => (index === null ? [] : [index]));
  return [...new Set([...plan.group, ...aggregated])];
}

/**
 * The rows to aggregate, chosen as a read's are: all of them, those an indexed sheet's cell
 * index finds, or (on a small sheet, filtered in memory as its reads are) their positions.
 */
function* rowChoice(dialect: Dialect, sheet: SheetRecord, plan: AggregatePlan): DbWork<RowChoice> {
  const read = { selection: plan.selection, sort: [], limit: null, offset: 0 };
  const chosen = yield* chooseRows(dialect, sheet, {
    ...read,
    withIds: false,
    withKeys: false,
    fields: null,
  });
  switch (chosen.kind) {
    case 'range':
      return { kind: 'all' };
    case 'matching':
      return { kind: 'matching', selection: chosen.selection };
    case 'list':
      return { kind: 'positions', positions: chosen.positions };
  }
}

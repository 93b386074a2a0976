import type { Cell } from '../cells/cell.ts';
import type { AggregatePlan } from '../query/plan-aggregate.ts';
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
 * aggregated, sorted and paged by the database in one statement over their stored JSON. Only
 * the page of groups comes back, however many groups there are.
 */
export function* aggregateRows(
  dialect: Dialect,
  sheet: SheetRecord,
  plan: AggregatePlan,
): DbWork<Groups> {
  const choice = yield* rowChoice(dialect, sheet, plan);
  const column = (index: number) => sheet.columns[index] ?? '';
  const { groups, total } = yield* dialect.aggregateRows(sheet.key, choice, {
    group: plan.group.map(column),
    aggregates: plan.aggregates.map(({ fn, index }) => ({
      fn,
      column: index === null ? null : column(index),
    })),
    sort: plan.sort,
    limit: plan.limit,
    offset: plan.offset,
  });
  const rows = groups.map((group): Cell[] => [
    ...group.cells.map((cell) => (cell === null ? null : (JSON.parse(cell) as Cell))),
    ...group.values,
  ]);
  return { total, rows };
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

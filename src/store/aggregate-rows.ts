import type { Cell } from '../cells/cell.ts';
import type { AggregatePlan, GroupOrder } from '../query/plan-aggregate.ts';
import { compareForSort } from '../query/sort-rows.ts';
import type { DbWork } from './db-work.ts';
import type { Dialect, SheetRecord } from './dialect.ts';
import { chooseRows } from './read-rows.ts';
import type { RowChoice } from './sql/aggregate-sql.ts';

/** Groups as answered: how many there are before paging, and the page, one row of cells each. */
export interface Groups {
  total: number;
  /** Each group's cells: the group columns' cells, then the aggregates' values. */
  rows: Cell[][];
}

/**
 * Answers `_group` and `_agg`: the rows are chosen as a read chooses them, and grouped and
 * aggregated by the database in one statement over their stored JSON. Only the groups come back:
 * they are sorted (by `_sort`, else in the order their first row has) and paged here.
 */
export function* aggregateRows(
  dialect: Dialect,
  sheet: SheetRecord,
  plan: AggregatePlan,
): DbWork<Groups> {
  const choice = yield* rowChoice(dialect, sheet, plan);
  const column = (index: number) => sheet.columns[index] ?? '';
  const found = yield* dialect.aggregateRows(sheet.key, choice, {
    group: plan.group.map(column),
    aggregates: plan.aggregates.map(({ fn, index }) => ({
      fn,
      column: index === null ? null : column(index),
    })),
  });
  const rows = found.map((group): Cell[] => [
    ...group.cells.map((cell) => (cell === null ? null : (JSON.parse(cell) as Cell))),
    ...group.values,
  ]);
  const sorted = plan.sort.length === 0 ? rows : sortGroups(rows, plan.sort);
  const end = plan.limit === null ? undefined : plan.offset + plan.limit;
  return { total: sorted.length, rows: sorted.slice(plan.offset, end) };
}

/**
 * The rows to aggregate, chosen as a read's are: all of them, those an indexed sheet's cell
 * index finds, or (on a small sheet, filtered in memory as its reads are) their positions.
 */
function* rowChoice(dialect: Dialect, sheet: SheetRecord, plan: AggregatePlan): DbWork<RowChoice> {
  const read = { selection: plan.selection, sort: [], limit: null, offset: 0 };
  const chosen = yield* chooseRows(dialect, sheet, { ...read, withIds: false, fields: null });
  switch (chosen.kind) {
    case 'range':
      return { kind: 'all' };
    case 'matching':
      return { kind: 'matching', selection: chosen.selection };
    case 'list':
      return { kind: 'positions', positions: chosen.positions };
  }
}

/**
 * Groups in `_sort` order: each key in turn, by the order of `_sort` on rows (numbers first, by
 * value, then text by code point), a descending one reversed, and empty cells and aggregates
 * with no value last either way. Groups equal on every key keep the order of their first rows.
 */
export function sortGroups(rows: Cell[][], sort: GroupOrder[]): Cell[][] {
  return [...rows].sort((a, b) => {
    for (const { key, descending } of sort) {
      const x = a[key] ?? null;
      const y = b[key] ?? null;
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const order = compareForSort(x, y);
      if (order !== 0) return descending ? -order : order;
    }
    return 0;
  });
}

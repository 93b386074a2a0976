import { Problem } from '../errors/problem.ts';
import type { AggregateFunction } from './parse-aggregate.ts';
import type { RowQuery } from './parse-row-query.ts';
import { columnIndex, planSelection, type Selection, type SheetShape } from './plan.ts';

/** One aggregate as planned: its column's index (null for `count()`) and its answer's key. */
export interface PlannedAggregate {
  fn: AggregateFunction;
  index: number | null;
  expression: string;
}

/** A sort of groups: by the n-th key of a group's answer (group columns, then aggregates). */
export interface GroupOrder {
  key: number;
  descending: boolean;
}

/**
 * `_group` and `_agg` checked against a sheet: the rows chosen as a read chooses them, grouped by
 * the columns of `group` (by index), each group answering `aggregates`; then the groups sorted
 * and paged. An answer's keys are the group columns' names, then the aggregates' expressions.
 */
export interface AggregatePlan {
  selection: Selection;
  group: number[];
  aggregates: PlannedAggregate[];
  /** The keys of each group's answer, in order. */
  keys: string[];
  sort: GroupOrder[];
  limit: number | null;
  offset: number;
}

/** Whether a request asks for groups and aggregates rather than rows. */
export function asksForAggregates(query: RowQuery): boolean {
  return query.group !== null || query.aggregates !== null;
}

export function planAggregate(sheet: SheetShape, query: RowQuery): AggregatePlan {
  const groupColumns = query.group ?? [];
  const aggregates = (query.aggregates ?? []).map((aggregate): PlannedAggregate => ({
    fn: aggregate.fn,
    index: aggregate.column === null ? null : columnIndex(sheet, aggregate.column),
    expression: aggregate.expression,
  }));
  const group = groupColumns.map((column) => columnIndex(sheet, column));
  const clash = aggregates.find((aggregate) => groupColumns.includes(aggregate.expression));
  if (clash !== undefined) {
    throw new Problem(
      'invalid-parameter',
      `"${clash.expression}" names both a group column and an aggregate, which an answer cannot tell apart.`,
      { parameter: '_agg' },
    );
  }
  const keys = [...groupColumns, ...aggregates.map((aggregate) => aggregate.expression)];
  const sort = query.sort.map(({ column, written, descending }): GroupOrder => {
    // An aggregate is named as written; a group column by its name, escapes undone.
    const at = aggregates.findIndex((aggregate) => aggregate.expression === written);
    if (at >= 0) return { key: groupColumns.length + at, descending };
    const key = groupColumns.indexOf(column);
    if (key >= 0) return { key, descending };
    throw new Problem(
      'invalid-parameter',
      `_sort=${written ?? column} names neither a group column nor an aggregate of this request: groups sort by ${keys.map((k) => `"${k}"`).join(', ')}.`,
      { parameter: '_sort' },
    );
  });
  return {
    selection: planSelection(sheet, query),
    group,
    aggregates,
    keys,
    sort,
    limit: query.limit,
    offset: query.offset,
  };
}

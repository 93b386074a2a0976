/**
 * The query of the "summarise" view: `_group` and `_agg` written as the API reads them, each
 * column name escaped, after the filter bar's own query; and the bars of its chart.
 */

export const aggregateFunctions = ['count', 'count_distinct', 'sum', 'avg', 'min', 'max'] as const;
export type AggregateFunction = (typeof aggregateFunctions)[number];

/** An aggregate as chosen: a function and its column, none for `count()` (rows). */
export interface AggregateChoice {
  fn: AggregateFunction;
  column: string | null;
}

/** A column name as `_group` and `_agg` take it: `,`, `(`, `)` and `\` escaped with `\`. */
export const escapeColumn = (column: string): string => column.replace(/[\\,()]/g, (c) => `\\${c}`);

/** An aggregate's expression, which also names it in each group of the answer. */
export const expressionOf = ({ fn, column }: AggregateChoice): string =>
  `${fn}(${column === null ? '' : escapeColumn(column)})`;

/**
 * The query string: the filter bar's (`filters`, already encoded), then `_group` and `_agg`.
 * Repeated aggregates are asked once, as the API refuses them twice.
 */
export function summaryQueryString(
  filters: string,
  group: string[],
  aggregates: AggregateChoice[],
): string {
  const params = new URLSearchParams();
  if (group.length > 0) params.set('_group', group.map(escapeColumn).join(','));
  const expressions = [...new Set(aggregates.map(expressionOf))];
  if (expressions.length > 0) params.set('_agg', expressions.join(','));
  const own = params.toString();
  return [filters, own].filter((part) => part !== '').join('&');
}

/** One bar: the group it stands for, its value, and its length as a share of the longest. */
export interface Bar {
  label: string;
  value: number | null;
  share: number;
}

/**
 * The bars of the chart: the first aggregate of each group, labelled by its group columns.
 * Lengths are shares of the largest magnitude; a group with no value has an empty bar.
 */
export function barsOf(
  groups: Record<string, unknown>[],
  group: string[],
  expression: string,
): Bar[] {
  const values = groups.map((row) => {
    const value = row[expression];
    return typeof value === 'number' ? value : null;
  });
  const largest = Math.max(0, ...values.map((value) => Math.abs(value ?? 0)));
  return groups.map((row, i) => {
    const value = values[i] ?? null;
    return {
      label:
        group.length === 0 ? 'All rows' : group.map((column) => labelOf(row[column])).join(' · '),
      value,
      share: value === null || largest === 0 ? 0 : Math.abs(value) / largest,
    };
  });
}

function labelOf(cell: unknown): string {
  if (cell === null || cell === undefined) return '(empty)';
  return String(cell);
}

import type { Cell } from '../../cells/cell.ts';
import type { AggregateFunction } from '../../query/parse-aggregate.ts';
import type { Filtering } from '../../query/plan.ts';
import { selectionRids, SqlParams } from '../row-sets.ts';
import { documentSource, entrySource, type ChosenRows, type SpecColumn } from './cell-sources.ts';
import type { Flavor } from './sql.ts';
export type { CellReading, NumericFunction } from './cell-reading.ts';
export type { SpecColumn } from './cell-sources.ts';

/** Which of a sheet's rows are aggregated. */
export type RowChoice =
  | { kind: 'all' }
  | { kind: 'positions'; positions: number[] }
  | { kind: 'matching'; selection: Filtering };

/**
 * What a statement groups and computes, and the page of groups it answers: sorted by `sort`
 * (keys of the answer: group columns, then aggregates), then by their first row.
 */
export interface GroupSpec {
  group: SpecColumn[];
  aggregates: { fn: AggregateFunction; column: SpecColumn | null }[];
  sort: { key: number; descending: boolean }[];
  limit: number | null;
  offset: number;
  /**
   * Whether the cells are read from the cell index, by row (which must hold every column
   * named, and the dialect be able to: `Flavor.entryReading`), rather than from the rows' JSON.
   */
  fromIndex: boolean;
  /** Whether the sheet's rows are in the order of their ids (`SheetRecord.rowsInIdOrder`). */
  inIdOrder: boolean;
}

/** One group as the database answers it: each group column's cell, and each aggregate's value. */
export interface GroupRow {
  cells: Cell[];
  values: (number | null)[];
}

/** A page of groups, and how many groups there are before paging. */
export interface GroupPage {
  groups: GroupRow[];
  total: number;
}

/** Positions are 32-bit in both stores: no page of groups is longer. */
const allGroups = 2 ** 31 - 1;

/**
 * One statement that groups the chosen rows, computes every aggregate, sorts the groups and
 * answers a page of them: the cells each needs are read once per row, in a subquery, from the
 * row's JSON or the cell index (see cell-sources.ts); `sum`, `avg`, `min` and `max` see number
 * cells only. Without `_sort`, groups come in the order their first row has in the sheet.
 * Sorting is `_sort`'s on rows: numbers by value before any other cell by its text, reversed
 * when descending, empty cells and aggregates with no value last either way. With `counting`,
 * it answers only how many groups there are.
 */
export function aggregateStatement(
  flavor: Flavor,
  key: number,
  choice: RowChoice,
  spec: GroupSpec,
  counting = false,
): {
  text: string;
  values: unknown[];
  read: (row: Record<string, unknown>) => GroupRow & { total: number };
} {
  const p = new SqlParams((n) => `$${n}`);
  const source = spec.fromIndex
    ? entrySource(flavor, key, p, spec.inIdOrder)
    : documentSource(flavor, key, p);
  const picked: string[] = [];
  const cellColumns = new Map<number, string>();
  const numberColumns = new Map<number, string>();
  const textColumns = new Map<number, string>();
  const cellOf = (column: SpecColumn) =>
    named(cellColumns, column.col, 'c', (alias) =>
      picked.push(`${source.cell(column)} AS ${alias}`),
    );
  const numberOf = (column: SpecColumn) =>
    named(numberColumns, column.col, 'n', (alias) =>
      picked.push(`${source.number(column)} AS ${alias}`),
    );
  const textOf = (column: SpecColumn) =>
    named(textColumns, column.col, 't', (alias) =>
      picked.push(`${source.text(column)} AS ${alias}`),
    );
  const groups = spec.group.map(cellOf);
  const aggregates = spec.aggregates.map(({ fn, column }) => {
    if (column === null) return 'count(*)';
    switch (fn) {
      case 'count':
        return `count(${cellOf(column)})`;
      case 'count_distinct':
        return `count(DISTINCT ${cellOf(column)})`;
      default:
        return flavor.cellReading.numeric(fn, numberOf(column));
    }
  });
  const order = spec.sort.flatMap(({ key: at, descending }) => {
    const desc = descending ? ' DESC' : '';
    const aggregate = aggregates[at - groups.length];
    if (aggregate !== undefined) return [`(${aggregate}) IS NULL`, `${aggregate}${desc}`];
    const column = spec.group[at] ?? { name: '', col: -1 };
    // Constant within a group: min() only lets the sort name them.
    const [number, text] = [`min(${numberOf(column)})`, `min(${textOf(column)})`];
    return [
      `${groups[at] ?? ''} IS NULL`,
      `${number} IS NULL${desc}`,
      `${number}${desc}`,
      `${text}${desc}`,
    ];
  });
  const where = rowCondition(flavor, key, choice, p);
  const from = `FROM (
      SELECT ${['pos', ...picked].join(', ')}
      ${source.from(where)}
    ) AS picked${groups.length === 0 ? '' : ` GROUP BY ${groups.join(', ')}`}`;
  const columns = [
    ...groups.map((g, i) => `${g} AS g${i}`),
    ...aggregates.map((aggregate, i) => `${aggregate} AS a${i}`),
    'count(*) OVER () AS total',
  ];
  const text = counting
    ? `SELECT count(*) AS total FROM (SELECT 1 AS one ${from}) AS grouped`
    : `SELECT ${columns.join(', ')} ${from}
    ORDER BY ${[...order, 'min(pos)'].join(', ')}
    LIMIT ${p.add(spec.limit ?? allGroups)} OFFSET ${p.add(spec.offset)}`;
  return {
    text,
    values: p.values,
    read: (row) => ({
      cells: groups.map((_, i) => source.decode(row[`g${i}`] ?? null)),
      total: Number(row.total),
      values: spec.aggregates.map((_, i) => {
        // PostgreSQL answers counts as bigint text; a sum past a double's range has no value.
        const value = Number(row[`a${i}`] ?? Number.NaN);
        return Number.isFinite(value) ? value : null;
      }),
    }),
  };
}

/** The alias a column's reading has in the subquery, added the first time it is asked for. */
function named(
  aliases: Map<number, string>,
  column: number,
  prefix: string,
  add: (alias: string) => void,
): string {
  let alias = aliases.get(column);
  if (alias === undefined) {
    alias = `${prefix}${aliases.size}`;
    aliases.set(column, alias);
    add(alias);
  }
  return alias;
}

function rowCondition(flavor: Flavor, key: number, choice: RowChoice, p: SqlParams): ChosenRows {
  switch (choice.kind) {
    case 'all':
      return { condition: '', byRid: '', included: null };
    case 'positions': {
      const n = p.values.length + 1;
      p.add(flavor.list(choice.positions));
      return { condition: ` AND ${flavor.oneOf('pos', n, 'int')}`, byRid: '', included: null };
    }
    case 'matching':
      return {
        ...selectionRids(choice.selection, key, flavor.entries, p),
        byRid: flavor.rowsByRid,
      };
  }
}

import { foldCase } from '../query/match-text.ts';
import type { FilterValue } from '../query/parse-filter.ts';
import type { Filtering, PlannedFilter } from '../query/plan.ts';

/**
 * Filters on an indexed sheet as sets of row ids, combined in SQL. A filter is either the rows
 * its index entries point at (`include`), or every row but those (`exclude`): `name=__ne(Ann)`
 * and `note=` (empty) are the rows the index does NOT find, since empty cells have no entries.
 * AND and OR become INTERSECT, EXCEPT and UNION of subqueries, which SQLite and PostgreSQL both
 * read; only the conditions on a column's entries are written per dialect (`EntryConditions`).
 */
export type RowSet = { include: string } | { exclude: string };

/**
 * Conditions on the entries of the cell index (`cells`: sheet, col, rid and a dialect's value
 * columns), in a dialect's SQL, with values added to `p`.
 */
export interface EntryConditions {
  /** Entries equal to one of `values`, none of them empty. */
  equal(values: FilterValue[], p: SqlParams): string;
  /** Entries whose text, case folded, is `folded`. */
  foldedEqual(folded: string, p: SqlParams): string;
  /** Entries whose text a wildcard pattern (`*` for any run) matches, as typed. */
  like(pattern: string, p: SqlParams): string;
  /** The same, on the case folded text, for a case folded pattern. */
  foldedLike(pattern: string, p: SqlParams): string;
  /** Entries within one bound: numbers for a number, text and dates for text, never booleans. */
  bound(bound: BoundFilter, p: SqlParams): string;
  /** Entries whose shown text, case folded, contains `folded` (`_q`). */
  foldedContains(folded: string, p: SqlParams): string;
}

/** Placeholders for parameters, numbered as they are added, so text order does not matter. */
export class SqlParams {
  readonly values: unknown[] = [];

  constructor(private readonly mark: (n: number) => string) {}

  add(value: unknown): string {
    this.values.push(value);
    return this.mark(this.values.length);
  }
}

const compound = (a: string, op: string, b: string) =>
  `SELECT rid FROM (${a}) ${op} SELECT rid FROM (${b})`;

function and(a: RowSet, b: RowSet): RowSet {
  if ('include' in a && 'include' in b)
    return { include: compound(a.include, 'INTERSECT', b.include) };
  if ('exclude' in a && 'exclude' in b) return { exclude: compound(a.exclude, 'UNION', b.exclude) };
  const [include, exclude] =
    'include' in a
      ? [a.include, (b as { exclude: string }).exclude]
      : [(b as { include: string }).include, (a as { exclude: string }).exclude];
  return { include: compound(include, 'EXCEPT', exclude) };
}

function or(a: RowSet, b: RowSet): RowSet {
  if ('include' in a && 'include' in b) return { include: compound(a.include, 'UNION', b.include) };
  if ('exclude' in a && 'exclude' in b)
    return { exclude: compound(a.exclude, 'INTERSECT', b.exclude) };
  const [include, exclude] =
    'include' in a
      ? [a.include, (b as { exclude: string }).exclude]
      : [(b as { include: string }).include, (a as { exclude: string }).exclude];
  return { exclude: compound(exclude, 'EXCEPT', include) };
}

/** The complement of a set: what `__ne` and `__nin` are of `__eq` and `__in`. */
export function not(set: RowSet): RowSet {
  return 'include' in set ? { exclude: set.include } : { include: set.exclude };
}

/**
 * The rows a selection chooses, as a condition on `rid` to append to a WHERE clause
 * (` AND rid …`), or '' when it has no filter at all (every row).
 */
export function selectionCondition(
  selection: Filtering,
  key: number,
  entries: EntryConditions,
  p: SqlParams,
): string {
  const set = selectionSet(selection, key, entries, p);
  return set === null ? '' : ` AND ${ridCondition(set)}`;
}

/**
 * The rows a selection chooses, as `selectionCondition` (`condition`), and, where the index
 * finds them rather than the rows it leaves out, as a SELECT of their distinct `rid`s
 * (`included`), which a statement can start from instead of searching every id in a list.
 */
export function selectionRids(
  selection: Filtering,
  key: number,
  entries: EntryConditions,
  p: SqlParams,
): { condition: string; included: string | null } {
  const set = selectionSet(selection, key, entries, p);
  if (set === null) return { condition: '', included: null };
  const condition = ` AND ${ridCondition(set)}`;
  if (!('include' in set)) return { condition, included: null };
  // A search's entries are of every column: a row may have several. Set operations (`_or`, a
  // filter beside it) answer each row once already.
  const repeats = selection.search !== undefined;
  return {
    condition,
    included: repeats ? `SELECT DISTINCT rid FROM (${set.include})` : set.include,
  };
}

/**
 * The set of rows a selection chooses: every top-level filter, and at least one filter of each
 * `_or` group. Null when it has no filter at all (every row).
 */
function selectionSet(
  selection: Filtering,
  key: number,
  entries: EntryConditions,
  p: SqlParams,
): RowSet | null {
  const leaf = (filter: PlannedFilter) => filterSet(key, filter, entries, p);
  const range = (bounds: BoundFilter[]) => rangeSet(key, bounds, entries, p);
  const terms: RowSet[] = [];
  // Bounds on one column are one range of its index: `age=__gt(17)&age=__lt(19)` reads the
  // entries between 17 and 19, not every entry above 17 and every one below 19. A cell has one
  // entry, so the rows both bounds find are the rows whose entry is within both.
  const bounds = new Map<number, BoundFilter[]>();
  for (const filter of selection.filters) {
    if (isBound(filter)) bounds.set(filter.index, [...(bounds.get(filter.index) ?? []), filter]);
    else terms.push(leaf(filter));
  }
  for (const group of bounds.values()) terms.push(range(group));
  for (const alternatives of selection.any) {
    const sets = alternatives.map(leaf);
    if (sets.length > 0) terms.push(sets.reduce(or));
  }
  const { search } = selection;
  if (search !== undefined) {
    // Every column is indexed for a search, so the sheet's entries are all there is to read.
    terms.push({
      include: `SELECT rid FROM cells WHERE sheet = ${p.add(key)} AND ${entries.foldedContains(search.folded, p)}`,
    });
  }
  return terms.length === 0 ? null : terms.reduce(and);
}

/** The rows of an indexed sheet that one filter chooses. */
function filterSet(
  key: number,
  filter: PlannedFilter,
  conditions: EntryConditions,
  p: SqlParams,
): RowSet {
  // A bound reads a range of its own, and must add no parameter here that it would leave unused
  // (PostgreSQL cannot type a parameter no statement text reads).
  if (isBound(filter)) return rangeSet(key, [filter], conditions, p);
  const entries = `SELECT rid FROM cells WHERE sheet = ${p.add(key)} AND col = ${p.add(filter.index)}`;
  const where = (condition: string) => ({ include: `${entries} AND ${condition}` });
  const equal = (values: FilterValue[]): RowSet => {
    // An empty value stands for the empty cell, which has no entry.
    const given = values.filter((value) => value.text !== '');
    if (given.length === 0) return { exclude: entries };
    const found = where(conditions.equal(given, p));
    if (given.length === values.length) return found;
    return { exclude: `${entries} EXCEPT ${found.include}` };
  };
  switch (filter.op) {
    case 'eq':
      return equal([filter.value]);
    case 'ne':
      return filter.value.text === '' ? { include: entries } : not(equal([filter.value]));
    case 'in':
      return equal(filter.values);
    case 'nin':
      return not(equal(filter.values));
    case 'ieq':
      return where(conditions.foldedEqual(foldCase(filter.value.text), p));
    case 'like':
      return where(conditions.like(filter.pattern, p));
    case 'ilike':
      return where(conditions.foldedLike(foldCase(filter.pattern), p));
    default:
      throw new Error(`no index condition for ${filter.op}`);
  }
}

/** The rows of an indexed sheet whose cell in one column is within every one of `bounds`. */
function rangeSet(
  key: number,
  bounds: BoundFilter[],
  conditions: EntryConditions,
  p: SqlParams,
): RowSet {
  const col = bounds[0]?.index ?? 0;
  const within = bounds.map((bound) => conditions.bound(bound, p));
  return {
    include: `SELECT rid FROM cells WHERE sheet = ${p.add(key)} AND col = ${p.add(col)} AND ${within.join(' AND ')}`,
  };
}

/** The comparison a bound makes. */
export function boundSign(bound: BoundFilter): string {
  return { gt: '>', ge: '>=', lt: '<', le: '<=' }[bound.op];
}

/** The literal text before a wildcard pattern's first `*`: the range of the index it reads. */
export function literalPrefix(pattern: string): string {
  const star = pattern.indexOf('*');
  return star < 0 ? pattern : pattern.slice(0, star);
}

/** Whether a pattern's literal prefix could begin a number's text, so numbers must be matched. */
export function couldBeNumber(prefix: string): boolean {
  return prefix === '' || /^[-0-9.e+]+$/.test(prefix);
}

export type BoundFilter = PlannedFilter & { op: 'gt' | 'ge' | 'lt' | 'le' };

export function isBound(filter: PlannedFilter): filter is BoundFilter {
  return filter.op === 'gt' || filter.op === 'ge' || filter.op === 'lt' || filter.op === 'le';
}

/** A WHERE condition on `rid` for a set. */
function ridCondition(set: RowSet): string {
  return 'include' in set ? `rid IN (${set.include})` : `rid NOT IN (${set.exclude})`;
}

import type { PlannedFilter, Selection } from '../query/plan.ts';

/**
 * Filters on an indexed sheet as sets of row ids, combined in SQL. A filter is either the rows
 * its index entries point at (`include`), or every row but those (`exclude`): `name=__ne(Ann)`
 * and `note=` (empty) are the rows the index does NOT find, since empty cells have no entries.
 * AND and OR become INTERSECT, EXCEPT and UNION of subqueries, which SQLite and PostgreSQL both
 * read; only the leaves, a filter's own entries, are written per dialect.
 */
export type RowSet = { include: string } | { exclude: string };

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
 * The set of rows a selection chooses: every top-level filter, and at least one filter of each
 * `_or` group. Null when it has no filter at all (every row).
 */
export function selectionSet(
  selection: Exclude<Selection, { ids: number[] }>,
  leaf: (filter: PlannedFilter) => RowSet,
  range: (bounds: BoundFilter[]) => RowSet,
): RowSet | null {
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
  return terms.length === 0 ? null : terms.reduce(and);
}

export type BoundFilter = PlannedFilter & { op: 'gt' | 'ge' | 'lt' | 'le' };

export function isBound(filter: PlannedFilter): filter is BoundFilter {
  return filter.op === 'gt' || filter.op === 'ge' || filter.op === 'lt' || filter.op === 'le';
}

/** A WHERE condition on `rid` for a set. */
export function ridCondition(set: RowSet): string {
  return 'include' in set ? `rid IN (${set.include})` : `rid NOT IN (${set.exclude})`;
}

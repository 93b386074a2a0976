import { foldCase } from '../../query/match-text.ts';
import type { FilterValue } from '../../query/parse-filter.ts';
import type { PlannedFilter } from '../../query/plan.ts';
import type { CellEntry } from '../cell-index.ts';
import { isBound, not, type BoundFilter, type RowSet, type SqlParams } from '../row-sets.ts';

/**
 * How the cell index lives in PostgreSQL, whose columns have one type each: a number in `num`
 * (float8 holds every JavaScript number exactly), text, dates and booleans in `txt` (COLLATE
 * "C": byte order, as SQLite compares), `bool` set for booleans so that text ranges leave them
 * out, `folded` where a text's case folding differs from it, and `shown` for numbers: their
 * JavaScript text (`1e-7`, where PostgreSQL prints `1e-07`), which wildcards match.
 */
export interface PostgresEntry {
  num: number | null;
  txt: string | null;
  bool: boolean | null;
  folded: string | null;
  shown: string | null;
}

export function entryColumns(entry: CellEntry): PostgresEntry {
  switch (entry.kind) {
    case 'number':
      return { num: entry.number, txt: null, bool: null, folded: null, shown: entry.shown };
    case 'text':
      return { num: null, txt: entry.text, bool: null, folded: entry.folded, shown: null };
    case 'boolean':
      return { num: null, txt: entry.text, bool: true, folded: null, shown: null };
  }
}

const shown = 'coalesce(txt, shown)';
const folded = 'coalesce(folded, txt, shown)';

/** `*` is the only wildcard users write; LIKE's own `%`, `_` and `\` are matched literally. */
export function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
}

/** The rows of an indexed sheet that one filter chooses. */
export function filterSet(key: number, filter: PlannedFilter, p: SqlParams): RowSet {
  const entries = `SELECT rid FROM cells WHERE sheet = ${p.add(key)} AND col = ${p.add(filter.index)}`;
  const where = (condition: string) => ({ include: `${entries} AND ${condition}` });
  const equal = (values: FilterValue[]): RowSet => {
    // An empty value stands for the empty cell, which has no entry.
    const texts = values.filter((value) => value.text !== '').map((value) => value.text);
    if (texts.length === 0) return { exclude: entries };
    const numbers = values.flatMap((value) => (value.number === null ? [] : [value.number]));
    const found = where(
      `(txt = ANY(${p.add(texts)}::text[])${numbers.length === 0 ? '' : ` OR num = ANY(${p.add(numbers)}::float8[])`})`,
    );
    if (texts.length === values.length) return found;
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
      return where(`${folded} = ${p.add(foldCase(filter.value.text))}`);
    case 'like':
      return where(likeCondition(filter.pattern, p));
    case 'ilike':
      return where(`${folded} LIKE ${p.add(likePattern(foldCase(filter.pattern)))}`);
    default:
      if (!isBound(filter)) throw new Error(`no index condition for ${filter.op}`);
      return rangeSet(key, [filter], p);
  }
}

/** The rows of an indexed sheet whose cell in one column is within every one of `bounds`. */
export function rangeSet(key: number, bounds: BoundFilter[], p: SqlParams): RowSet {
  const col = bounds[0]?.index ?? 0;
  const conditions = bounds.map((bound) => {
    const sign = { gt: '>', ge: '>=', lt: '<', le: '<=' }[bound.op];
    const { text, number } = bound.value;
    if (number !== null) return `num ${sign} ${p.add(number)}`;
    // Text comparison covers text and dates; booleans are not text, though stored as such.
    return `txt ${sign} ${p.add(text)} AND bool IS NULL`;
  });
  return {
    include: `SELECT rid FROM cells WHERE sheet = ${p.add(key)} AND col = ${p.add(col)} AND ${conditions.join(' AND ')}`,
  };
}

/** Text by the index (a literal prefix is a range of it); numbers only if their text could match. */
function likeCondition(pattern: string, p: SqlParams): string {
  const like = p.add(likePattern(pattern));
  const prefix = pattern.slice(0, pattern.indexOf('*') < 0 ? undefined : pattern.indexOf('*'));
  if (prefix === '' || /^[-0-9.e+]+$/.test(prefix)) return `${shown} LIKE ${like}`;
  return `txt LIKE ${like}`;
}

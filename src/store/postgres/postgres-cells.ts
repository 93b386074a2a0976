import type { CellEntry } from '../cell-index.ts';
import { boundSign, couldBeNumber, literalPrefix, type EntryConditions } from '../row-sets.ts';

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
function likePattern(pattern: string): string {
  return pattern.replace(/[\\%_]/g, (c) => `\\${c}`).replaceAll('*', '%');
}

export const postgresEntries: EntryConditions = {
  equal(values, p) {
    const texts = values.map((value) => value.text);
    const numbers = values.flatMap((value) => (value.number === null ? [] : [value.number]));
    const byNumber = numbers.length === 0 ? '' : ` OR num = ANY(${p.add(numbers)}::float8[])`;
    return `(txt = ANY(${p.add(texts)}::text[])${byNumber})`;
  },
  foldedEqual: (text, p) => `${folded} = ${p.add(text)}`,
  // Text by the index (a literal prefix is a range of it); numbers only if their text could match.
  like: (pattern, p) =>
    `${couldBeNumber(literalPrefix(pattern)) ? shown : 'txt'} LIKE ${p.add(likePattern(pattern))}`,
  foldedLike: (pattern, p) => `${folded} LIKE ${p.add(likePattern(pattern))}`,
  // Written per partial index (text entries, number entries), so that on a store of many
  // sheets a search can read its sheet's entries through them rather than every sheet's.
  foldedContains: (text, p) =>
    `((txt IS NOT NULL AND strpos(coalesce(folded, txt), ${p.add(text)}) > 0) OR (num IS NOT NULL AND strpos(shown, ${p.add(text)}) > 0))`,
  bound(bound, p) {
    const { text, number } = bound.value;
    if (number !== null) return `num ${boundSign(bound)} ${p.add(number)}`;
    // Text comparison covers text and dates; booleans are not text, though stored as such.
    return `txt ${boundSign(bound)} ${p.add(text)} AND bool IS NULL`;
  },
};

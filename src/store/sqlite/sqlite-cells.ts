import type { CellEntry } from '../cell-index.ts';
import {
  boundSign,
  couldBeNumber,
  literalPrefix,
  type EntryConditions,
  type SqlParams,
} from '../row-sets.ts';

/**
 * How the cell index lives in SQLite: one `value` column without type affinity, so that numbers
 * sort before text and text before blobs, which makes every comparison one index range. Numbers
 * are INTEGER when they are safe integers (so they read back as "31") and REAL otherwise, with
 * `shown` holding JavaScript's text of them (`1e+21`), which SQLite would print otherwise.
 * Booleans are blobs of their text, beyond every text range, yet equal to `true` by bytes.
 * `folded` holds a text's case folding where it differs from the text.
 */
export type SqliteValue = string | number | bigint | Buffer | null;

export function entryValues(entry: CellEntry): [SqliteValue, SqliteValue, SqliteValue] {
  switch (entry.kind) {
    case 'number':
      return Number.isSafeInteger(entry.number)
        ? [BigInt(entry.number), null, null]
        : [entry.number, null, entry.shown];
    case 'text':
      return [entry.text, entry.folded, null];
    case 'boolean':
      return [Buffer.from(entry.text), null, null];
  }
}

/** The text a person sees in an entry, and its case folding. */
const shown = 'coalesce(shown, CAST(value AS TEXT))';
const folded = 'coalesce(folded, shown, CAST(value AS TEXT))';

/** A number as SQLite should compare it: integers as INTEGER, so 31 finds "31"'s twin exactly. */
function number(n: number): number | bigint {
  return Number.isSafeInteger(n) ? BigInt(n) : n;
}

/** `*` is the only wildcard users write; GLOB's own `?` and `[` are matched literally. */
function globPattern(pattern: string): string {
  return pattern.replace(/[?[]/g, (c) => `[${c}]`);
}

export const sqliteEntries: EntryConditions = {
  equal(values, p) {
    // A boolean's entry is the blob of 'true' or 'false': no other text can equal one, and
    // leaving its probe out spares most lookups a second search of the index.
    const list = values.flatMap(({ text, number: n }) => [
      p.add(text),
      ...(text === 'true' || text === 'false' ? [`CAST(${p.add(text)} AS BLOB)`] : []),
      ...(n === null ? [] : [p.add(number(n))]),
    ]);
    return `value IN (${list.join(', ')})`;
  },
  foldedEqual: (text, p) => `${folded} = ${p.add(text)}`,
  like: likeCondition,
  foldedLike: (pattern, p) => `${folded} GLOB ${p.add(globPattern(pattern))}`,
  foldedContains: (text, p) => `instr(${folded}, ${p.add(text)}) > 0`,
  bound(bound, p) {
    const sign = boundSign(bound);
    const { text, number: n } = bound.value;
    if (n !== null) {
      // Numbers sort before all text: an upper bound of '' keeps a range to numbers.
      const below = sign.startsWith('>') ? ` AND value < ''` : '';
      return `value ${sign} ${p.add(number(n))}${below}`;
    }
    // Text and dates: at least '' (above every number) and below X'' (below every boolean).
    return `value ${sign} ${p.add(text)} AND value >= '' AND value < X''`;
  },
};

/**
 * A wildcard: on text, a range of the index for the pattern's literal prefix, so `Jo*` reads
 * only the entries that start with "Jo"; numbers and booleans only where their text could match.
 */
function likeCondition(pattern: string, p: SqlParams): string {
  const glob = p.add(globPattern(pattern));
  const prefix = literalPrefix(pattern);
  if (prefix === '') return `${shown} GLOB ${glob}`;
  const parts = [
    `(value >= ${p.add(prefix)} AND value < CAST(${p.add(Buffer.concat([Buffer.from(prefix), Buffer.from([0xff])]))} AS TEXT) AND value GLOB ${glob})`,
  ];
  if (couldBeNumber(prefix)) parts.push(`(value < '' AND ${shown} GLOB ${glob})`);
  if ('true'.startsWith(prefix) || 'false'.startsWith(prefix)) {
    parts.push(`(value >= X'' AND CAST(value AS TEXT) GLOB ${glob})`);
  }
  return `(${parts.join(' OR ')})`;
}

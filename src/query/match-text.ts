/**
 * The three ways filters and sorts look at text, defined once so that every store agrees with
 * them: folding case, matching a `*` pattern, and ordering by code point.
 */

/**
 * Folds case for `__ieq` and `__ilike`: lower case, then upper case, then lower case again, by
 * Unicode's default full case mappings (as `toLowerCase`/`toUpperCase` apply them, whatever the
 * locale), and every final sigma `ς` written `σ`. So `ß`, `ẞ`, `SS` and `ss` fold alike, as do
 * `ς`, `σ` and `Σ`, and `ı`, `I` and `i`; `İ` folds to `i` followed by U+0307 (combining dot
 * above) and matches none of those. The first lower case is there for `ẞ`, which is already upper
 * case and would otherwise fold to `ß` rather than `ss`; the last step undoes the one mapping that
 * depends on the neighbouring letters. Folding thus works letter by letter (folding a text is
 * folding its pieces and joining them), which a pattern needs, and folding twice changes nothing.
 * No normalization: `é` and `e` + U+0301 stay different, as they are for `=`.
 */
export function foldCase(text: string): string {
  return text.toLowerCase().toUpperCase().toLowerCase().replaceAll('ς', 'σ');
}

/**
 * Whether `text` matches a wildcard `pattern`: `*` stands for any run of characters, line breaks
 * included, and every other character for itself, case and all. The first `*`-free piece must
 * start the text and the last end it; the ones between are taken at their first place in turn,
 * which never misses a match, so no backtracking is needed.
 */
export function matchesPattern(pattern: string, text: string): boolean {
  const pieces = pattern.split('*');
  const first = pieces[0] ?? '';
  if (pieces.length === 1) return text === first;
  const last = pieces[pieces.length - 1] ?? '';
  if (text.length < first.length + last.length) return false;
  if (!text.startsWith(first) || !text.endsWith(last)) return false;
  let from = first.length;
  const end = text.length - last.length;
  for (const piece of pieces.slice(1, -1)) {
    const at = text.indexOf(piece, from);
    if (at < 0 || at + piece.length > end) return false;
    from = at + piece.length;
  }
  return true;
}

/**
 * Orders text by Unicode code point, which is the byte order of UTF-8 and so the order of SQLite
 * and of PostgreSQL's "C" collation. JavaScript's `<` compares UTF-16 units instead, which puts
 * U+1F600 (two surrogate units, 0xD83D 0xDE00) before U+FFFF; ranking the units fixes that.
 * Negative, zero or positive, as `Array.prototype.sort` takes it.
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitRank(x) - unitRank(y);
  }
  return a.length - b.length;
}

/** Surrogates (the units of code points past U+FFFF) rank above U+E000..U+FFFF. */
function unitRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareText, foldCase, matchesPattern } from './match-text.ts';

test('foldCase folds by full Unicode case mappings, whatever the locale', () => {
  const table: [string, string][] = [
    ['', ''],
    ['Oslo', 'oslo'],
    ['OSLO', 'oslo'],
    ['straße', 'strasse'],
    ['STRASSE', 'strasse'],
    ['ß', 'ss'],
    ['ẞ', 'ss'],
    ['Σ', 'σ'],
    ['σ', 'σ'],
    ['ς', 'σ'],
    ['ΟΔΟΣ', 'οδοσ'],
    ['οδος', 'οδοσ'],
    ['ΟΔΟΣ ΑΒ', 'οδοσ αβ'],
    ['I', 'i'],
    ['ı', 'i'],
    ['İ', 'i\u0307'],
    ['İSTANBUL', 'i\u0307stanbul'],
    ['ﬁ', 'fi'],
    ['\u212a', 'k'],
    ['\u2126', 'ω'],
    ['ſ', 's'],
    ['ǅ', 'ǆ'],
    ['É', 'é'],
    ['E\u0301', 'e\u0301'],
    ['𐐀', '𐐨'],
    ['😀', '😀'],
    ['1E+21', '1e+21'],
    ['TRUE', 'true'],
    ['2023-01-01T08:30:00Z', '2023-01-01t08:30:00z'],
    ['A*B', 'a*b'],
    ['a\nB', 'a\nb'],
  ];
  for (const [text, folded] of table) {
    assert.equal(foldCase(text), folded, `foldCase(${JSON.stringify(text)})`);
    assert.equal(foldCase(folded), folded, `folding ${JSON.stringify(text)} twice`);
  }
  // Letter by letter: a pattern's pieces fold as they would inside a whole text.
  for (const [a] of table) {
    for (const [b] of table) {
      assert.equal(foldCase(a + b), foldCase(a) + foldCase(b), `foldCase of ${a} then ${b}`);
    }
  }
});

test('matchesPattern: * is any run of characters, everything else itself', () => {
  const table: [string, string, boolean][] = [
    ['', '', true],
    ['', 'a', false],
    ['a', 'a', true],
    ['a', 'A', false],
    ['a', 'ab', false],
    ['*', '', true],
    ['*', 'anything\nat all', true],
    ['**', '', true],
    ['Jo*', 'Joan', true],
    ['Jo*', 'Jo', true],
    ['Jo*', 'jo', false],
    ['*son', 'Johnson', true],
    ['*son', 'son', true],
    ['*son', 'so', false],
    ['J*n', 'Joan', true],
    ['J*n', 'Jn', true],
    ['J*n', 'J', false],
    ['J*n', 'Jon!', false],
    ['a*a', 'a', false],
    ['a*a', 'aa', true],
    ['ab*ba', 'aba', false],
    ['ab*ba', 'abba', true],
    ['a**b', 'ab', true],
    ['*a*', 'bab', true],
    ['*a*', 'bbb', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['*b*b*', 'abab', true],
    ['*b*b*', 'ab', false],
    ['x*x*x', 'xx', false],
    ['x*x*x', 'xxx', true],
    ['x*yz*x', 'xyzyzx', true],
    ['*\n*', 'a\nb', true],
    ['a*', 'a\n\nb', true],
    ['a?b', 'a?b', true],
    ['a?b', 'axb', false],
    ['[z]', '[z]', true],
    ['[z]', 'z', false],
    ['%', '%', true],
    ['%', 'x', false],
    ['_', 'x', false],
    ['a\\*', 'a\\x', true],
    ['a\\*', 'a*', false],
    ['.*', 'ab', false],
    ['😀*', '😀x', true],
    ['*😀', 'x😀', true],
    ['*\u{1F600}*', '\uD83D', false],
    ['Zo*', 'Zoë', true],
  ];
  for (const [pattern, text, matches] of table) {
    assert.equal(
      matchesPattern(pattern, text),
      matches,
      `matchesPattern(${JSON.stringify(pattern)}, ${JSON.stringify(text)})`,
    );
  }
});

test('compareText orders by code point, which is UTF-8 byte order', () => {
  const table: [string, string, -1 | 0 | 1][] = [
    ['a', 'a', 0],
    ['', '', 0],
    ['a', 'b', -1],
    ['b', 'a', 1],
    ['', 'a', -1],
    ['a', 'ab', -1],
    ['B', 'a', -1],
    ['Z', 'a', -1],
    ['10', '9', -1],
    ['é', 'z', 1],
    ['ß', 'ss', 1],
    ['Zoë', 'Zoe', 1],
    ['\uD7FF', '\uE000', -1],
    ['\uFFFF', '\u{1F600}', -1],
    ['\u{1F600}', '\uFFFF', 1],
    ['\uE000', '\u{10000}', -1],
    ['\u{FFFD}', '\u{10000}', -1],
    ['\u{1F600}', '\u{1F601}', -1],
    ['\u{10FFFF}', '\u{1F600}', 1],
    ['a\u{1F600}', 'a\uFFFF', 1],
    ['2021-03-01', '2021-03-01T00:00:00Z', -1],
    ['2019-11-20', '2021-03-01', -1],
    ['false', 'true', -1],
  ];
  for (const [a, b, sign] of table) {
    const name = `compareText(${JSON.stringify(a)}, ${JSON.stringify(b)})`;
    assert.equal(Math.sign(compareText(a, b)), sign, name);
    assert.equal(Buffer.compare(Buffer.from(a), Buffer.from(b)), sign, `${name} in UTF-8`);
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nestingPast } from './json-body.ts';

test('nesting is counted over brackets outside strings, in one pass', () => {
  const cases: [string, number, boolean][] = [
    ['{"a":1}', 1, false],
    ['[{"a":1}]', 1, true],
    ['[{"a":1}]', 2, false],
    ['{"a":"[[[[[[{{{{"}', 1, false],
    ['{"a":"\\"[[[["}', 1, false],
    ['{"a\\\\":[[1]]}', 2, true],
    [`${'['.repeat(5000)}${']'.repeat(5000)}`, 32, true],
    [`${'['.repeat(32)}${']'.repeat(32)}`, 32, false],
    ['[][][][][]', 1, false],
  ];
  for (const [text, max, past] of cases) {
    assert.equal(nestingPast(text, max), past, `${text.slice(0, 40)} within ${max}`);
  }
});

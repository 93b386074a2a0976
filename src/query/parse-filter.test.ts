import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseFilter, type Filter } from './parse-filter.ts';

const value = (text: string, number: number | null = null) => ({ text, number });

test('filter texts parse into equality, wildcard and operator filters', () => {
  const table: [string, Filter][] = [
    ['Ann', { column: 'c', op: 'eq', value: value('Ann') }],
    ['31', { column: 'c', op: 'eq', value: value('31', 31) }],
    ['-2.5', { column: 'c', op: 'eq', value: value('-2.5', -2.5) }],
    ['031', { column: 'c', op: 'eq', value: value('031') }],
    ['31.0', { column: 'c', op: 'eq', value: value('31.0') }],
    ['__eq(31.0)', { column: 'c', op: 'eq', value: value('31.0', 31) }],
    ['', { column: 'c', op: 'eq', value: value('') }],
    ['Jo*', { column: 'c', op: 'like', pattern: 'Jo*' }],
    ['*son', { column: 'c', op: 'like', pattern: '*son' }],
    ['*', { column: 'c', op: 'like', pattern: '*' }],
    ['__gt(30)', { column: 'c', op: 'gt', value: value('30', 30) }],
    ['__ge(1.50)', { column: 'c', op: 'ge', value: value('1.50', 1.5) }],
    ['__lt(M)', { column: 'c', op: 'lt', value: value('M') }],
    ['__le(2024-01-01)', { column: 'c', op: 'le', value: value('2024-01-01') }],
    ['__eq(a*b)', { column: 'c', op: 'eq', value: value('a*b') }],
    ['__ne()', { column: 'c', op: 'ne', value: value('') }],
    ['__eq(f(x))', { column: 'c', op: 'eq', value: value('f(x)') }],
    ['__init__', { column: 'c', op: 'eq', value: value('__init__') }],
    ['1e3', { column: 'c', op: 'eq', value: value('1e3') }],
    ['+5', { column: 'c', op: 'eq', value: value('+5') }],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseFilter('c', raw), expected, `parseFilter(${JSON.stringify(raw)})`);
  }
});

test('malformed operator filters are refused with what was expected', () => {
  const table: [string, RegExp][] = [
    ['__gte(3)', /Unknown operator "__gte".*expected one of __eq\(\.\.\.\), __ne/],
    ['__(3)', /Unknown operator "__"/],
    ['__GT(3)', /Unknown operator "__GT"/],
    ['__gt(30', /missing its closing parenthesis: expected __gt\(<value>\)/],
    ['__gt()', /has no value to compare with: expected __gt\(<value>\)/],
    ['__lt()', /no value/],
  ];
  for (const [raw, message] of table) {
    assert.throws(
      () => parseFilter('age', raw),
      (error: unknown) =>
        error instanceof Problem && error.code === 'invalid-filter' && message.test(error.message),
      `parseFilter(${JSON.stringify(raw)})`,
    );
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseAggregates, parseGroup, type Aggregate } from './parse-aggregate.ts';
import { parseRowQuery } from './parse-row-query.ts';

const agg = (fn: Aggregate['fn'], column: string | null, expression: string): Aggregate => ({
  fn,
  column,
  expression,
});

test('_agg texts parse into functions, columns and the expressions as written', () => {
  const table: [string, Aggregate[]][] = [
    ['count()', [agg('count', null, 'count()')]],
    ['count(city)', [agg('count', 'city', 'count(city)')]],
    [
      'count(),sum(price),avg(price)',
      [
        agg('count', null, 'count()'),
        agg('sum', 'price', 'sum(price)'),
        agg('avg', 'price', 'avg(price)'),
      ],
    ],
    ['count_distinct(city)', [agg('count_distinct', 'city', 'count_distinct(city)')]],
    ['min(a b),max(Zoë)', [agg('min', 'a b', 'min(a b)'), agg('max', 'Zoë', 'max(Zoë)')]],
    ['sum(a\\,b)', [agg('sum', 'a,b', 'sum(a\\,b)')]],
    ['sum(f\\(x\\))', [agg('sum', 'f(x)', 'sum(f\\(x\\))')]],
    ['sum(a\\\\b)', [agg('sum', 'a\\b', 'sum(a\\\\b)')]],
    ['sum(😀),count()', [agg('sum', '😀', 'sum(😀)'), agg('count', null, 'count()')]],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseAggregates(raw), expected, `parseAggregates(${JSON.stringify(raw)})`);
  }
});

test('malformed _agg texts are refused with the position at fault', () => {
  const table: [string, RegExp, number][] = [
    ['', /has an empty aggregate/, 0],
    ['count(),', /has an empty aggregate/, 8],
    ['sum', /has "sum", which has no "\("/, 0],
    [
      'count(),total(x)',
      /names the function "total" at position 8, which does not exist: the functions are count, count_distinct, sum, avg, min, max/,
      8,
    ],
    ['SUM(x)', /names the function "SUM"/, 0],
    ['sum(x', /has "sum\(x", which has no closing "\)"/, 5],
    ['sum(x)y', /goes on after its "\)"/, 6],
    ['sum(f(x))', /with a "\(" in its column/, 5],
    ['sum()', /sum\(\) with no column/, 4],
    ['sum(a\\b)', /backslash followed by "b" at position 5/, 5],
    ['sum(a)\\', /backslash followed by nothing/, 6],
    ['count(),count()', /asks for count\(\) twice/, -1],
    [
      Array.from({ length: 65 }, (_, i) => `sum(c${i})`).join(','),
      /asks for 65 aggregates; at most 64 are taken/,
      -1,
    ],
  ];
  for (const [raw, message, position] of table) {
    assert.throws(
      () => parseAggregates(raw),
      (error: unknown) =>
        error instanceof Problem &&
        error.code === 'invalid-parameter' &&
        message.test(error.detail) &&
        (position < 0 || error.extensions.position === position),
      `parseAggregates(${JSON.stringify(raw)})`,
    );
  }
});

test('an unknown function is answered with the list of functions', () => {
  try {
    parseAggregates('median(x)');
    assert.fail('median was accepted');
  } catch (error) {
    assert.ok(error instanceof Problem);
    assert.deepEqual(error.extensions.functions, [
      'count',
      'count_distinct',
      'sum',
      'avg',
      'min',
      'max',
    ]);
  }
});

test('_group texts split into columns, escapes undone', () => {
  const table: [string, string[]][] = [
    ['city', ['city']],
    ['city,year', ['city', 'year']],
    ['a\\,b,c', ['a,b', 'c']],
    ['f(x)', ['f(x)']],
    ['f\\(x\\)', ['f(x)']],
    ['a\\\\', ['a\\']],
    [' spaced ', [' spaced ']],
  ];
  for (const [raw, expected] of table) {
    assert.deepEqual(parseGroup(raw), expected, `parseGroup(${JSON.stringify(raw)})`);
  }
});

test('malformed _group texts are refused with the position at fault', () => {
  const table: [string, RegExp, number][] = [
    ['', /names no column at position 0/, 0],
    ['a,', /names no column at position 2/, 2],
    ['a,,b', /names no column at position 2/, 2],
    ['a,a', /names "a" twice/, 2],
    ['a\\b', /backslash followed by "b" at position 1/, 1],
    [Array.from({ length: 33 }, (_, i) => `c${i}`).join(','), /names 33 columns; at most 32/, -1],
  ];
  for (const [raw, message, position] of table) {
    assert.throws(
      () => parseGroup(raw),
      (error: unknown) =>
        error instanceof Problem &&
        error.code === 'invalid-parameter' &&
        message.test(error.detail) &&
        (position < 0 || error.extensions.position === position),
      `parseGroup(${JSON.stringify(raw)})`,
    );
  }
});

test('_sort of groups takes aggregate expressions as written, escapes and all', () => {
  const query = parseRowQuery({
    _group: 'a\\,b',
    _agg: 'sum(x\\,y)',
    _sort: '-sum(x\\,y),a\\,b',
  });
  assert.deepEqual(query.sort, [
    { column: 'sum(x,y)', written: 'sum(x\\,y)', descending: true },
    { column: 'a,b', written: 'a\\,b', descending: false },
  ]);
});

test('_q is kept as typed; an empty one asks for every row', () => {
  assert.equal(parseRowQuery({ _q: 'ÉCOLE' }).search, 'ÉCOLE');
  assert.equal(parseRowQuery({ _q: '' }).search, null);
  assert.equal(parseRowQuery({}).search, null);
});

test('_fields and _with_id do not combine with aggregates; _id does not combine with _q', () => {
  const table: Record<string, string>[] = [
    { _group: 'city', _fields: 'city' },
    { _agg: 'count()', _fields: 'city' },
    { _agg: 'count()', _with_id: 'true' },
    { _id: '1', _q: 'x' },
    { _q: '\u0000' },
  ];
  for (const query of table) {
    assert.throws(
      () => parseRowQuery(query),
      (error: unknown) => error instanceof Problem && error.code === 'invalid-parameter',
      JSON.stringify(query),
    );
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem, type ProblemCode } from '../errors/problem.ts';
import { parseRowQuery, type QueryString } from './parse-row-query.ts';

test('reserved parameters and filters are told apart', () => {
  const query = parseRowQuery({
    name: 'Ann',
    age: ['__gt(1)', '__lt(9)'],
    _limit: '5',
    _offset: '10',
    _sort: 'name,-age',
  });
  assert.deepEqual(
    query.filters.map((f) => [f.column, f.op]),
    [
      ['name', 'eq'],
      ['age', 'gt'],
      ['age', 'lt'],
    ],
  );
  assert.equal(query.ids, null);
  assert.equal(query.limit, 5);
  assert.equal(query.offset, 10);
  assert.deepEqual(query.sort, [
    { column: 'name', descending: false },
    { column: 'age', descending: true },
  ]);
});

test('_id takes one position or a comma-separated list, duplicates collapsed', () => {
  assert.deepEqual(parseRowQuery({ _id: '0' }).ids, [0]);
  assert.deepEqual(parseRowQuery({ _id: '3,0,3' }).ids, [3, 0]);
});

test('bad reserved parameters are refused with a code', () => {
  const table: [QueryString, ProblemCode][] = [
    [{ _id: '-1' }, 'invalid-id'],
    [{ _id: '1.5' }, 'invalid-id'],
    [{ _id: 'abc' }, 'invalid-id'],
    [{ _id: '' }, 'invalid-id'],
    [{ _id: '1,' }, 'invalid-id'],
    [{ _id: '01' }, 'invalid-id'],
    [{ _id: '99999999999999999999' }, 'invalid-id'],
    [{ _id: ['1', '2'] }, 'invalid-parameter'],
    [{ _id: '1', name: 'Ann' }, 'invalid-parameter'],
    [{ _limit: '-1' }, 'invalid-parameter'],
    [{ _limit: 'ten' }, 'invalid-parameter'],
    [{ _offset: '1.5' }, 'invalid-parameter'],
    [{ _sort: 'name,' }, 'invalid-parameter'],
    [{ _sort: '-' }, 'invalid-parameter'],
    [{ _fields: 'name' }, 'invalid-parameter'],
    [{ age: '__between(1,2)' }, 'invalid-filter'],
  ];
  for (const [query, code] of table) {
    assert.throws(
      () => parseRowQuery(query),
      (error: unknown) => error instanceof Problem && error.code === code,
      JSON.stringify(query),
    );
  }
});

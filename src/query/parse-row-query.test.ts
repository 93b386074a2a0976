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
    [{ _select: 'name' }, 'invalid-parameter'],
    [{ _Or: 'a=1' }, 'invalid-parameter'],
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

test('_or may appear several times, each its own group of alternatives beside the filters', () => {
  const query = parseRowQuery({
    name: 'Ann',
    _or: ['city=Oslo|city=Bergen', 'age=__gt(40)|age='],
  });
  assert.deepEqual(
    query.filters.map((f) => [f.column, f.op]),
    [['name', 'eq']],
  );
  assert.deepEqual(
    query.any.map((alternatives) => alternatives.map((f) => [f.column, f.op])),
    [
      [
        ['city', 'eq'],
        ['city', 'eq'],
      ],
      [
        ['age', 'gt'],
        ['age', 'eq'],
      ],
    ],
  );
  assert.deepEqual(parseRowQuery({}).any, []);
});

test('_fields names the columns rows carry, in order', () => {
  const table: [string, string[]][] = [
    ['name', ['name']],
    ['email,name', ['email', 'name']],
    ['a b,Zoë,_id', ['a b', 'Zoë', '_id']],
  ];
  for (const [raw, fields] of table) {
    assert.deepEqual(parseRowQuery({ _fields: raw }).fields, fields, raw);
  }
  assert.equal(parseRowQuery({}).fields, null);
});

test('malformed _fields and _or, and _or with _id, are refused saying what was expected', () => {
  const table: [QueryString, ProblemCode, RegExp][] = [
    [{ _fields: '' }, 'invalid-parameter', /_fields takes column names .* has an empty name/],
    [{ _fields: 'a,' }, 'invalid-parameter', /has an empty name/],
    [{ _fields: ',a' }, 'invalid-parameter', /has an empty name/],
    [{ _fields: 'a,,b' }, 'invalid-parameter', /has an empty name/],
    [{ _fields: 'a,b,a' }, 'invalid-parameter', /names "a" twice/],
    [{ _fields: ['a', 'b'] }, 'invalid-parameter', /_fields may appear only once/],
    [{ _or: '' }, 'invalid-filter', /_or= has no filter/],
    [{ _or: ['a=1', 'b'] }, 'invalid-filter', /alternative with no "="/],
    [{ _or: '_id=1' }, 'invalid-filter', /reserved/],
    [
      { _id: '1', _or: 'a=1' },
      'invalid-parameter',
      /either by _id or by filters \(_or and _q included\)/,
    ],
  ];
  for (const [query, code, message] of table) {
    assert.throws(
      () => parseRowQuery(query),
      (error: unknown) =>
        error instanceof Problem && error.code === code && message.test(error.detail),
      JSON.stringify(query),
    );
  }
});

test('_upsert names the key column of an insert-or-update; once, and not empty', () => {
  const table: [QueryString, string | null][] = [
    [{}, null],
    [{ _upsert: 'email' }, 'email'],
    [{ _upsert: 'e-mail address' }, 'e-mail address'],
    [{ _upsert: '*' }, '*'],
  ];
  for (const [query, upsert] of table) {
    assert.equal(parseRowQuery(query).upsert, upsert, JSON.stringify(query));
  }
  const refused: [QueryString, RegExp][] = [
    [{ _upsert: '' }, /_upsert names the column/],
    [{ _upsert: ['a', 'b'] }, /may appear only once/],
  ];
  for (const [query, message] of refused) {
    assert.throws(
      () => parseRowQuery(query),
      (error: unknown) =>
        error instanceof Problem &&
        error.code === 'invalid-parameter' &&
        message.test(error.detail),
      JSON.stringify(query),
    );
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseRowQuery, type QueryString } from '../query/parse-row-query.ts';
import { checkQuery, defaultLimits } from './limits.ts';

test('the filter limit counts each _or alternative as a filter', () => {
  const limits = { ...defaultLimits, filtersPerRequest: 3 };
  const table: [QueryString, number | null][] = [
    [{ a: ['1', '2', '3'] }, null],
    [{ a: ['1', '2', '3', '4'] }, 4],
    [{ _or: 'a=1|a=2|a=3' }, null],
    [{ _or: 'a=1|a=2|a=3|a=4' }, 4],
    [{ a: '1', _or: 'a=1|a=2' }, null],
    [{ a: '1', _or: ['a=1|a=2', 'b=1'] }, 4],
    [{ _or: ['a=1|a=2', 'b=1|b=2'] }, 4],
    [{ a: '__in(1,2,3,4,5,6)' }, null],
  ];
  for (const [query, counted] of table) {
    const check = () => checkQuery(parseRowQuery(query), limits);
    if (counted === null) {
      check();
      continue;
    }
    assert.throws(
      check,
      (error: unknown) =>
        error instanceof Problem &&
        error.code === 'limit-exceeded' &&
        error.extensions.limit === 'filtersPerRequest' &&
        error.detail.endsWith(`this one has ${counted}.`),
      JSON.stringify(query),
    );
  }
});

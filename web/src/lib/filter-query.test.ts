import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nextSort, rowQueryString, type RowQuery } from './filter-query.ts';

const cases: [string, RowQuery, string][] = [
  ['nothing', { filters: [], sort: [] }, ''],
  [
    'equality and a comparison combine with &',
    {
      filters: [
        { column: 'city', op: 'is', value: 'Lisbon' },
        { column: 'age', op: 'gt', value: '40' },
      ],
      sort: [],
    },
    'city=Lisbon&age=__gt(40)',
  ],
  [
    '"is" with a star is spelled __eq so it is not a wildcard',
    { filters: [{ column: 'note', op: 'is', value: 'a*b' }], sort: [] },
    'note=__eq(a*b)',
  ],
  [
    '"is" with text that looks like an operator is spelled __eq',
    { filters: [{ column: 'note', op: 'is', value: '__gt(1)' }], sort: [] },
    'note=__eq(__gt(1))',
  ],
  [
    'a wildcard keeps its star',
    { filters: [{ column: 'name', op: 'matches', value: 'Jo*' }], sort: [] },
    'name=Jo*',
  ],
  [
    'empty and not empty',
    {
      filters: [
        { column: 'note', op: 'empty', value: 'ignored' },
        { column: 'city', op: 'not-empty', value: '' },
      ],
      sort: [],
    },
    'note=&city=__ne()',
  ],
  [
    'names and values are percent-encoded, commas kept',
    { filters: [{ column: 'first name', op: 'is', value: 'Ana & Rui, Lda' }], sort: [] },
    'first%20name=Ana%20%26%20Rui,%20Lda',
  ],
  [
    'a filter with no column yet is left out',
    { filters: [{ column: '', op: 'is', value: 'x' }], sort: [] },
    '',
  ],
  [
    'sort, limit and offset',
    {
      filters: [{ column: 'city', op: 'ne', value: 'Porto' }],
      sort: [
        { column: 'city', descending: false },
        { column: 'age', descending: true },
      ],
      limit: 25,
      offset: 50,
    },
    'city=__ne(Porto)&_sort=city,-age&_limit=25&_offset=50',
  ],
  ['offset 0 is left out', { filters: [], sort: [], limit: 10, offset: 0 }, '_limit=10'],
];

for (const [name, query, expected] of cases) {
  test(`query string: ${name}`, () => assert.equal(rowQueryString(query), expected));
}

test('clicking a header cycles ascending, descending, unsorted', () => {
  const once = nextSort([], 'age');
  assert.deepEqual(once, [{ column: 'age', descending: false }]);
  const twice = nextSort(once, 'age');
  assert.deepEqual(twice, [{ column: 'age', descending: true }]);
  assert.deepEqual(nextSort(twice, 'age'), []);
  assert.deepEqual(nextSort(twice, 'name'), [{ column: 'name', descending: false }]);
});

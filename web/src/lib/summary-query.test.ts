import { test } from 'node:test';
import assert from 'node:assert/strict';
import { barsOf, expressionOf, summaryQueryString } from './summary-query.ts';

test('aggregates are written as the API reads them, column names escaped', () => {
  const table: [Parameters<typeof expressionOf>[0], string][] = [
    [{ fn: 'count', column: null }, 'count()'],
    [{ fn: 'sum', column: 'price' }, 'sum(price)'],
    [{ fn: 'avg', column: 'a,b' }, 'avg(a\\,b)'],
    [{ fn: 'max', column: 'f(x)\\' }, 'max(f\\(x\\)\\\\)'],
  ];
  for (const [choice, expression] of table) assert.equal(expressionOf(choice), expression);
});

test('the summary query follows the filter bar, each aggregate once', () => {
  assert.equal(
    summaryQueryString(
      'city=Oslo',
      ['city', 'a,b'],
      [
        { fn: 'count', column: null },
        { fn: 'sum', column: 'price' },
        { fn: 'count', column: null },
      ],
    ),
    'city=Oslo&_group=city%2Ca%5C%2Cb&_agg=count%28%29%2Csum%28price%29',
  );
  assert.equal(summaryQueryString('', [], [{ fn: 'count', column: null }]), '_agg=count%28%29');
  assert.equal(summaryQueryString('', ['city'], []), '_group=city');
});

test('bars are the first aggregate of each group, as shares of the largest', () => {
  const bars = barsOf(
    [
      { city: 'Paris', 'sum(price)': 30 },
      { city: null, 'sum(price)': -60 },
      { city: 'Oslo', 'sum(price)': null },
    ],
    ['city'],
    'sum(price)',
  );
  assert.deepEqual(bars, [
    { label: 'Paris', value: 30, share: 0.5 },
    { label: '(empty)', value: -60, share: 1 },
    { label: 'Oslo', value: null, share: 0 },
  ]);
  assert.deepEqual(barsOf([{ 'count()': 0 }], [], 'count()'), [
    { label: 'All rows', value: 0, share: 0 },
  ]);
});

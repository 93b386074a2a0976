import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell } from '../cells/cell.ts';
import { negotiateFormat, rowsToCsv, rowsToJson } from './row-response.ts';

test('rows serialize to JSON objects keyed by column, whatever the column is called', () => {
  const json = rowsToJson(
    ['name', '__proto__', 'say "hi"', 'when'],
    [
      ['Ann', 1, true, new DateCell('2024-01-05')],
      [null, -2.5, false, null],
    ],
  );
  const rows = JSON.parse(json) as Record<string, unknown>[];
  assert.equal(json.startsWith('[{"name":"Ann","__proto__":1,'), true);
  assert.equal(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value, 1);
  assert.equal(rows[1]?.['say "hi"'], false);
  assert.equal(rows[0]?.when, '2024-01-05');
  assert.equal(rowsToJson(['a'], []), '[]');
});

test('CSV output has the header first and quotes where needed', () => {
  assert.equal(
    rowsToCsv(
      ['name', 'note'],
      [
        ['Ann', 'a, "b"'],
        [null, 3],
      ],
    ),
    'name,note\nAnn,"a, ""b"""\n,3\n',
  );
});

test('Accept picks CSV only when it is preferred', () => {
  const table: [string | undefined, 'json' | 'csv'][] = [
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['text/csv', 'csv'],
    ['text/csv, application/json;q=0.5', 'csv'],
    ['application/json, text/csv', 'json'],
    ['application/json;q=0.1, text/csv', 'csv'],
    ['text/html, text/csv;q=0.9', 'csv'],
  ];
  for (const [accept, format] of table)
    assert.equal(negotiateFormat(accept), format, String(accept));
});

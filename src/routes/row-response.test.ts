import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowsToCsv } from '../files/csv-writer.ts';
import { negotiateFormat } from './row-response.ts';

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

test('Accept picks CSV or XLSX only when it is preferred', () => {
  const xlsx = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  const table: [string | undefined, 'json' | 'csv' | 'xlsx'][] = [
    [undefined, 'json'],
    ['application/json', 'json'],
    ['*/*', 'json'],
    ['text/csv', 'csv'],
    ['text/csv, application/json;q=0.5', 'csv'],
    ['application/json, text/csv', 'json'],
    ['application/json;q=0.1, text/csv', 'csv'],
    ['text/html, text/csv;q=0.9', 'csv'],
    [xlsx, 'xlsx'],
    [`${xlsx}, application/json;q=0.5`, 'xlsx'],
    [`application/json, ${xlsx}`, 'json'],
    [`text/csv;q=0.5, ${xlsx}`, 'xlsx'],
    [`${xlsx};q=0.2, text/csv`, 'csv'],
  ];
  for (const [accept, format] of table)
    assert.equal(negotiateFormat(accept), format, String(accept));
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellFromText, cellText, dateCell, DateCell } from './cell.ts';

test('CSV text becomes a number only when it is a plain decimal that reads back unchanged', () => {
  const table: [string, string | number | null][] = [
    ['42', 42],
    ['-7', -7],
    ['3.25', 3.25],
    ['0', 0],
    ['0.5', 0.5],
    ['', null],
    ['007', '007'],
    ['1.50', '1.50'],
    ['+5', '+5'],
    ['1e3', '1e3'],
    ['1,000', '1,000'],
    ['-0', '-0'],
    ['.5', '.5'],
    ['5.', '5.'],
    [' 5', ' 5'],
    ['0x10', '0x10'],
    ['Infinity', 'Infinity'],
    ['NaN', 'NaN'],
    ['+1 555 0100', '+1 555 0100'],
    ['555-0100', '555-0100'],
    ['0612345678', '0612345678'],
    ['12345678901234567890', '12345678901234567890'],
    ['Ann', 'Ann'],
    ['true', 'true'],
  ];
  for (const [text, expected] of table) {
    assert.equal(cellFromText(text), expected, `cellFromText(${JSON.stringify(text)})`);
  }
});

test('cell text is what a person sees in the cell', () => {
  assert.equal(cellText(null), '');
  assert.equal(cellText(31), '31');
  assert.equal(cellText(1.5), '1.5');
  assert.equal(cellText(true), 'true');
  assert.equal(cellText('Ann'), 'Ann');
  assert.equal(cellText(new DateCell('2024-01-05')), '2024-01-05');
});

test('workbook dates read as a date alone at midnight, otherwise with their time', () => {
  assert.equal(dateCell(new Date(Date.UTC(2024, 0, 5))).iso, '2024-01-05');
  assert.equal(dateCell(new Date(Date.UTC(2024, 0, 5, 13, 45))).iso, '2024-01-05T13:45:00Z');
  assert.equal(
    dateCell(new Date(Date.UTC(2024, 0, 5, 13, 45, 1, 250))).iso,
    '2024-01-05T13:45:01.250Z',
  );
  assert.equal(JSON.stringify({ d: new DateCell('2024-01-05') }), '{"d":"2024-01-05"}');
});

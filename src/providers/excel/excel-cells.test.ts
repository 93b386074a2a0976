import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell, type Cell } from '../../cells/cell.ts';
import { cellFromExcel, cellToExcel } from './excel-cells.ts';

test('cells read from Excel values and number formats', () => {
  const cases: [unknown, unknown, Cell][] = [
    [42, 'General', 42],
    [0.5, '0%', 0.5],
    ['007', '@', '007'],
    ['Ann', 'General', 'Ann'],
    ['', 'General', null],
    [true, 'General', true],
    [false, 'General', false],
    ['#DIV/0!', 'General', '#DIV/0!'],
    [44256, 'm/d/yyyy', new DateCell('2021-03-01')],
    [44256, 'yyyy-mm-dd', new DateCell('2021-03-01')],
    [44256.5, 'm/d/yyyy h:mm', new DateCell('2021-03-01T12:00:00')],
    [44256, 'm/d/yyyy h:mm', new DateCell('2021-03-01T00:00:00')],
    [0.75, 'h:mm', new DateCell('18:00:00')],
    [44256, '[$-409]mmmm d, yyyy', new DateCell('2021-03-01')],
    [44256, '#,##0', 44256],
    [44256, '"days" 0', 44256],
    [null, null, null],
  ];
  for (const [value, format, cell] of cases) {
    assert.deepEqual(
      cellFromExcel(value, format),
      cell,
      `${JSON.stringify(value)} as ${String(format)}`,
    );
  }
});

test('cells written to Excel: text with the text format, numbers and booleans as they are, dates as serials', () => {
  const cases: [Cell, unknown][] = [
    ['007', { value: '007', numberFormat: '@' }],
    ['=1+1', { value: '=1+1', numberFormat: '@' }],
    ['TRUE', { value: 'TRUE', numberFormat: '@' }],
    [7, { value: 7, numberFormat: null }],
    [true, { value: true, numberFormat: null }],
    [null, { value: '', numberFormat: null }],
    [new DateCell('2021-03-01'), { value: 44256, numberFormat: 'yyyy-mm-dd' }],
    [new DateCell('2021-03-01T12:00:00'), { value: 44256.5, numberFormat: 'yyyy-mm-dd hh:mm:ss' }],
    [new DateCell('18:00:00'), { value: 0.75, numberFormat: 'hh:mm:ss' }],
  ];
  for (const [cell, written] of cases)
    assert.deepEqual(cellToExcel(cell), written, JSON.stringify(cell));
});

test('a date written reads back as the same date', () => {
  for (const iso of ['2021-03-01', '1999-12-31T23:59:59', '09:30:00']) {
    const { value, numberFormat } = cellToExcel(new DateCell(iso));
    assert.deepEqual(cellFromExcel(value, numberFormat), new DateCell(iso));
  }
});

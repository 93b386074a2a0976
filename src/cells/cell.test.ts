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

test('date serials read as typed: a time alone, a date, or a date-time, never with a zone', () => {
  const date = { showsTime: false };
  const dateTime = { showsTime: true };
  const table: [number, { showsTime: boolean; system?: 1900 | 1904 }, string][] = [
    [0.395833333333333, dateTime, '09:30:00'],
    [0, dateTime, '00:00:00'],
    [0, date, '00:00:00'],
    [0.999988425925926, dateTime, '23:59:59'],
    // A fraction a hair under midnight rounds to it; a time alone shows it as 00:00:00.
    [0.999999, dateTime, '00:00:00'],
    [0.5, date, '12:00:00'],
    [46054, date, '2026-02-01'],
    [46054.5868055556, dateTime, '2026-02-01T14:05:00'],
    // A date-time typed at midnight keeps its time; a date with a time of day keeps it too.
    [46054, dateTime, '2026-02-01T00:00:00'],
    [46054.5, date, '2026-02-01T12:00:00'],
    [45296.5729166667, dateTime, '2024-01-05T13:45:00'],
    [45296.57292824074, dateTime, '2024-01-05T13:45:01'],
    [1, date, '1899-12-31'],
    [-1.5, dateTime, '1899-12-28T12:00:00'],
    [44592, { showsTime: false, system: 1904 }, '2026-02-01'],
    [44592.5868055556, { showsTime: true, system: 1904 }, '2026-02-01T14:05:00'],
    [0.395833333333333, { showsTime: true, system: 1904 }, '09:30:00'],
  ];
  for (const [serial, shows, expected] of table) {
    assert.equal(dateCell(serial, shows).iso, expected, `${serial} ${JSON.stringify(shows)}`);
  }
  assert.equal(JSON.stringify({ d: new DateCell('2024-01-05') }), '{"d":"2024-01-05"}');
});

test('with a decimal comma, CSV text becomes a number only when it reads back unchanged', () => {
  const table: [string, string | number | null][] = [
    ['12,5', 12.5],
    ['-7,25', -7.25],
    ['0,5', 0.5],
    ['100', 100],
    ['1234,5', 1234.5],
    ['1.234,5', 1234.5],
    ['1.234.567,5', 1234567.5],
    ['1.234', 1234],
    ['1 234,5', 1234.5],
    ['1\u00a0234,5', 1234.5],
    ['12\u202f345\u202f678,25', 12345678.25],
    ['-1.234', -1234],
    ['', null],
    ['1.234,50', '1.234,50'],
    ['12,50', '12,50'],
    ['1,50', '1,50'],
    ['1.5', '1.5'],
    ['3.25', '3.25'],
    ['1.23,5', '1.23,5'],
    ['1.234 567', '1.234 567'],
    ['12.34.567', '12.34.567'],
    ['1234.567', '1234.567'],
    ['0.123', '0.123'],
    ['007', '007'],
    ['-0', '-0'],
    ['-0,0', '-0,0'],
    [',5', ',5'],
    ['5,', '5,'],
    ['+5', '+5'],
    ['1e3', '1e3'],
    ['1.000.000.000.000.000.000.000', '1.000.000.000.000.000.000.000'],
    ['Ann', 'Ann'],
  ];
  for (const [text, expected] of table) {
    assert.equal(cellFromText(text, ','), expected, `cellFromText(${JSON.stringify(text)}, ',')`);
  }
});

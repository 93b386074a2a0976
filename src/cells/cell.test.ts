import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellFromText, cellText, dateCell, DateCell } from './cell.ts';

test('a field of delimited text is an empty cell, a number as numberFromText reads it, or text', () => {
  assert.equal(cellFromText(''), null);
  assert.equal(cellFromText('1.50'), 1.5);
  assert.equal(cellFromText('007'), '007');
  assert.equal(cellFromText('1.234,50', ','), 1234.5);
  assert.equal(cellFromText('1.50', ','), '1.50');
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

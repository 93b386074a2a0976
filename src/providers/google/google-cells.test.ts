import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DateCell } from '../../cells/cell.ts';
import { cellFromGoogle } from './google-cells.ts';
import { parseSpreadsheetId } from './spreadsheet-ref.ts';

test('Google cells keep their type; dates by number format become ISO 8601 text with no zone', () => {
  const date = (serial: number, type: string) => ({
    effectiveValue: { numberValue: serial },
    effectiveFormat: { numberFormat: { type } },
  });
  const table: [unknown, unknown][] = [
    [undefined, null],
    [{}, null],
    [{ effectiveValue: { numberValue: 31 } }, 31],
    [{ effectiveValue: { numberValue: 0.1 } }, 0.1],
    [{ effectiveValue: { stringValue: '007' } }, '007'],
    [{ effectiveValue: { stringValue: '' } }, null],
    [{ effectiveValue: { boolValue: false } }, false],
    [
      { effectiveValue: { errorValue: { type: 'DIVIDE_BY_ZERO' } }, formattedValue: '#DIV/0!' },
      '#DIV/0!',
    ],
    [date(45296, 'DATE'), new DateCell('2024-01-05')],
    [date(45296.5729166667, 'DATE_TIME'), new DateCell('2024-01-05T13:45:00')],
    [date(45296, 'DATE_TIME'), new DateCell('2024-01-05T00:00:00')],
    [date(46054.5868055556, 'DATE_TIME'), new DateCell('2026-02-01T14:05:00')],
    [date(0.5, 'TIME'), new DateCell('12:00:00')],
    [date(0.395833333333333, 'TIME'), new DateCell('09:30:00')],
    [date(0, 'TIME'), new DateCell('00:00:00')],
    // A time format over a whole date-time shows its time only; the date is kept all the same.
    [date(45296.5, 'TIME'), new DateCell('2024-01-05T12:00:00')],
    [date(45296.5, 'DATE'), new DateCell('2024-01-05T12:00:00')],
    [date(45296, 'NUMBER'), 45296],
  ];
  for (const [cell, expected] of table) {
    assert.deepEqual(cellFromGoogle(cell as never), expected, JSON.stringify(cell));
  }
});

test('a spreadsheet is named by its id or by its address', () => {
  const id = '1BxiMVs0XRA5nFMdKvBdBZjgmUUqptlbs74OgvE2upms';
  assert.equal(parseSpreadsheetId(id), id);
  assert.equal(parseSpreadsheetId(`https://docs.google.com/spreadsheets/d/${id}/edit#gid=0`), id);
  assert.throws(() => parseSpreadsheetId('not a sheet'), /neither a Google spreadsheet id/);
});

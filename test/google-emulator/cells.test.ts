import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formattedValue, userEnteredInput, type StoredCell } from './cells.ts';
import { formatNumber } from './number-format.ts';

describe('USER_ENTERED input is parsed as Sheets parses typing', () => {
  const cases: [string, StoredCell | undefined][] = [
    ['', undefined],
    ['=SUM(A1:A2)', { entered: { formula: '=SUM(A1:A2)', result: null } }],
    ["'=not a formula", { entered: { string: '=not a formula' } }],
    ['true', { entered: { bool: true } }],
    ['-12.5', { entered: { number: -12.5 } }],
    ['1e3', { entered: { number: 1000 } }],
    ['1,234.50', { entered: { number: 1234.5 }, format: { type: 'NUMBER', pattern: '#,##0.00' } }],
    ['15%', { entered: { number: 0.15 }, format: { type: 'PERCENT', pattern: '0%' } }],
    ['$5', { entered: { number: 5 }, format: { type: 'CURRENCY', pattern: '"$"#,##0.00' } }],
    ['2024-01-05', { entered: { number: 45296 }, format: { type: 'DATE', pattern: 'yyyy-mm-dd' } }],
    ['1/5/2024', { entered: { number: 45296 }, format: { type: 'DATE', pattern: 'M/d/yyyy' } }],
    ['2024-02-30', { entered: { string: '2024-02-30' } }],
    ['00123x', { entered: { string: '00123x' } }],
  ];
  for (const [input, expected] of cases) {
    it(JSON.stringify(input), () => assert.deepEqual(userEnteredInput(input), expected));
  }
});

describe('formattedValue', () => {
  const cases: [StoredCell, string | undefined][] = [
    [{ entered: { number: 0.1 + 0.2 } }, '0.3'],
    [{ entered: { number: 1234567 } }, '1234567'],
    [{ entered: { bool: false } }, 'FALSE'],
    [{ entered: { formula: '=1/0', result: '#DIV/0!' } }, '#DIV/0!'],
    [{ entered: { formula: '=NOW()', result: null } }, undefined],
    [{ entered: { number: 45296.5 }, format: { type: 'DATE_TIME' } }, '1/5/2024 12:00:00'],
    [{ entered: { number: 45296.75 }, format: { type: 'TIME' } }, '6:00:00 PM'],
    [{ entered: { number: 1234.5 }, format: { type: 'NUMBER', pattern: '#,##0.00' } }, '1,234.50'],
    [{ entered: { number: -0.256 }, format: { type: 'PERCENT', pattern: '0.0%' } }, '-25.6%'],
  ];
  for (const [cell, expected] of cases) {
    it(`${JSON.stringify(cell)} shows ${String(expected)}`, () =>
      assert.equal(formattedValue(cell), expected));
  }

  it('formats dates with Sheets tokens, telling months from minutes', () => {
    assert.equal(
      formatNumber(45296.5729166667, { type: 'DATE_TIME', pattern: 'dddd, mmmm d, yyyy hh:mm' }),
      'Friday, January 5, 2024 13:45',
    );
  });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { numberFromText } from './number-text.ts';

const text = null;

test('with a decimal point, a plain decimal of at most 15 significant digits is a number', () => {
  const table: [string, number | null][] = [
    ['42', 42],
    ['-7', -7],
    ['0', 0],
    ['3.25', 3.25],
    ['0.5', 0.5],
    ['-0.5', -0.5],
    // Trailing zeros are how amounts are written: the column keeps one type.
    ['1.50', 1.5],
    ['20.00', 20],
    ['0.10', 0.1],
    ['12.99', 12.99],
    ['100', 100],
    ['999999999999999', 999999999999999],
    ['-999999999999999', -999999999999999],
    ['0.000000000000001', 1e-15],
    ['123456789.012345', 123456789.012345],
    ['0.1234567890123450', text],
    ['1.500000000000000', text],
    ['1000000000000000', text],
    ['4111111111111111', text],
    ['12345678901234567890', text],
    ['9007199254740993', text],
    // A code with leading zeros is not the number it would become.
    ['007', text],
    ['02134', text],
    ['0612345678', text],
    ['00.5', text],
    ['-00', text],
    // -0 reads back as 0: it stays as written.
    ['-0', text],
    ['-0.0', text],
    ['-0.00', text],
    ['+5', text],
    ['1e3', text],
    ['1E3', text],
    ['.5', text],
    ['5.', text],
    ['-.5', text],
    ['-', text],
    ['', text],
    [' 5', text],
    ['5 ', text],
    ['0x10', text],
    ['Infinity', text],
    ['NaN', text],
    // Grouped digits mean 1234 in one locale and 1.234 in another.
    ['1,234', text],
    ['1,234.5', text],
    ['1 234', text],
    ['12,5', text],
    ['1.2.3', text],
    ['+1 555 0100', text],
    ['555-0100', text],
    ['２３', text],
    ['Ann', text],
    ['true', text],
    [`0.${'0'.repeat(320)}1`, text],
  ];
  for (const [given, expected] of table) {
    assert.equal(numberFromText(given), expected, JSON.stringify(given));
  }
});

test('with a decimal comma, the comma form is a number, grouped by thousands or not', () => {
  const table: [string, number | null][] = [
    ['12,5', 12.5],
    ['12,99', 12.99],
    ['-7,25', -7.25],
    ['0,5', 0.5],
    ['-0,5', -0.5],
    ['0,10', 0.1],
    ['20,00', 20],
    ['1,50', 1.5],
    ['100', 100],
    ['1234,5', 1234.5],
    ['1.234,5', 1234.5],
    ['1.234,50', 1234.5],
    ['1.234.567,5', 1234567.5],
    // A group of three after a `.` is thousands where the comma is the decimal mark.
    ['1.234', 1234],
    ['-1.234', -1234],
    ['1.500', 1500],
    ['1 234,5', 1234.5],
    ['1 000', 1000],
    ['1\u00a0234,5', 1234.5],
    ['12\u202f345\u202f678,25', 12345678.25],
    ['999.999.999.999.999', 999999999999999],
    ['1.000.000.000.000.000', text],
    ['1.000.000.000.000.000.000.000', text],
    ['0,0000000000000001', 1e-16],
    ['1,0000000000000001', text],
    // Groups must be of three, the same mark throughout, and not start with 0.
    ['1.5', text],
    ['1.50', text],
    ['3.25', text],
    ['1.23,5', text],
    ['12.34.567', text],
    ['1234.567', text],
    ['0.123', text],
    ['1.234 567', text],
    ['1 234.567', text],
    ['1..234', text],
    ['.234', text],
    ['007', text],
    ['007,5', text],
    ['-0', text],
    ['-0,0', text],
    [',5', text],
    ['5,', text],
    ['1,2,3', text],
    ['+5', text],
    ['1e3', text],
    ['Ann', text],
    ['', text],
  ];
  for (const [given, expected] of table) {
    assert.equal(numberFromText(given, ','), expected, JSON.stringify(given));
  }
});

test('a plain decimal of up to 15 digits reads as the value it writes', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 0, max: 999_999_999 }),
      fc.integer({ min: 0, max: 999_999 }),
      (whole, part) => {
        const given = `${whole}.${String(part).padStart(6, '0')}`;
        assert.equal(numberFromText(given)?.toFixed(6), given);
        const comma = given.replace('.', ',');
        assert.equal(numberFromText(comma, ',')?.toFixed(6), given);
      },
    ),
  );
});

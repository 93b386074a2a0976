/** Strings read as Excel reads typed input, and the text a number format shows. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellError } from './cell.ts';
import { formatText, isDateFormat } from './number-format.ts';
import { typedInput, type TypedContent } from './typed-input.ts';

describe('typedInput in a General cell', () => {
  const cases: [string, TypedContent][] = [
    ['007', { value: 7 }],
    ['-1.5e3', { value: -1500 }],
    ['.5', { value: 0.5 }],
    [' 42 ', { value: 42 }],
    ['1,234', { value: 1234, impliedFormat: '#,##0' }],
    ['1,234.5', { value: 1234.5, impliedFormat: '#,##0.00' }],
    ['12,34', { value: '12,34' }],
    ['50%', { value: 0.5, impliedFormat: '0%' }],
    ['12.5%', { value: 0.125, impliedFormat: '0.00%' }],
    ['TRUE', { value: true }],
    ['false', { value: false }],
    ['#N/A', { value: new CellError('#N/A') }],
    ['1/2/2024', { value: 45293, impliedFormat: 'm/d/yyyy' }],
    ['2024-01-02', { value: 45293, impliedFormat: 'm/d/yyyy' }],
    ['2/30/2024', { value: '2/30/2024' }],
    ['13:30', { value: 0.5625, impliedFormat: 'h:mm' }],
    ['1:30 PM', { value: 0.5625, impliedFormat: 'h:mm' }],
    ['25:00', { value: '25:00' }],
    ['1/2/2024 6:00', { value: 45293.25, impliedFormat: 'm/d/yyyy h:mm' }],
    ['=A1+1', { value: '', formula: '=A1+1' }],
    ['=', { value: '=' }],
    ["'007", { value: '007' }],
    ["'=1+1", { value: '=1+1' }],
    ['', { value: '' }],
    ['  ', { value: '  ' }],
    ['hello', { value: 'hello' }],
    ['1e999', { value: '1e999' }],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(typedInput(input, 'General'), expected);
    });
  }

  it('keeps every string as it is in a text (@) cell', () => {
    for (const input of ['007', 'TRUE', '=1+1', "'x", '1/2/2024']) {
      assert.deepEqual(typedInput(input, '@'), { value: input });
    }
  });
});

describe('formatText', () => {
  const cases: [number | string | boolean, string, string][] = [
    [7, 'General', '7'],
    [0.1 + 0.2, 'General', '0.3'],
    [1234.5, '#,##0.00', '1,234.50'],
    [0.125, '0.00%', '12.50%'],
    [45293, 'm/d/yyyy', '1/2/2024'],
    [45293, 'yyyy-mm-dd', '2024-01-02'],
    [45293.5625, 'm/d/yyyy h:mm', '1/2/2024 13:30'],
    [0.5625, 'h:mm AM/PM', '1:30 PM'],
    [0.5625, 'hh:mm:ss', '13:30:00'],
    [true, 'General', 'TRUE'],
    ['x', '0.00', 'x'],
    [42, '@', '42'],
  ];
  for (const [value, format, text] of cases) {
    it(`${JSON.stringify(value)} in ${format} → ${text}`, () =>
      assert.equal(formatText(value, format), text));
  }

  it('tells date and time formats from number formats', () => {
    for (const format of ['m/d/yyyy', 'yyyy-mm-dd', 'h:mm', '[$-409]d-mmm-yy'])
      assert.ok(isDateFormat(format), format);
    for (const format of ['General', '0.00', '#,##0', '0%', '@', '"days"0'])
      assert.ok(!isDateFormat(format), format);
  });
});

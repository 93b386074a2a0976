import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatShowsTime } from './xlsx-file.ts';

test('a number format shows a time when it has hours, seconds or AM/PM outside literals', () => {
  const table: [string, boolean][] = [
    ['yyyy\\-mm\\-dd', false],
    ['mm-dd-yy', false],
    ['d mmmm yyyy', false],
    ['[$-407]dd.mm.yyyy', false],
    ['[Red]yyyy-mm-dd', false],
    ['yyyy-mm-dd "at" "noon"', false],
    ['hh:mm', true],
    ['h:mm AM/PM', true],
    ['hh:mm:ss\\ AM/PM', true],
    ['mm:ss', true],
    ['[h]:mm', true],
    ['[mm]:ss', true],
    ['yyyy\\-mm\\-dd\\ hh:mm', true],
    ['m/d/yy h:mm', true],
    ['dd/mm/yyyy\\ \\h', false],
    ['"shift" d', false],
    ['', false],
  ];
  for (const [format, expected] of table) {
    assert.equal(formatShowsTime(format), expected, format);
  }
});

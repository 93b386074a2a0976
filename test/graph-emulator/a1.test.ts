/** A1 addresses as Excel writes them, input → box (0-based, exclusive ends) and back. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { columnIndex, columnLetters, formatAddress, parseAddress, quoteSheet } from './a1.ts';

const box = (startRow: number, endRow: number, startColumn: number, endColumn: number) => ({
  startRow,
  endRow,
  startColumn,
  endColumn,
});

describe('parseAddress', () => {
  const cases: [string, ReturnType<typeof parseAddress>][] = [
    ['A1', { box: box(0, 1, 0, 1) }],
    ['b2:D5', { box: box(1, 5, 1, 4) }],
    ['D5:B2', { box: box(1, 5, 1, 4) }],
    ['$A$1:$C$3', { box: box(0, 3, 0, 3) }],
    ['5:7', { box: box(4, 7, 0, 16384) }],
    ['B:D', { box: box(0, 1048576, 1, 4) }],
    ['Sheet1!A1:C4', { sheet: 'Sheet1', box: box(0, 4, 0, 3) }],
    ["'My sheet'!B2", { sheet: 'My sheet', box: box(1, 2, 1, 2) }],
    ["'Bob''s'!5:5", { sheet: "Bob's", box: box(4, 5, 0, 16384) }],
    ['XFD1048576', { box: box(1048575, 1048576, 16383, 16384) }],
    ['XFE1', undefined],
    ['A1048577', undefined],
    ['A0', undefined],
    ['5', undefined],
    ['A1:B', undefined],
    ['A1:B2:C3', undefined],
    ['!A1', undefined],
    ["'open!A1", undefined],
    ['', undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseAddress(input), expected);
    });
  }
});

describe('formatting', () => {
  it('writes columns as letters and back', () => {
    for (const [index, letters] of [
      [0, 'A'],
      [25, 'Z'],
      [26, 'AA'],
      [701, 'ZZ'],
      [702, 'AAA'],
      [16383, 'XFD'],
    ] as const) {
      assert.equal(columnLetters(index), letters);
      assert.equal(columnIndex(letters), index);
    }
  });

  it('quotes sheet names Excel would quote, doubling quotes', () => {
    const cases = [
      ['Sheet1', 'Sheet1'],
      ['My sheet', "'My sheet'"],
      ["Bob's", "'Bob''s'"],
      ['A1', "'A1'"],
      ['2024', "'2024'"],
      ['Data_2', 'Data_2'],
    ];
    for (const [name, quoted] of cases) assert.equal(quoteSheet(name ?? ''), quoted);
  });

  it('writes whole rows, whole columns, single cells and boxes', () => {
    assert.equal(formatAddress('S', box(4, 7, 0, 16384)), 'S!5:7');
    assert.equal(formatAddress('S', box(0, 1048576, 1, 4)), 'S!B:D');
    assert.equal(formatAddress('S', box(1, 2, 1, 2)), 'S!B2');
    assert.equal(formatAddress('S', box(1, 5, 1, 4)), 'S!B2:D5');
  });
});

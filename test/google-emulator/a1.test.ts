import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatRange, parseA1, quoteSheet, type Bounds, type ParsedRange } from './a1.ts';

describe('parseA1', () => {
  const cases: [string, ParsedRange | null][] = [
    ['Sheet1', { bare: 'Sheet1', cells: undefined }],
    ['A1', { bare: 'A1', cells: { startRow: 0, endRow: 1, startColumn: 0, endColumn: 1 } }],
    ['A1:B2', { bare: 'A1:B2', cells: { startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 } }],
    ["'My Tab'", { sheet: 'My Tab' }],
    [
      "'It''s'!C3",
      { sheet: "It's", cells: { startRow: 2, endRow: 3, startColumn: 2, endColumn: 3 } },
    ],
    [
      'Sheet1!A:C',
      {
        sheet: 'Sheet1',
        cells: { startRow: undefined, endRow: undefined, startColumn: 0, endColumn: 3 },
      },
    ],
    [
      'Sheet1!2:5',
      {
        sheet: 'Sheet1',
        cells: { startRow: 1, endRow: 5, startColumn: undefined, endColumn: undefined },
      },
    ],
    [
      'Sheet1!A2:C',
      { sheet: 'Sheet1', cells: { startRow: 1, endRow: undefined, startColumn: 0, endColumn: 3 } },
    ],
    [
      'Sheet1!$A$1:$B$2',
      { sheet: 'Sheet1', cells: { startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 } },
    ],
    [
      'Sheet1!B2:A1',
      { sheet: 'Sheet1', cells: { startRow: 0, endRow: 2, startColumn: 0, endColumn: 2 } },
    ],
    [
      'Sheet1!AA10',
      { sheet: 'Sheet1', cells: { startRow: 9, endRow: 10, startColumn: 26, endColumn: 27 } },
    ],
    ['Sheet1!A0', null],
    ['Sheet1!A1:B2:C3', null],
    ["'Unclosed!A1", null],
    ["'My Tab'A1", null],
    ['', null],
  ];
  for (const [text, expected] of cases) {
    it(`${JSON.stringify(text)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(parseA1(text), expected);
    });
  }
});

describe('formatRange', () => {
  const cases: [string, Bounds, string][] = [
    ['Sheet1', { startRow: 0, endRow: 1000, startColumn: 0, endColumn: 26 }, 'Sheet1!A1:Z1000'],
    ['My Tab', { startRow: 4, endRow: 5, startColumn: 0, endColumn: 1 }, "'My Tab'!A5"],
    ['T', { startRow: 1000, startColumn: 0, endColumn: 2 }, 'T!A1001:B'],
    ['T', { startRow: 0, endRow: 2, startColumn: 26 }, 'T!AA1:2'],
  ];
  for (const [title, bounds, expected] of cases) {
    it(expected, () => assert.equal(formatRange(title, bounds), expected));
  }

  it('quotes titles that need it, and only those', () => {
    assert.deepEqual(
      ['Sheet1', 'My Tab', "It's", 'A1', 'R1C1', 'Ünïcode', '2024'].map(quoteSheet),
      ['Sheet1', "'My Tab'", "'It''s'", "'A1'", "'R1C1'", "'Ünïcode'", "'2024'"],
    );
  });
});

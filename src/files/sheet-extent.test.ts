import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { columnNumber, extentScanner, type Extent } from './sheet-extent.ts';

const scan = (...pieces: string[]): Extent => {
  const scanner = extentScanner();
  for (const piece of pieces) scanner.push(piece);
  return scanner.extent;
};

const sheet = (rows: string) =>
  `<?xml version="1.0"?><worksheet><sheetData>${rows}</sheetData></worksheet>`;

test("a worksheet's extent is the far corner of its cells with content", () => {
  const table: [string, Partial<Extent>][] = [
    [sheet(''), { lastRow: 0, lastColumn: 0, held: 0, depth: 2 }],
    [
      sheet('<row r="1"><c r="A1"><v>1</v></c></row>'),
      { lastRow: 1, lastColumn: 1, held: 2, depth: 5 },
    ],
    [
      sheet('<row r="3"><c r="C3" t="inlineStr"><is><t>x</t></is></c></row>'),
      { lastRow: 3, lastColumn: 3, depth: 6 },
    ],
    [
      sheet('<row r="1048576"><c r="XFD1048576"><v>1</v></c></row>'),
      { lastRow: 1_048_576, lastColumn: 16_384 },
    ],
    // A cell that only carries formatting, or a row of such cells, is no content.
    [
      sheet('<row r="1"><c r="A1"><v>1</v></c></row><row r="900000"><c r="Z900000" s="1"/></row>'),
      { lastRow: 1, lastColumn: 1, held: 4 },
    ],
    [
      sheet('<row r="1"><c r="A1"><v>1</v></c></row><row r="5" s="2" customFormat="1"/>'),
      { lastRow: 1 },
    ],
    // References may be left out: rows and cells then follow the one before.
    [
      sheet('<row><c><v>1</v></c><c><v>2</v></c></row><row><c><v>3</v></c></row>'),
      { lastRow: 2, lastColumn: 2, held: 5 },
    ],
    [
      sheet('<row r="7"><c r="B7"><v>1</v></c><c><v>2</v></c></row>'),
      { lastRow: 7, lastColumn: 3 },
    ],
    // Prefixed names, single quotes and spaces around `=`.
    [sheet("<x:row r='4'><x:c r = 'D4'><x:v>1</x:v></x:c></x:row>"), { lastRow: 4, lastColumn: 4 }],
    // `>` in text is not a tag's end.
    [
      sheet('<row r="2"><c r="B2" t="str"><f>A1>0</f><v>1</v></c></row>'),
      { lastRow: 2, lastColumn: 2 },
    ],
    [`<a>${'<b>'.repeat(100)}${'</b>'.repeat(100)}</a>`, { depth: 101 }],
    ['<a/><b/><c/>', { depth: 0 }],
  ];
  for (const [xml, expected] of table) {
    const extent = scan(xml);
    for (const [key, value] of Object.entries(expected)) {
      assert.equal(extent[key as keyof Extent], value, `${key} of ${xml.slice(0, 120)}`);
    }
  }
});

test('the extent is the same however the XML is cut into pieces', () => {
  const xml = sheet(
    '<row r="1"><c r="A1" t="inlineStr"><is><t>name &lt;x&gt;</t></is></c><c r="B1"><v>2</v></c></row>' +
      '<row r="40"><c r="AB40"><v>1</v></c><c r="AC40" s="3"/></row><row r="41"><c><v>1</v></c></row>',
  );
  const whole = scan(xml);
  assert.deepEqual(whole, { lastRow: 41, lastColumn: 28, held: 8, depth: 6 });
  fc.assert(
    fc.property(fc.uniqueArray(fc.nat(xml.length), { maxLength: 12 }), (cuts) => {
      const at = [0, ...cuts.sort((a, b) => a - b), xml.length];
      const pieces = at.slice(1).map((end, i) => xml.slice(at[i], end));
      assert.deepEqual(scan(...pieces), whole);
    }),
  );
});

test('a tag cut off and never closed is let go rather than held', () => {
  const scanner = extentScanner();
  scanner.push(`<row r="1"><c r="A1"><v>1</v></c></row><c r="A9" x="`);
  for (let i = 0; i < 40; i++) scanner.push('y'.repeat(10_000));
  assert.deepEqual(scanner.extent, { lastRow: 1, lastColumn: 1, held: 2, depth: 3 });
});

test('column letters count from A as 1', () => {
  const table: [string, number][] = [
    ['A', 1],
    ['Z', 26],
    ['AA', 27],
    ['AZ', 52],
    ['BA', 53],
    ['XFD', 16_384],
  ];
  for (const [letters, n] of table) assert.equal(columnNumber(letters), n, letters);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { boundsWatcher } from './workbook-bounds.ts';
import type { ZipEntry } from './zip-archive.ts';

const part = (name: string): ZipEntry => ({
  name,
  method: 8,
  compressedSize: 0,
  size: 0,
  offset: 0,
  dataStart: 0,
});
const rows = (xml: string) => `<worksheet><sheetData>${xml}</sheetData></worksheet>`;
const cell = (ref: string) => `<c r="${ref}"><v>1</v></c>`;

/** The code and limit of the refusal of these parts, in order, or null if they pass. */
function refusal(parts: [string, string][], maxCells = 100, maxColumns = 5): string | null {
  const watch = boundsWatcher({ maxCells, maxColumns });
  try {
    for (const [name, xml] of parts) {
      const watcher = watch(part(name));
      watcher?.data(Buffer.from(xml));
      watcher?.end();
    }
    return null;
  } catch (error) {
    assert.ok(error instanceof Problem);
    return `${error.code} ${String(error.extensions.limit ?? '')}`.trim();
  }
}

test('worksheets are held to the columns, the extent and the cells a workbook may have', () => {
  const sheet = 'xl/worksheets/sheet1.xml';
  const table: [[string, string][], string | null][] = [
    [
      [
        [
          sheet,
          rows(`<row r="1">${cell('A1')}${cell('E1')}</row><row r="20">${cell('E20')}</row>`),
        ],
      ],
      null,
    ],
    [[[sheet, rows(`<row r="1">${cell('F1')}</row>`)]], 'limit-exceeded columnsPerSheet'],
    // 21 rows × 5 columns is 105 cells, whatever lies between.
    [
      [[sheet, rows(`<row r="1">${cell('E1')}</row><row r="21">${cell('A21')}</row>`)]],
      'limit-exceeded workbookCells',
    ],
    // Formatting far out is no extent, but a reader still builds every element.
    [
      [
        [
          sheet,
          rows(`<row r="1">${cell('A1')}</row><row r="999999"><c r="XFD999999" s="1"/></row>`),
        ],
      ],
      null,
    ],
    [[[sheet, rows(`<row r="1">${'<c s="1"/>'.repeat(99)}</row>`)]], null],
    [
      [[sheet, rows(`<row r="1">${'<c s="1"/>'.repeat(100)}</row>`)]],
      'limit-exceeded workbookCells',
    ],
    // Cells count across worksheets.
    [
      [
        [sheet, rows(`<row>${'<c s="1"/>'.repeat(60)}</row>`)],
        ['xl/worksheets/sheet2.xml', rows(`<row>${'<c s="1"/>'.repeat(60)}</row>`)],
      ],
      'limit-exceeded workbookCells',
    ],
    // Other parts have no extent, but may not nest deep either.
    [[['xl/sharedStrings.xml', `<sst>${'<si><t>x</t></si>'.repeat(500)}</sst>`]], null],
    [[['xl/styles.xml', `${'<a>'.repeat(64)}${'</a>'.repeat(64)}`]], null],
    [[['xl/styles.xml', `${'<a>'.repeat(65)}${'</a>'.repeat(65)}`]], 'invalid-upload'],
    [[[sheet, rows('<x>'.repeat(70))]], 'invalid-upload'],
    [[['xl/media/image1.png', '<<<<<<<']], null],
  ];
  for (const [parts, expected] of table) {
    assert.equal(
      refusal(parts),
      expected,
      parts.map(([name, xml]) => `${name}: ${xml.slice(0, 100)}`).join(', '),
    );
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { problemKinds } from '../src/errors/problem.ts';
import { build } from './helpers/build.ts';
import { fixture, rowsOf, sheetIds, upload } from './helpers/upload.ts';
import {
  sparseSheet,
  textCell,
  withEndCount,
  workbookEntries,
  worksheetXml,
  zipArchive,
  zipEntry,
  type ZipEntry,
} from './helpers/zip-writer.ts';

const mebibyte = 1_048_576;
/** What one refused upload of a few KB may add to the heap, multipart parsing and all. */
const heapBound = 48 * mebibyte;

/**
 * Sends an upload while watching the heap, sampled on every turn of the event loop the request
 * leaves free: the growth over the heap before it, at its highest.
 */
async function uploadWatchingHeap(url: string, content: Buffer, fileName: string) {
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sample = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  }, 1);
  try {
    const answer = await upload(url, content, fileName);
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    return { ...answer, heapGrowth: peak - before };
  } finally {
    clearInterval(sample);
  }
}

/** A refusal: 400 or 413 with a problem document of a known kind, and no sheet made. */
async function assertRefused(
  url: string,
  answer: Awaited<ReturnType<typeof uploadWatchingHeap>>,
  label: string,
  code?: string,
): Promise<void> {
  assert.ok(
    [400, 413].includes(answer.status),
    `${label}: ${answer.status} ${JSON.stringify(answer.body)}`,
  );
  assert.match(answer.type, /application\/problem\+json/, label);
  assert.ok(
    Object.hasOwn(problemKinds, answer.body.code as string),
    `${label}: ${String(answer.body.code)}`,
  );
  if (code !== undefined)
    assert.equal(answer.body.code, code, `${label}: ${answer.body.detail as string}`);
  assert.ok(
    answer.heapGrowth < heapBound,
    `${label}: the heap grew by ${Math.round(answer.heapGrowth / mebibyte)} MiB`,
  );
  assert.deepEqual(await sheetIds(url), [], `${label}: a sheet was made`);
}

test('a workbook whose zip end record counts 0 files is refused, not unpacked past the size check', async (t) => {
  const { url } = await build(t);
  const answer = await uploadWatchingHeap(url, await fixture('lying-count.xlsx'), 'lying.xlsx');
  await assertRefused(url, answer, 'lying-count.xlsx', 'invalid-upload');
  assert.match(
    answer.body.detail as string,
    /end record counts 0 files where its directory lists 12/,
  );
});

test('a few KB of sheet spanning millions of cells is refused before it is read', async (t) => {
  const { url } = await build(t);
  for (const name of ['sparse-row-20000.xlsx', 'sparse-last-row.xlsx']) {
    const answer = await uploadWatchingHeap(url, await fixture(name), name);
    await assertRefused(url, answer, name, 'limit-exceeded');
    assert.equal(answer.body.limit, 'workbookCells', name);
  }
});

test('a sparse sheet within the bounds imports its far row, the rows between empty', async (t) => {
  const { url } = await build(t);
  const sheet = worksheetXml(
    `<row r="1">${textCell('A1', 'n')}${textCell('B1', 'm')}</row><row r="5000"><c r="B5000"><v>7</v></c></row>` +
      // A cell that only carries formatting, far below, is no row of the sheet.
      '<row r="1048576"><c r="A1048576" s="1"/></row>',
  );
  const { status, body } = await upload(url, zipArchive(workbookEntries(sheet)), 'sparse.xlsx');
  assert.equal(status, 201, JSON.stringify(body));
  assert.equal(body.rowCount, 4999);
  const rows = await rowsOf(url, body.id as string);
  assert.deepEqual(rows.at(-1), { n: null, m: 7 });
  assert.deepEqual(rows[0], { n: null, m: null });
});

test('a bad cell met after thousands of rows were stored fails the upload and leaves no sheet', async (t) => {
  const { url } = await build(t);
  const rows = Array.from(
    { length: 3000 },
    (_, i) => `<row r="${i + 2}"><c r="A${i + 2}"><v>${i}</v></c></row>`,
  );
  const bad = [
    [
      'a value right of the header',
      '<row r="3002"><c r="B3002"><v>1</v></c></row>',
      'invalid-header',
    ],
    ['rows out of order', '<row r="7"><c r="A7"><v>1</v></c></row>', 'invalid-upload'],
  ];
  for (const [label, row, code] of bad) {
    const sheet = worksheetXml(`<row r="1">${textCell('A1', 'n')}</row>${rows.join('')}${row}`);
    const answer = await upload(url, zipArchive(workbookEntries(sheet)), 'late.xlsx');
    assert.equal(answer.status, 400, `${label}: ${JSON.stringify(answer.body)}`);
    assert.equal(answer.body.code, code, label);
    assert.deepEqual(await sheetIds(url), [], `${label}: a sheet was left`);
  }
});

test('a worksheet kept outside xl/worksheets/, where the extent scan does not look, is no worksheet', async (t) => {
  const { url } = await build(t);
  const entries = workbookEntries(zipEntry('xl/elsewhere.xml', sparseSheet(500, 1_048_576))).map(
    (entry) =>
      entry.name === 'xl/_rels/workbook.xml.rels'
        ? zipEntry(entry.name, relsTo('elsewhere.xml'))
        : entry,
  );
  const answer = await uploadWatchingHeap(url, zipArchive(entries), 'elsewhere.xlsx');
  await assertRefused(url, answer, 'elsewhere.xlsx', 'invalid-upload');
  assert.equal(answer.body.detail, 'The workbook has no worksheet.');
});

/** Workbook relationships naming `target` as the one worksheet. */
function relsTo(target: string): string {
  return `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="${target}"/></Relationships>`;
}

/** A small workbook as a spreadsheet program writes it, for the lies below to be told about. */
const honestSheet = worksheetXml(
  `<row r="1">${textCell('A1', 'name')}${textCell('B1', 'age')}</row>` +
    `<row r="2">${textCell('A2', 'Ann')}<c r="B2"><v>31</v></c></row>`,
);

/** Ways to make a workbook that must be refused, each from a few numbers fast-check picks. */
const crafted = (real: Buffer) =>
  fc.oneof(
    fc
      .integer({ min: 0, max: 0xfffe })
      .filter((count) => count !== 5)
      .map((count) => ({
        label: `end record counting ${count} files`,
        file: zipArchive(workbookEntries(honestSheet), { count }),
      })),
    fc.integer({ min: 0, max: 4 }).map((index) => {
      const entries = workbookEntries(honestSheet);
      return {
        label: `entry ${index} listed twice`,
        file: zipArchive([...entries, entries[index] as ZipEntry]),
      };
    }),
    fc
      .integer({ min: 0, max: 0xfffffffe })
      .filter((size) => size !== Buffer.byteLength(honestSheet))
      .map((size) => {
        const sheet = { ...zipEntry('xl/worksheets/sheet1.xml', honestSheet), size };
        return {
          label: `sheet declared as ${size} bytes`,
          file: zipArchive(workbookEntries(sheet)),
        };
      }),
    fc
      .record({
        columns: fc.integer({ min: 1, max: 500 }),
        lastRow: fc.integer({ min: 2, max: 1_048_576 }),
      })
      .filter(({ columns, lastRow }) => columns * lastRow > 2_000_000)
      .map(({ columns, lastRow }) => ({
        label: `${columns} columns and a cell at row ${lastRow}`,
        file: zipArchive(workbookEntries(sparseSheet(columns, lastRow))),
      })),
    fc.integer({ min: 65, max: 200_000 }).map((depth) => ({
      label: `elements nested ${depth} deep`,
      file: zipArchive(
        workbookEntries(
          worksheetXml(
            `<row r="1">${textCell('A1', 'n')}</row>`,
            `${'<x>'.repeat(depth)}${'</x>'.repeat(depth)}`,
          ),
        ),
      ),
    })),
    fc.integer({ min: 1, max: 0xffff }).map((shift) => {
      // An entry's directory record points into the middle of another entry's data.
      const file = zipArchive(workbookEntries(honestSheet));
      const directory = file.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
      file.writeUInt32LE(file.readUInt32LE(directory + 42) + shift, directory + 42);
      return { label: `last entry's offset moved by ${shift}`, file };
    }),
    fc.integer({ min: 0, max: 11 }).map((count) => ({
      label: `end record of a real workbook counting ${count} of its 12 files`,
      file: withEndCount(real, count),
    })),
  );

test('crafted workbooks are refused with 4xx problem documents, no sheet, and bounded memory', async (t) => {
  const { url } = await build(t);
  const real = await fixture('libreoffice.xlsx');
  // The honest workbook the lies are told about imports, so each refusal is the lie's doing.
  const honest = await upload(url, zipArchive(workbookEntries(honestSheet)), 'honest.xlsx');
  assert.equal(honest.status, 201, JSON.stringify(honest.body));
  const before = await sheetIds(url);
  await fc.assert(
    fc.asyncProperty(crafted(real), async ({ label, file }) => {
      const answer = await uploadWatchingHeap(url, file, 'crafted.xlsx');
      assert.ok(
        [400, 413].includes(answer.status),
        `${label}: ${answer.status} ${JSON.stringify(answer.body)}`,
      );
      assert.ok(Object.hasOwn(problemKinds, answer.body.code as string), label);
      assert.ok(
        answer.heapGrowth < heapBound,
        `${label}: the heap grew by ${Math.round(answer.heapGrowth / mebibyte)} MiB`,
      );
      assert.deepEqual(await sheetIds(url), before, `${label}: a sheet was made`);
    }),
    { numRuns: 80, includeErrorInReport: true },
  );
});

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { openUpload } from '../src/files/upload.ts';
import {
  columnLetters,
  textCell,
  workbookEntries,
  worksheetXml,
  zipArchive,
} from './helpers/zip-writer.ts';

setFlagsFromString('--expose-gc');
/** Collects garbage on demand, so that what the heap holds is measured, not what it has yet to free. */
const collectGarbage = runInNewContext('gc') as () => void;

const mebibyte = 1_048_576;

/** A worksheet of `rows` data rows under `columns` named columns: numbers and text in turn. */
function denseWorkbook(rows: number, columns: number): Buffer {
  const letters = Array.from({ length: columns }, (_, i) => columnLetters(i + 1));
  const lines = [`<row r="1">${letters.map((l) => textCell(`${l}1`, `c${l}`)).join('')}</row>`];
  for (let r = 2; r <= rows + 1; r++) {
    const cells = letters.map((l, i) =>
      i % 2 === 0 ? `<c r="${l}${r}"><v>${r * i + 0.5}</v></c>` : textCell(`${l}${r}`, `t${r}`),
    );
    lines.push(`<row r="${r}">${cells.join('')}</row>`);
  }
  return zipArchive(workbookEntries(worksheetXml(lines.join(''))));
}

test('a workbook of 200,000 cells is read as a stream: half-way, the heap holds a few rows, not the sheet', async (t) => {
  const rows = 10_000;
  const columns = 20;
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-xlsx-stream-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'dense.xlsx');
  await writeFile(path, denseWorkbook(rows, columns));

  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const { file } = await openUpload(path, 'dense.xlsx');
  let read = 0;
  let held = Number.NaN;
  let last: unknown = null;
  for await (const chunk of file.rows) {
    read += chunk.length;
    last = chunk.at(-1);
    if (Number.isNaN(held) && read >= rows / 2) {
      collectGarbage();
      held = process.memoryUsage().heapUsed - before;
    }
  }
  assert.equal(read, rows);
  assert.deepEqual((last as unknown[]).slice(0, 2), [0.5, `t${rows + 1}`]);
  // Whole, the workbook costs about 300 bytes a cell: 60 MiB here.
  assert.ok(held < 16 * mebibyte, `half-way, the heap holds ${Math.round(held / mebibyte)} MiB`);
});

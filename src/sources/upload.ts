import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { Problem } from '../errors/problem.ts';
import { readCsv } from './csv-file.ts';
import type { SheetFile } from './sheet-file.ts';
import { readXlsx } from './xlsx-file.ts';

export type UploadFormat = 'csv' | 'xlsx';

/**
 * Opens an uploaded file by what it holds rather than what it is called: a workbook is a zip
 * archive, CSV is text. A file name only breaks the tie for files too short to tell.
 */
export async function openUpload(
  path: string,
  fileName: string,
  tab: string | undefined,
  /** A workbook is read whole in memory: this bounds what it may unpack to. */
  maxUnzippedBytes = 256 * 1_048_576,
): Promise<{ format: UploadFormat; file: SheetFile }> {
  const format = await sniffFormat(path, fileName);
  if (format === 'csv' && tab !== undefined) {
    throw new Problem(
      'invalid-upload',
      'A CSV file has one table; "tab" applies to XLSX workbooks only.',
    );
  }
  const file =
    format === 'xlsx' ? await readXlsx(path, tab, maxUnzippedBytes) : await readCsv(path);
  return { format, file };
}

async function sniffFormat(path: string, fileName: string): Promise<UploadFormat> {
  const handle = await open(path);
  const head = Buffer.alloc(4096);
  const { bytesRead } = await handle.read(head, 0, head.length, 0).finally(() => handle.close());
  const bytes = head.subarray(0, bytesRead);
  const extension = extname(fileName).toLowerCase();
  if (bytes.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1'))) return 'xlsx';
  if (extension === '.xlsx') {
    throw new Problem(
      'invalid-upload',
      `"${fileName}" is named .xlsx but is not an XLSX workbook (not a zip archive).`,
    );
  }
  if (bytes.subarray(0, 8).equals(Buffer.from('d0cf11e0a1b11ae1', 'hex'))) {
    throw new Problem(
      'unsupported-upload',
      `"${fileName}" is an old Excel 97-2003 (.xls) workbook; save it as .xlsx or .csv and upload that.`,
    );
  }
  if (bytes.includes(0) || !isUtf8Prefix(bytes, bytesRead === head.length)) {
    throw new Problem(
      'unsupported-upload',
      `"${fileName}" is neither a CSV text file (UTF-8) nor an XLSX workbook.`,
    );
  }
  if (!['.csv', '.txt', ''].includes(extension)) {
    throw new Problem(
      'unsupported-upload',
      `Files of type "${extension}" are not supported; upload a .csv or .xlsx file.`,
    );
  }
  return 'csv';
}

/** UTF-8 check that forgives a multi-byte character cut off at the end of a partial sample. */
function isUtf8Prefix(bytes: Buffer, partial: boolean): boolean {
  for (let cut = 0; cut < (partial ? 4 : 1) && cut <= bytes.length; cut++) {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, bytes.length - cut));
      return true;
    } catch {
      // try again without the last byte
    }
  }
  return false;
}

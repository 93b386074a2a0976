import { basename } from 'node:path';
import type { Cell } from '../cells/cell.ts';
import { checkColumns, defaultLimits, limitedRows, type Limits } from '../access/limits.ts';
import type { Sheet, SheetSettings } from '../sheets/sheet.ts';
import { newSheetId } from '../sheets/sheet-id.ts';
import type { SheetStore } from '../store/store.ts';
import { openUpload } from './upload.ts';

export interface ImportOptions {
  /** The sheet's name; the file's name without its extension by default. */
  name?: string | undefined;
  /** The worksheet of a workbook; the first one by default. */
  tab?: string | undefined;
  /** Called as rows are read, with the count so far. */
  onProgress?: (rows: number) => void;
  /** Settings of the new sheet; DELETE on and open access by default. */
  settings?: SheetSettings;
  limits?: Limits;
}

/** Imports a CSV or XLSX file as a new sheet; used by the upload endpoint and the CLI alike. */
export async function importFile(
  store: Pick<SheetStore, 'createSheet'>,
  path: string,
  fileName: string,
  options: ImportOptions = {},
): Promise<Sheet> {
  const { format, file } = await openUpload(path, fileName, options.tab);
  const limits = options.limits ?? defaultLimits;
  checkColumns(file.columns, limits);
  const rows = limitedRows(file.rows, limits);
  const name = options.name?.trim() || basename(fileName).replace(/\.[^.]*$/, '') || 'upload';
  return store.createSheet(
    {
      id: newSheetId(),
      name,
      columns: file.columns,
      source: {
        provider: 'upload',
        fileName,
        format,
        ...(file.tab === undefined ? {} : { tab: file.tab }),
      },
      settings: options.settings ?? { deleteEnabled: true },
    },
    options.onProgress === undefined ? rows : counted(rows, options.onProgress),
  );
}

async function* counted(rows: AsyncIterable<Cell[][]>, onProgress: (rows: number) => void) {
  let count = 0;
  for await (const chunk of rows) {
    count += chunk.length;
    onProgress(count);
    yield chunk;
  }
}

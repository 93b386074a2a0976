import { basename } from 'node:path';
import type { Cell } from '../cells/cell.ts';
import { checkColumns, defaultLimits, limitedRows, type Limits } from '../access/limits.ts';
import type { Sheet, SheetSettings } from '../model/sheet.ts';
import { newSheetId } from '../model/sheet-id.ts';
import type { NewSheet, SheetStore } from '../store/store.ts';
import type { CsvOptions } from './csv-options.ts';
import { createEach, everyTab, tabSheetName, type SheetsCreated } from './every-tab.ts';
import type { SheetFile } from './sheet-file.ts';
import { openUpload, openUploadTabs, type UploadFormat } from './upload.ts';

export interface ImportOptions {
  /** The sheet's name; the file's name without its extension by default. */
  name?: string | undefined;
  /** The worksheet of a workbook; the first one by default, `*` for every one. */
  tab?: string | undefined;
  /** How to read a CSV file, when the person chose anything; detected otherwise. */
  csv?: CsvOptions | undefined;
  /** Columns to keep as text, as declared (`textColumn`, `--text-column`). */
  textColumns?: readonly string[] | undefined;
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
  const { format, file } = await openUpload(path, fileName, options);
  const limits = options.limits ?? defaultLimits;
  checkColumns(file.columns, limits);
  const rows = limitedRows(file.rows, limits, file.columns);
  return store.createSheet(
    draft(file, format, sheetName(fileName, options), fileName, options),
    options.onProgress === undefined ? rows : rowCounter(options.onProgress)(rows),
  );
}

/**
 * Imports every worksheet of a workbook (`tab=*`), each as a sheet named `<name> / <tab>`. The
 * sheets are made one after another; should one fail, those already made are removed, so the
 * import leaves all of them or none.
 */
export async function importEveryTab(
  store: Pick<SheetStore, 'createSheet' | 'deleteSheet'>,
  path: string,
  fileName: string,
  options: ImportOptions = {},
): Promise<SheetsCreated> {
  const { format, files } = await openUploadTabs(path, fileName, options);
  const limits = options.limits ?? defaultLimits;
  for (const { table } of files.read) checkColumns(table.columns, limits);
  const name = sheetName(fileName, options);
  const progress = options.onProgress;
  const count = progress === undefined ? undefined : rowCounter(progress);
  const made = files.read.map(({ tab, table }) => {
    const rows = limitedRows(table.rows, limits, table.columns);
    return {
      draft: draft(table, format, tabSheetName(name, tab), fileName, options),
      rows: count === undefined ? rows : count(rows),
    };
  });
  return { sheets: await createEach(store, made), skipped: files.skipped };
}

/** Whether the options ask for every tab. */
export function wantsEveryTab(options: ImportOptions): boolean {
  return options.tab === everyTab;
}

function sheetName(fileName: string, options: ImportOptions): string {
  return options.name?.trim() || basename(fileName).replace(/\.[^.]*$/, '') || 'upload';
}

function draft(
  file: SheetFile,
  format: UploadFormat,
  name: string,
  fileName: string,
  options: ImportOptions,
): NewSheet {
  return {
    id: newSheetId(),
    name,
    columns: file.columns,
    source: {
      provider: 'upload',
      fileName,
      format,
      ...(file.tab === undefined ? {} : { tab: file.tab }),
      ...(file.text === undefined ? {} : file.text),
    },
    settings: {
      ...(options.settings ?? { deleteEnabled: true }),
      ...(file.textColumns === undefined || file.textColumns.length === 0
        ? {}
        : { textColumns: file.textColumns }),
    },
    ...(file.codeColumns === undefined ? {} : { codeColumns: file.codeColumns }),
  };
}

/** Passes rows through, telling `onProgress` how many have gone by, over every sheet it counts. */
function rowCounter(onProgress: (rows: number) => void) {
  let count = 0;
  return async function* (rows: AsyncIterable<Cell[][]>): AsyncGenerator<Cell[][]> {
    for await (const chunk of rows) {
      count += chunk.length;
      onProgress(count);
      yield chunk;
    }
  };
}

import ExcelJS from 'exceljs';
import { dateCell, type Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import { checkRowWidth, columnsFromHeader } from './header.ts';
import { checkUnzippedSize } from './zip-size.ts';
import type { SheetFile } from './sheet-file.ts';

/**
 * Reads one worksheet of an XLSX workbook, keeping each cell's type: numbers, text, booleans,
 * dates, and the value a formula last computed. The workbook is read whole, within the upload
 * size limit; only CSV imports stream.
 */
export async function readXlsx(
  path: string,
  tab: string | undefined,
  maxUnzippedBytes: number,
): Promise<SheetFile> {
  await checkUnzippedSize(path, maxUnzippedBytes);
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.readFile(path);
  } catch (error) {
    throw new Problem(
      'invalid-upload',
      `The XLSX file could not be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const tabs = workbook.worksheets.map((sheet) => sheet.name);
  const worksheet =
    tab === undefined
      ? workbook.worksheets[0]
      : workbook.worksheets.find((sheet) => sheet.name === tab);
  if (worksheet === undefined) {
    throw new Problem(
      'invalid-upload',
      tab === undefined
        ? 'The workbook has no worksheet.'
        : `The workbook has no worksheet named "${tab}"; its worksheets are ${tabs.map((t) => `"${t}"`).join(', ')}.`,
      { tabs },
    );
  }
  const table: Cell[][] = [];
  worksheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: Cell[] = [];
    row.eachCell({ includeEmpty: true }, (cell, columnNumber) => {
      cells[columnNumber - 1] = cellValue(cell);
    });
    table[rowNumber - 1] = Array.from(cells, (cell) => cell ?? null);
  });
  const columns = columnsFromHeader(table[0] ?? []);
  // Rows that only carry formatting below the data are not rows of the sheet.
  while (table.length > 1 && (table.at(-1) ?? []).every((cell) => cell === null)) table.pop();
  const rows = Array.from(table.slice(1), (row, i) => {
    const cells = row ?? [];
    checkRowWidth(cells, columns.length, i + 2);
    return columns.map((_, index) => cells[index] ?? null);
  });
  return {
    columns,
    tab: worksheet.name,
    rows: (async function* () {
      if (rows.length > 0) yield rows;
    })(),
  };
}

function cellValue(cell: ExcelJS.Cell): Cell {
  if (cell.type === ExcelJS.ValueType.Merge) return null;
  if (cell.type === ExcelJS.ValueType.Formula) return scalar(cell.result);
  return scalar(cell.value);
}

function scalar(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return value === '' ? null : value;
  if (value instanceof Date) return dateCell(value);
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText)) {
      return value.richText.map((run: { text?: string }) => run.text ?? '').join('') || null;
    }
    if ('error' in value) return String(value.error);
    if ('text' in value) return scalar(value.text);
    if ('result' in value) return scalar(value.result);
  }
  return String(value);
}

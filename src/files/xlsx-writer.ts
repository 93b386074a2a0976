import { PassThrough, type Readable } from 'node:stream';
import { DateCell, type Cell } from '../cells/cell.ts';

export const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows of a read, in chunks, with their positions: what the store answers a read of cells. */
export type CellChunks = AsyncIterable<{ rows: Cell[][]; positions: number[] }>;

/**
 * Rows as an XLSX workbook of one worksheet: the header row, then the rows with typed cells
 * (numbers, booleans, text, and dates, times and date-times as Excel dates with a number format
 * showing what was stored). It is written as the rows are read, so memory stays flat. Text is
 * written as text: a cell that starts with `=` stays text, never a formula.
 */
export async function xlsxAnswer(
  name: string,
  columns: string[],
  chunks: CellChunks,
  withIds: boolean,
): Promise<Readable> {
  const { default: Excel } = await import('exceljs');
  const out = new PassThrough();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(worksheetName(name));
  void (async () => {
    sheet.addRow([...(withIds ? ['_id'] : []), ...columns]).commit();
    for await (const { rows, positions } of chunks) {
      for (const [i, row] of rows.entries()) {
        const added = sheet.addRow([...(withIds ? [positions[i]] : []), ...row.map(xlsxValue)]);
        row.forEach((cell, c) => {
          const format = cell instanceof DateCell ? dateFormat(cell.iso) : null;
          if (format !== null) added.getCell(c + 1 + (withIds ? 1 : 0)).numFmt = format;
        });
        added.commit();
      }
    }
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** Excel's worksheet names: at most 31 characters, none of : \ / ? * [ ]. */
function worksheetName(name: string): string {
  return (
    name
      .replace(/[:\\/?*[\]]/g, ' ')
      .slice(0, 31)
      .trim() || 'Rows'
  );
}

function xlsxValue(cell: Cell): string | number | boolean | Date | null {
  if (cell instanceof DateCell) return dateValue(cell.iso);
  return cell;
}

/**
 * A stored date, time or date-time as the Date Excel's serial number is made from: Excel dates
 * carry no time zone, and ExcelJS reads a Date's UTC fields, so the text is read as UTC.
 */
function dateValue(iso: string): Date | string {
  const utc = /^\d\d:\d\d(:\d\d)?$/.test(iso)
    ? `1899-12-30T${iso}Z`
    : /^\d{4}-\d\d-\d\d$/.test(iso)
      ? `${iso}T00:00:00Z`
      : /(Z|[+-]\d\d:\d\d)$/.test(iso)
        ? iso
        : `${iso}Z`;
  const date = new Date(utc);
  return Number.isNaN(date.getTime()) ? iso : date;
}

function dateFormat(iso: string): string | null {
  if (/^\d{4}-\d\d-\d\d$/.test(iso)) return 'yyyy-mm-dd';
  if (/^\d\d:\d\d(:\d\d)?$/.test(iso)) return 'hh:mm:ss';
  if (/^\d{4}-\d\d-\d\dT/.test(iso)) return 'yyyy-mm-dd hh:mm:ss';
  return null;
}

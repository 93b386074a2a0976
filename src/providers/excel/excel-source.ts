import type { SheetSource } from '../../model/sheet.ts';

/**
 * A worksheet of an Excel workbook in OneDrive or SharePoint, by its drive and item ids;
 * `worksheetId` keeps finding it when the worksheet is renamed.
 */
export interface ExcelSource {
  provider: 'excel';
  drive: string;
  item: string;
  tab: string;
  worksheetId: string;
  readonly [field: string]: unknown;
}

/** The source of an Excel sheet, as the store keeps it; throws for any other source. */
export function excelSource(source: SheetSource): ExcelSource {
  const { provider, drive, item, tab, worksheetId } = source as Partial<ExcelSource>;
  if (
    provider !== 'excel' ||
    typeof drive !== 'string' ||
    typeof item !== 'string' ||
    typeof tab !== 'string' ||
    typeof worksheetId !== 'string'
  ) {
    throw new Error(`not an Excel sheet's source: ${JSON.stringify(source)}`);
  }
  return { provider, drive, item, tab, worksheetId };
}

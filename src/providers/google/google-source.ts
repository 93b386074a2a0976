import type { SheetSource } from '../../model/sheet.ts';

/** A tab of a Google spreadsheet; `tabId` keeps finding it when the tab is renamed. */
export interface GoogleSource {
  provider: 'google';
  spreadsheetId: string;
  tab: string;
  tabId: number;
  readonly [field: string]: unknown;
}

/** The source of a Google sheet, as the store keeps it; throws for any other source. */
export function googleSource(source: SheetSource): GoogleSource {
  const { provider, spreadsheetId, tab, tabId } = source as Partial<GoogleSource>;
  if (
    provider !== 'google' ||
    typeof spreadsheetId !== 'string' ||
    typeof tab !== 'string' ||
    typeof tabId !== 'number'
  ) {
    throw new Error(`not a Google sheet's source: ${JSON.stringify(source)}`);
  }
  return { provider, spreadsheetId, tab, tabId };
}

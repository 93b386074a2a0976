import type { sheets_v4 } from '@googleapis/sheets';
import type { GoogleSource } from './google-source.ts';
import type { ProviderTable } from '../provider.ts';
import { tableFromGrid } from '../provider-table.ts';
import { cellFromGoogle } from './google-cells.ts';
import { cellText, type Cell } from '../../cells/cell.ts';
import { pushTagsOf } from './google-requests.ts';

/** A tab as Google answers it, made a table. */

export { sameHeader, sameRows } from '../provider-table.ts';

/**
 * The formatted values of the cells that show other than their typed value (`3/1/2021` for a
 * date, `1,234.50` for a number): kept apart, and only those, for the text columns to read.
 */
function shownText(rowData: sheets_v4.Schema$RowData[], rows: Cell[][]): Map<string, string> {
  const shown = new Map<string, string>();
  rows.forEach((row, r) => {
    const values = rowData[r + 1]?.values ?? [];
    row.forEach((cell, c) => {
      const formatted = values[c]?.formattedValue;
      if (cell === null || typeof cell === 'string' || typeof formatted !== 'string') return;
      if (formatted !== cellText(cell)) shown.set(`${r},${c}`, formatted);
    });
  });
  return shown;
}

/** A tab as read with its grid data: its table, and its source with its current title and id. */
export function tableOfTab(tab: sheets_v4.Schema$Sheet, source: GoogleSource): ProviderTable {
  const rowData = tab.data?.[0]?.rowData ?? [];
  const grid = rowData.map((row) => (row.values ?? []).map(cellFromGoogle));
  const table = tableFromGrid(grid);
  return {
    ...table,
    shown: shownText(rowData, table.rows),
    source: {
      ...source,
      tab: tab.properties?.title ?? source.tab,
      tabId: tab.properties?.sheetId ?? source.tabId,
    },
    pushTags: pushTagsOf(tab.developerMetadata ?? []),
  };
}

import type { sheets_v4 } from '@googleapis/sheets';
import type { GoogleSource } from './google-source.ts';
import type { ProviderTable } from '../provider.ts';
import { tableFromGrid } from '../provider-table.ts';
import { cellFromGoogle } from './google-cells.ts';
import { pushTagsOf } from './google-requests.ts';

/** A tab as Google answers it, made a table. */

export { sameHeader, sameRows } from '../provider-table.ts';

/** A tab as read with its grid data: its table, and its source with its current title and id. */
export function tableOfTab(tab: sheets_v4.Schema$Sheet, source: GoogleSource): ProviderTable {
  const grid = (tab.data?.[0]?.rowData ?? []).map((row) => (row.values ?? []).map(cellFromGoogle));
  return {
    ...tableFromGrid(grid),
    source: {
      ...source,
      tab: tab.properties?.title ?? source.tab,
      tabId: tab.properties?.sheetId ?? source.tabId,
    },
    pushTags: pushTagsOf(tab.developerMetadata ?? []),
  };
}

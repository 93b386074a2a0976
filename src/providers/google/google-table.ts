import type { sheets_v4 } from '@googleapis/sheets';
import type { Cell } from '../../cells/cell.ts';
import type { GoogleSource } from './google-source.ts';
import { checkRowWidth, columnsFromHeader } from '../../files/header.ts';
import type { ProviderTable } from '../provider.ts';
import { cellFromGoogle } from './google-cells.ts';
import { pushTagsOf } from './google-requests.ts';

/** A tab as Google answers it, made a table; and tables compared, for the checks before a push. */

export const sameHeader = (a: string[], b: string[]) =>
  a.length === b.length && a.every((column, i) => column === b[i]);

/** Rows compared as the API shows them: a date and its text are the same cell here. */
export function sameRows(a: Cell[][], b: Cell[][]): boolean {
  return a.length === b.length && JSON.stringify(a) === JSON.stringify(b);
}

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

/** The header row names the columns; rows below it are the sheet, without trailing empty rows. */
export function tableFromGrid(grid: Cell[][]): { columns: string[]; rows: Cell[][] } {
  const columns = columnsFromHeader(grid[0] ?? []);
  let end = grid.length;
  while (end > 1 && (grid[end - 1] ?? []).every((cell) => cell === null)) end--;
  const rows = grid.slice(1, end).map((row, i) => {
    checkRowWidth(row, columns.length, i + 2);
    return columns.map((_, index) => row[index] ?? null);
  });
  return { columns, rows };
}

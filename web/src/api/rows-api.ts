import { request } from './client.ts';
import type { Cell, Row } from './types.ts';

/**
 * The row API, called as the administrator: with the administrator token when one is set, which
 * the row API accepts for every sheet.
 */

export const rowsPath = (sheetId: string) => `/api/v1/${encodeURIComponent(sheetId)}`;

/** Rows with their positions (`_with_id=true`), so that any row shown can be written back. */
export const readRows = async (
  sheetId: string,
  queryString: string,
): Promise<{ position: number; row: Row }[]> => {
  const query = queryString === '' ? '_with_id=true' : `${queryString}&_with_id=true`;
  const rows = await request<(Row & { _id: number })[]>('GET', `${rowsPath(sheetId)}?${query}`);
  return rows.map(({ _id, ...row }) => ({ position: _id, row }));
};

export const appendRow = (sheetId: string, row: Record<string, Cell>) =>
  request<{ created: number }>('POST', rowsPath(sheetId), row);

export const patchRow = (sheetId: string, position: number, cells: Record<string, Cell>) =>
  request<{ updated: number }>('PATCH', `${rowsPath(sheetId)}?_id=${position}`, cells);

export const deleteRow = (sheetId: string, position: number) =>
  request<{ deleted: number }>('DELETE', `${rowsPath(sheetId)}?_id=${position}`);

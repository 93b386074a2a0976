import { request } from './client.ts';
import type { Cell, Row } from './types.ts';

/**
 * The row API, called as the administrator: with the administrator token when one is set, which
 * the row API accepts for every sheet.
 */

export const rowsPath = (sheetId: string) => `/api/v1/${encodeURIComponent(sheetId)}`;

export const readRows = (sheetId: string, queryString: string) =>
  request<Row[]>('GET', `${rowsPath(sheetId)}${queryString === '' ? '' : `?${queryString}`}`);

export const appendRow = (sheetId: string, row: Record<string, Cell>) =>
  request<{ created: number }>('POST', rowsPath(sheetId), row);

export const patchRow = (sheetId: string, position: number, cells: Record<string, Cell>) =>
  request<{ updated: number }>('PATCH', `${rowsPath(sheetId)}?_id=${position}`, cells);

export const deleteRow = (sheetId: string, position: number) =>
  request<{ deleted: number }>('DELETE', `${rowsPath(sheetId)}?_id=${position}`);

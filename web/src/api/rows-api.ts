import { send, request } from './client.ts';
import type { Cell, Row } from './types.ts';

/**
 * The row API, called as the administrator: with the administrator token when one is set, which
 * the row API accepts for every sheet.
 */

export const rowsPath = (sheetId: string) => `/api/v1/${encodeURIComponent(sheetId)}`;

/** Rows read with their positions, and the ETag of the sheet's version they were read at. */
export interface ReadRows {
  rows: { position: number; row: Row }[];
  etag: string | null;
}

/** Rows with their positions (`_with_id=true`), so that any row shown can be written back. */
export const readRows = async (sheetId: string, queryString: string): Promise<ReadRows> => {
  const query = queryString === '' ? '_with_id=true' : `${queryString}&_with_id=true`;
  const response = await send('GET', `${rowsPath(sheetId)}?${query}`);
  const rows = (await response.json()) as (Row & { _id: number })[];
  return {
    rows: rows.map(({ _id, ...row }) => ({ position: _id, row })),
    etag: response.headers.get('etag'),
  };
};

/**
 * Writes by position carry the ETag of the read that showed the row (If-Match): if the sheet
 * has changed since, positions may have moved, and the API refuses with 412, changing nothing.
 */
const ifMatch = (etag: string | null): Record<string, string> =>
  etag === null ? {} : { 'if-match': etag };

export const appendRow = (sheetId: string, row: Record<string, Cell>) =>
  request<{ created: number }>('POST', rowsPath(sheetId), row);

export const patchRow = async (
  sheetId: string,
  position: number,
  cells: Record<string, Cell>,
  etag: string | null,
) => {
  const path = `${rowsPath(sheetId)}?_id=${position}`;
  await send('PATCH', path, { body: cells, headers: ifMatch(etag) });
};

export const deleteRow = async (sheetId: string, position: number, etag: string | null) => {
  await send('DELETE', `${rowsPath(sheetId)}?_id=${position}`, { headers: ifMatch(etag) });
};

export type DownloadFormat = 'csv' | 'xlsx';

const downloadTypes: Record<DownloadFormat, string> = {
  csv: 'text/csv',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The rows a query chooses, as a CSV or XLSX file, with the file name the API gives it. */
export const downloadRows = async (
  sheetId: string,
  queryString: string,
  format: DownloadFormat,
): Promise<{ blob: Blob; fileName: string | null }> => {
  const path = queryString === '' ? rowsPath(sheetId) : `${rowsPath(sheetId)}?${queryString}`;
  const response = await send('GET', path, { headers: { accept: downloadTypes[format] } });
  const disposition = response.headers.get('content-disposition') ?? '';
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1];
  return {
    blob: await response.blob(),
    fileName: encoded === undefined ? null : decodeURIComponent(encoded),
  };
};

/** The groups of a `_group`/`_agg` query: one object per group, keys as the query names them. */
export const readSummary = async (
  sheetId: string,
  queryString: string,
): Promise<Record<string, unknown>[]> => {
  const response = await send('GET', `${rowsPath(sheetId)}?${queryString}`);
  return (await response.json()) as Record<string, unknown>[];
};

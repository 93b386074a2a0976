import { send, request } from './client.ts';
import type { Cell, Row } from './types.ts';

/**
 * The row API, called as the administrator: with the administrator token when one is set, which
 * the row API accepts for every sheet.
 */

export const rowsPath = (sheetId: string) => `/api/v1/${encodeURIComponent(sheetId)}`;

/** A row as the grid shows it: its position, its key (null when the sheet cannot give keys). */
export interface GridRowData {
  position: number;
  key: string | null;
  row: Row;
}

/** Rows read with their positions and keys, and the ETag of the sheet's version they were read at. */
export interface ReadRows {
  rows: GridRowData[];
  etag: string | null;
}

/**
 * A sheet with a column named `_key` cannot give its rows' keys (the name would be taken twice):
 * its rows are written by position, guarded by the sheet's ETag.
 */
export const hasRowKeys = (columns: readonly string[]) => !columns.includes('_key');

/**
 * Rows with their positions (`_with_id=true`) and keys (`_with_key=true`), so that any row shown
 * can be written back: by key, which stays with the row while others move around it.
 */
export const readRows = async (
  sheetId: string,
  queryString: string,
  withKeys: boolean,
): Promise<ReadRows> => {
  const ask = withKeys ? '_with_id=true&_with_key=true' : '_with_id=true';
  const query = queryString === '' ? ask : `${queryString}&${ask}`;
  const response = await send('GET', `${rowsPath(sheetId)}?${query}`);
  const rows = (await response.json()) as (Row & { _id: number; _key?: string })[];
  return {
    rows: rows.map(({ _id, _key, ...row }) => ({ position: _id, key: _key ?? null, row })),
    etag: response.headers.get('etag'),
  };
};

/** Where one row is written: by its key, or by its position when the sheet has no keys. */
export type RowAddress = { key: string } | { position: number };

const rowPath = (sheetId: string, at: RowAddress) =>
  'key' in at
    ? `${rowsPath(sheetId)}/rows/${encodeURIComponent(at.key)}`
    : `${rowsPath(sheetId)}?_id=${at.position}`;

/** One row as it is now, and its own ETag, which changes only when its cells change. */
export const readRow = async (
  sheetId: string,
  key: string,
): Promise<{ row: Row; etag: string }> => {
  const response = await send('GET', rowPath(sheetId, { key }));
  const row = (await response.json()) as Row;
  delete row._key;
  return { row, etag: response.headers.get('etag') ?? '' };
};

/**
 * Writes carry an ETag (If-Match): a row's own, for a write by key, refused with 412 only if that
 * row changed since it was read; the sheet's, for a write by position, refused if anything in
 * the sheet changed (positions may have moved). Either way a refused write changes nothing.
 */
const ifMatch = (etag: string | null): Record<string, string> =>
  etag === null ? {} : { 'if-match': etag };

export const appendRow = (sheetId: string, row: Record<string, Cell>) =>
  request<{ created: number }>('POST', rowsPath(sheetId), row);

export const patchRow = async (
  sheetId: string,
  at: RowAddress,
  cells: Record<string, Cell>,
  etag: string | null,
) => {
  await send('PATCH', rowPath(sheetId, at), { body: cells, headers: ifMatch(etag) });
};

export const deleteRow = async (sheetId: string, at: RowAddress, etag: string | null) => {
  await send('DELETE', rowPath(sheetId, at), { headers: ifMatch(etag) });
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

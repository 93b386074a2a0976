/**
 * The drive items the emulator holds: files of a tenant, the workbook inside an Excel file, its
 * sessions, and the sharing links that lead to an item.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { copySheet, type Worksheet } from './worksheet.ts';

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface Workbook {
  worksheets: Worksheet[];
  /** Worksheets ever added, so a new one never takes a removed one's id. */
  sheetsAdded: number;
}

export interface Session {
  id: string;
  persistChanges: boolean;
  closed: boolean;
  lastUsedAt: number;
  /** A session that does not persist works on its own copy, lost when it closes. */
  copy?: Workbook;
}

export interface DriveItem {
  driveId: string;
  id: string;
  name: string;
  mimeType: string;
  tenant: string;
  /** Moves on every change that reaches the file; drives `eTag` and `cTag`. */
  version: number;
  lastModified: number;
  workbook?: Workbook;
  sessions: Map<string, Session>;
}

export const itemKey = (driveId: string, itemId: string): string => `${driveId}/${itemId}`;

/** Ids of the shapes OneDrive for Business gives: `b!…` drives, `01…` items. */
export const newDriveId = (): string => `b!${randomBytes(48).toString('base64url').slice(0, 64)}`;
export const newItemId = (): string =>
  `01${randomBytes(24)
    .toString('base64')
    .replace(/[^A-Z0-9]/gi, '')
    .toUpperCase()
    .padEnd(32, 'Q')
    .slice(0, 32)}`;

export const worksheetId = (ordinal: number): string =>
  `{${String(ordinal).padStart(8, '0')}-0001-0000-0000-000000000000}`;

export const copyWorkbook = (workbook: Workbook): Workbook => ({
  ...workbook,
  worksheets: workbook.worksheets.map(copySheet),
});

export function driveItemResource(item: DriveItem) {
  const eTag = `"{${item.id}},${item.version}"`;
  return {
    id: item.id,
    name: item.name,
    eTag,
    cTag: `"c:{${item.id}},${item.version}"`,
    lastModifiedDateTime: new Date(item.lastModified).toISOString(),
    size: 8192,
    parentReference: {
      driveType: 'business',
      driveId: item.driveId,
      id: `01${'ROOT'.padEnd(32, 'A')}`,
    },
    file: { mimeType: item.mimeType },
  };
}

export function newSession(workbook: Workbook, persistChanges: boolean): Session {
  const id = `cluster=PUS${randomBytes(2).toString('hex')}&session=${randomUUID()}`;
  const base = { id, persistChanges, closed: false, lastUsedAt: 0 };
  return persistChanges ? base : { ...base, copy: copyWorkbook(workbook) };
}

/** `u!` + base64url of the sharing URL without padding, as Graph's shares API takes it. */
export const shareIdOf = (url: string): string =>
  `u!${Buffer.from(url, 'utf8').toString('base64url')}`;

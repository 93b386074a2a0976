/**
 * Developer metadata: key/value entries on the whole spreadsheet, on one sheet or on one row of a
 * sheet, each with a spreadsheet-unique id, kept beside the tabs so a batchUpdate changes them
 * all-or-nothing with the cells. Entries are replaced, never changed in place, so a draft only
 * copies the list. A row's entries move with the row (see row-metadata.ts); column locations
 * are refused.
 */
import { randomInt } from 'node:crypto';
import type { sheets_v4 } from '@googleapis/sheets';
import { enumField, integerField, objectField, stringField, type JsonObject } from './json.ts';

export const VISIBILITIES = ['DOCUMENT', 'PROJECT'] as const;
export const LOCATION_TYPES = ['ROW', 'COLUMN', 'SHEET', 'SPREADSHEET'] as const;

export type Visibility = (typeof VISIBILITIES)[number];
export type LocationType = (typeof LOCATION_TYPES)[number];
/** `row`: the grid row (0 is the sheet's first) of a location on one row. */
export type MetadataLocation = { spreadsheet: true } | { sheetId: number; row?: number };

export interface StoredMetadata {
  metadataId: number;
  metadataKey: string;
  /** Unset and '' are one and the same, as in Google's proto3 JSON. */
  metadataValue: string;
  location: MetadataLocation;
  visibility: Visibility;
}

export type Fail = (message: string) => Error;

/** The DeveloperMetadata resource, with the read-only `locationType` Google adds. */
export function metadataResource(entry: StoredMetadata): sheets_v4.Schema$DeveloperMetadata {
  return {
    metadataId: entry.metadataId,
    metadataKey: entry.metadataKey,
    ...(entry.metadataValue === '' ? {} : { metadataValue: entry.metadataValue }),
    location: locationResource(entry.location),
    visibility: entry.visibility,
  };
}

/** A location as Google answers it: a row as the one-row `dimensionRange` it was given. */
function locationResource(location: MetadataLocation): sheets_v4.Schema$DeveloperMetadataLocation {
  const locationType = locationTypeOf(location);
  if (!('sheetId' in location)) return { locationType, spreadsheet: true };
  if (location.row === undefined) return { locationType, sheetId: location.sheetId };
  const { sheetId, row } = location;
  return {
    locationType,
    dimensionRange: { sheetId, dimension: 'ROWS', startIndex: row, endIndex: row + 1 },
  };
}

export function locationTypeOf(location: MetadataLocation): LocationType {
  if (!('sheetId' in location)) return 'SPREADSHEET';
  return location.row === undefined ? 'SHEET' : 'ROW';
}

export function sameLocation(a: MetadataLocation, b: MetadataLocation): boolean {
  if (!('sheetId' in a) || !('sheetId' in b)) return !('sheetId' in a) && !('sheetId' in b);
  return a.sheetId === b.sheetId && a.row === b.row;
}

/** Whether an entry lies on the sheet, on the sheet itself or on one of its rows. */
export function onSheet(location: MetadataLocation, sheetId: number): boolean {
  return 'sheetId' in location && location.sheetId === sheetId;
}

/** The resources of the entries on one location, for spreadsheets.get. */
export function metadataAt(
  entries: StoredMetadata[],
  location: MetadataLocation,
): sheets_v4.Schema$DeveloperMetadata[] {
  return entries.filter((entry) => sameLocation(entry.location, location)).map(metadataResource);
}

/** A DeveloperMetadataLocation: exactly one of `spreadsheet: true`, `sheetId` and a row. */
export function parseLocation(json: JsonObject, where: string, fail: Fail): MetadataLocation {
  const range = objectField(json, 'dimensionRange', where);
  const sheetId = integerField(json, 'sheetId', where);
  const spreadsheet = json.spreadsheet === true;
  if ([range !== undefined, sheetId !== undefined, spreadsheet].filter(Boolean).length !== 1) {
    throw fail(`${where} must set exactly one of spreadsheet, sheetId or dimensionRange.`);
  }
  if (range !== undefined) return parseRow(range, `${where}.dimensionRange`, fail);
  return sheetId === undefined ? { spreadsheet: true } : { sheetId };
}

/** A `dimensionRange` location: as the reference says, exactly one row or column, bounded. */
function parseRow(range: JsonObject, where: string, fail: Fail): MetadataLocation {
  const dimension = stringField(range, 'dimension', where);
  const start = integerField(range, 'startIndex', where);
  const end = integerField(range, 'endIndex', where);
  if (start === undefined || end === undefined || end !== start + 1 || start < 0) {
    throw fail(`${where} must represent a single row or column.`);
  }
  if (dimension === 'COLUMNS') {
    throw fail(`${where}: developer metadata on columns is not supported by the emulator.`);
  }
  if (dimension !== 'ROWS') throw fail(`${where}.dimension must be ROWS or COLUMNS.`);
  return { sheetId: integerField(range, 'sheetId', where) ?? 0, row: start };
}

/** The fields of a DeveloperMetadata body one by one, for create and for masked updates. */
export const metadataFields = {
  metadataKey(json: JsonObject, where: string): string {
    return stringField(json, 'metadataKey', where) ?? '';
  },
  metadataValue(json: JsonObject, where: string): string {
    return stringField(json, 'metadataValue', where) ?? '';
  },
  visibility(json: JsonObject, where: string): Visibility | undefined {
    const type = 'DeveloperMetadata.DeveloperMetadataVisibility';
    return enumField(json, 'visibility', VISIBILITIES, where, type);
  },
  location(json: JsonObject, where: string, fail: Fail): MetadataLocation | undefined {
    const location = objectField(json, 'location', where);
    return location && parseLocation(location, `${where}.location`, fail);
  },
};

/** The metadata of a createDeveloperMetadata body, checked as Google checks it. */
export function parseMetadata(
  json: JsonObject,
  where: string,
  fail: Fail,
): Omit<StoredMetadata, 'metadataId'> & { metadataId?: number } {
  const metadataId = integerField(json, 'metadataId', where);
  if (metadataId !== undefined && metadataId <= 0) {
    throw fail(`${where}.metadataId must be positive, not ${metadataId}.`);
  }
  const entry = {
    metadataKey: metadataFields.metadataKey(json, where),
    metadataValue: metadataFields.metadataValue(json, where),
    visibility: metadataFields.visibility(json, where),
    location: metadataFields.location(json, where, fail),
  };
  return { ...checkComplete(entry, fail), ...(metadataId === undefined ? {} : { metadataId }) };
}

/** Every entry needs a key, a visibility and a location, whether created or updated. */
export function checkComplete(
  entry: Partial<Omit<StoredMetadata, 'metadataId'>>,
  fail: Fail,
): Omit<StoredMetadata, 'metadataId'> {
  const { metadataKey, metadataValue = '', visibility, location } = entry;
  if (!metadataKey) throw fail('Developer metadata must always have a key specified.');
  if (!visibility) throw fail('Developer metadata must always have visibility specified.');
  if (!location) throw fail('Developer metadata must always have a location specified.');
  return { metadataKey, metadataValue, visibility, location };
}

/** A random positive int32 no entry of the spreadsheet holds, as Google assigns them. */
export function freshMetadataId(entries: StoredMetadata[]): number {
  const taken = new Set(entries.map((entry) => entry.metadataId));
  for (;;) {
    const id = randomInt(1, 2 ** 31);
    if (!taken.has(id)) return id;
  }
}

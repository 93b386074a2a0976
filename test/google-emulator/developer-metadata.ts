/**
 * Developer metadata: key/value entries on the whole spreadsheet or on one sheet, each with a
 * spreadsheet-unique id, kept beside the tabs so a batchUpdate changes them all-or-nothing with
 * the cells. Entries are replaced, never changed in place, so a draft only copies the list.
 * Row and column locations (`dimensionRange`) are refused: the emulator does not move metadata
 * with its rows.
 */
import { randomInt } from 'node:crypto';
import type { sheets_v4 } from '@googleapis/sheets';
import { enumField, integerField, objectField, stringField, type JsonObject } from './json.ts';

export const VISIBILITIES = ['DOCUMENT', 'PROJECT'] as const;
export const LOCATION_TYPES = ['ROW', 'COLUMN', 'SHEET', 'SPREADSHEET'] as const;

export type Visibility = (typeof VISIBILITIES)[number];
export type LocationType = (typeof LOCATION_TYPES)[number];
export type MetadataLocation = { spreadsheet: true } | { sheetId: number };

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
    location: { locationType: locationTypeOf(entry.location), ...entry.location },
    visibility: entry.visibility,
  };
}

export function locationTypeOf(location: MetadataLocation): LocationType {
  return 'sheetId' in location ? 'SHEET' : 'SPREADSHEET';
}

export function sameLocation(a: MetadataLocation, b: MetadataLocation): boolean {
  return 'sheetId' in a ? 'sheetId' in b && a.sheetId === b.sheetId : !('sheetId' in b);
}

/** The resources of the entries on one location, for spreadsheets.get. */
export function metadataAt(
  entries: StoredMetadata[],
  location: MetadataLocation,
): sheets_v4.Schema$DeveloperMetadata[] {
  return entries.filter((entry) => sameLocation(entry.location, location)).map(metadataResource);
}

/** A DeveloperMetadataLocation: exactly one of `spreadsheet: true` and `sheetId`. */
export function parseLocation(json: JsonObject, where: string, fail: Fail): MetadataLocation {
  if (json.dimensionRange !== undefined && json.dimensionRange !== null) {
    throw fail(
      `${where}.dimensionRange: developer metadata on rows and columns is not supported by the emulator.`,
    );
  }
  const sheetId = integerField(json, 'sheetId', where);
  const spreadsheet = json.spreadsheet === true;
  if ((sheetId !== undefined) === spreadsheet) {
    throw fail(`${where} must set exactly one of spreadsheet, sheetId or dimensionRange.`);
  }
  return sheetId === undefined ? { spreadsheet: true } : { sheetId };
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

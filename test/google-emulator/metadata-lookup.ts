/**
 * DataFilters that select developer metadata: a `developerMetadataLookup` narrows by every field
 * it sets (an empty one selects everything). The location rules are the ones the reference
 * states for DeveloperMetadataLookup; `a1Range` and `gridRange` filters are not supported.
 */
import {
  LOCATION_TYPES,
  VISIBILITIES,
  locationTypeOf,
  parseLocation,
  sameLocation,
  type Fail,
  type LocationType,
  type MetadataLocation,
  type StoredMetadata,
  type Visibility,
} from './developer-metadata.ts';
import { enumField, integerField, isObject, objectField, stringField, type Json } from './json.ts';

const STRATEGIES = ['EXACT_LOCATION', 'INTERSECTING_LOCATION'] as const;

export interface Lookup {
  metadataId?: number;
  metadataKey?: string;
  metadataValue?: string;
  visibility?: Visibility;
  locationType?: LocationType;
  /** On spreadsheet and sheet locations, exact and intersecting select the same entries. */
  location?: MetadataLocation;
}

/** The lookup of a DataFilter, refusing the combinations the reference forbids. */
export function parseDataFilter(filter: Json | undefined, where: string, fail: Fail): Lookup {
  if (!isObject(filter)) throw fail(`${where} must be a DataFilter.`);
  if (filter.a1Range !== undefined || filter.gridRange !== undefined) {
    throw fail(
      `${where}: a1Range and gridRange filters are not supported by the emulator, only developerMetadataLookup.`,
    );
  }
  const lookup = objectField(filter, 'developerMetadataLookup', where);
  if (!lookup) throw fail(`${where} must set developerMetadataLookup.`);
  const at = `${where}.developerMetadataLookup`;
  const strategy = enumField(
    lookup,
    'locationMatchingStrategy',
    STRATEGIES,
    at,
    'DeveloperMetadataLookup.DeveloperMetadataLocationMatchingStrategy',
  );
  const locationType = enumField(
    lookup,
    'locationType',
    LOCATION_TYPES,
    at,
    'DeveloperMetadataLocation.DeveloperMetadataLocationType',
  );
  const located = objectField(lookup, 'metadataLocation', at);
  const location = located && parseLocation(located, `${at}.metadataLocation`, fail);
  checkLocationRules({ strategy, locationType, location }, at, fail);
  // Zero and '' are proto3 defaults, which Google cannot tell from unset.
  const text = (key: string) => stringField(lookup, key, at) || undefined;
  const visibilityType = 'DeveloperMetadata.DeveloperMetadataVisibility';
  const parsed: Lookup = {
    metadataId: integerField(lookup, 'metadataId', at) || undefined,
    metadataKey: text('metadataKey'),
    metadataValue: text('metadataValue'),
    visibility: enumField(lookup, 'visibility', VISIBILITIES, at, visibilityType),
    locationType,
    location,
  };
  return Object.fromEntries(
    Object.entries(parsed).filter(([, value]) => value !== undefined),
  ) as Lookup;
}

function checkLocationRules(
  rules: {
    strategy: (typeof STRATEGIES)[number] | undefined;
    locationType: LocationType | undefined;
    location: MetadataLocation | undefined;
  },
  at: string,
  fail: Fail,
): void {
  const { strategy, locationType, location } = rules;
  if (strategy && !location) {
    throw fail(`${at}: locationMatchingStrategy needs a metadataLocation.`);
  }
  if (locationType && strategy === 'EXACT_LOCATION') {
    throw fail(
      `${at}: locationType must be left unset when locationMatchingStrategy is EXACT_LOCATION.`,
    );
  }
  const onSpreadsheet = location !== undefined && !('sheetId' in location);
  if (
    (locationType === 'SPREADSHEET' && location !== undefined && !onSpreadsheet) ||
    ((locationType === 'SPREADSHEET' || onSpreadsheet) && strategy === 'INTERSECTING_LOCATION')
  ) {
    throw fail(
      `${at}: spreadsheet metadata cannot intersect any other developer metadata location.`,
    );
  }
}

export function matches(lookup: Lookup, entry: StoredMetadata): boolean {
  return (
    (lookup.metadataId === undefined || lookup.metadataId === entry.metadataId) &&
    (lookup.metadataKey === undefined || lookup.metadataKey === entry.metadataKey) &&
    (lookup.metadataValue === undefined || lookup.metadataValue === entry.metadataValue) &&
    (lookup.visibility === undefined || lookup.visibility === entry.visibility) &&
    (lookup.locationType === undefined || lookup.locationType === locationTypeOf(entry.location)) &&
    (lookup.location === undefined || sameLocation(lookup.location, entry.location))
  );
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StoredMetadata } from './developer-metadata.ts';
import type { Json } from './json.ts';
import { matches, parseDataFilter } from './metadata-lookup.ts';

const fail = (message: string) => new Error(message);
const parse = (lookup: Json) =>
  parseDataFilter({ developerMetadataLookup: lookup }, 'dataFilters[0]', fail);

describe('parseDataFilter', () => {
  const accepted: [Json, ReturnType<typeof parse>][] = [
    [{}, {}],
    [{ metadataKey: 'k', metadataValue: '', metadataId: 0 }, { metadataKey: 'k' }],
    [
      { metadataId: '5', visibility: 'PROJECT' },
      { metadataId: 5, visibility: 'PROJECT' },
    ],
    [{ locationType: 'SHEET' }, { locationType: 'SHEET' }],
    [
      { metadataLocation: { sheetId: 0 }, locationMatchingStrategy: 'EXACT_LOCATION' },
      { location: { sheetId: 0 } },
    ],
    [
      { metadataLocation: { sheetId: 7 }, locationMatchingStrategy: 'INTERSECTING_LOCATION' },
      { location: { sheetId: 7 } },
    ],
    [
      { metadataLocation: { spreadsheet: true }, locationType: 'SPREADSHEET' },
      { location: { spreadsheet: true }, locationType: 'SPREADSHEET' },
    ],
  ];
  for (const [lookup, expected] of accepted) {
    it(`accepts ${JSON.stringify(lookup)}`, () => assert.deepEqual(parse(lookup), expected));
  }

  const refused: [string, Json, RegExp][] = [
    [
      'a matching strategy without a location',
      { locationMatchingStrategy: 'EXACT_LOCATION' },
      /locationMatchingStrategy needs a metadataLocation/,
    ],
    [
      'a location type with EXACT_LOCATION',
      {
        metadataLocation: { sheetId: 0 },
        locationMatchingStrategy: 'EXACT_LOCATION',
        locationType: 'SHEET',
      },
      /locationType must be left unset/,
    ],
    [
      'SPREADSHEET with INTERSECTING_LOCATION',
      {
        metadataLocation: { spreadsheet: true },
        locationMatchingStrategy: 'INTERSECTING_LOCATION',
      },
      /spreadsheet metadata cannot intersect/,
    ],
    [
      'locationType SPREADSHEET on a sheet location',
      { metadataLocation: { sheetId: 0 }, locationType: 'SPREADSHEET' },
      /spreadsheet metadata cannot intersect/,
    ],
    [
      'a column location',
      {
        metadataLocation: {
          dimensionRange: { sheetId: 0, dimension: 'COLUMNS', startIndex: 1, endIndex: 2 },
        },
      },
      /dimensionRange: developer metadata on columns is not supported by the emulator/,
    ],
    [
      'a location with both spreadsheet and sheetId',
      { metadataLocation: { spreadsheet: true, sheetId: 0 } },
      /must set exactly one of spreadsheet, sheetId or dimensionRange/,
    ],
    [
      'an unknown visibility',
      { visibility: 'PUBLIC' },
      /Invalid value at 'dataFilters\[0\]\.developerMetadataLookup\.visibility' \(type\.googleapis\.com\/google\.apps\.sheets\.v4\.DeveloperMetadata\.DeveloperMetadataVisibility\), "PUBLIC"/,
    ],
  ];
  for (const [title, lookup, message] of refused) {
    it(`refuses ${title}`, () => assert.throws(() => parse(lookup), message));
  }

  it('refuses a1Range and gridRange filters, and a filter without a lookup', () => {
    const filter = (json: Json) => () => parseDataFilter(json, 'dataFilter', fail);
    assert.throws(filter({ a1Range: 'Sheet1!A1' }), /a1Range and gridRange filters are not/);
    assert.throws(filter({ gridRange: { sheetId: 0 } }), /a1Range and gridRange filters are not/);
    assert.throws(filter({}), /dataFilter must set developerMetadataLookup/);
  });
});

describe('matches', () => {
  const entries: StoredMetadata[] = [
    {
      metadataId: 1,
      metadataKey: 'seq',
      metadataValue: '7',
      location: { spreadsheet: true },
      visibility: 'DOCUMENT',
    },
    {
      metadataId: 2,
      metadataKey: 'seq',
      metadataValue: '',
      location: { sheetId: 0 },
      visibility: 'PROJECT',
    },
    {
      metadataId: 3,
      metadataKey: 'owner',
      metadataValue: '7',
      location: { sheetId: 9 },
      visibility: 'DOCUMENT',
    },
  ];
  const cases: [Json, number[]][] = [
    [{}, [1, 2, 3]],
    [{ metadataKey: 'seq' }, [1, 2]],
    [{ metadataValue: '7' }, [1, 3]],
    [{ metadataKey: 'seq', metadataValue: '7' }, [1]],
    [{ metadataId: 3 }, [3]],
    [{ visibility: 'PROJECT' }, [2]],
    [{ locationType: 'SHEET' }, [2, 3]],
    [{ locationType: 'SPREADSHEET' }, [1]],
    [{ locationType: 'ROW' }, []],
    [{ metadataLocation: { sheetId: 9 } }, [3]],
    [{ metadataLocation: { spreadsheet: true } }, [1]],
    [{ metadataLocation: { sheetId: 0 }, metadataKey: 'owner' }, []],
  ];
  for (const [lookup, ids] of cases) {
    it(`${JSON.stringify(lookup)} selects ${JSON.stringify(ids)}`, () => {
      const selected = entries.filter((entry) => matches(parse(lookup), entry));
      assert.deepEqual(
        selected.map((entry) => entry.metadataId),
        ids,
      );
    });
  }
});

/**
 * Developer metadata read through the real client: spreadsheets.get, developerMetadata.get and
 * developerMetadata.search, and the scopes they need.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import { serviceAccountClient, sheetsClient } from './clients.ts';
import {
  badRequest,
  keysAndValues,
  metadataSheets,
  onSpreadsheet,
} from './metadata-test-support.ts';
import { failure, googleError, useEmulator } from './test-support.ts';

const fixture = useEmulator();
const { twoTabs, tagged } = metadataSheets(fixture);

describe('reading metadata', () => {
  it('spreadsheets.get carries spreadsheet metadata at the top and sheet metadata on its sheet, within fields', async () => {
    const { id, other } = await tagged();
    const { data } = await fixture.api.spreadsheets.get({
      spreadsheetId: id,
      fields:
        'developerMetadata(metadataKey,metadataValue),sheets(properties/sheetId,developerMetadata/metadataId)',
    });
    assert.deepEqual(data, {
      developerMetadata: [{ metadataKey: 'seq', metadataValue: '7' }],
      sheets: [
        { properties: { sheetId: 0 }, developerMetadata: [{ metadataId: 3 }] },
        { properties: { sheetId: other }, developerMetadata: [{ metadataId: 2 }] },
      ],
    });
    const one = await fixture.api.spreadsheets.get({ spreadsheetId: id, ranges: ['Other!A1'] });
    assert.deepEqual(
      one.data.sheets?.map((sheet) => keysAndValues(sheet.developerMetadata)),
      [['2:seq=7']],
    );
    const bare = (await twoTabs()).id;
    const plain = await fixture.api.spreadsheets.get({ spreadsheetId: bare });
    assert.equal('developerMetadata' in plain.data, false, 'no metadata, no field');
    assert.equal('developerMetadata' in (plain.data.sheets?.[0] ?? {}), false);
  });

  it('developerMetadata.get answers one entry by id; an unknown id is 404, a non-number 400', async () => {
    const { id, other } = await tagged();
    const { data } = await fixture.api.spreadsheets.developerMetadata.get({
      spreadsheetId: id,
      metadataId: 2,
    });
    assert.deepEqual(data, {
      metadataId: 2,
      metadataKey: 'seq',
      metadataValue: '7',
      location: { locationType: 'SHEET', sheetId: other },
      visibility: 'PROJECT',
    });
    const missing = await failure(
      fixture.api.spreadsheets.developerMetadata.get({ spreadsheetId: id, metadataId: 99 }),
    );
    assert.deepEqual(
      missing.body,
      googleError(404, 'NOT_FOUND', 'Requested entity was not found.'),
    );
    const url = `${fixture.emulator.url}/v4/spreadsheets/${id}/developerMetadata/abc`;
    const token = (await serviceAccountClient(fixture.emulator, fixture.key).getAccessToken())
      .token;
    const answer = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    assert.deepEqual(
      await answer.json(),
      badRequest(`Invalid value at 'metadata_id' (TYPE_INT32), "abc"`),
    );
  });

  it('developerMetadata.search selects by key, value, id, location, location type and visibility', async () => {
    const { id, other } = await tagged();
    const search = async (developerMetadataLookup: sheets_v4.Schema$DeveloperMetadataLookup) => {
      const { data } = await fixture.api.spreadsheets.developerMetadata.search({
        spreadsheetId: id,
        requestBody: { dataFilters: [{ developerMetadataLookup }] },
      });
      return (data.matchedDeveloperMetadata ?? []).map(
        (match) => match.developerMetadata?.metadataId,
      );
    };
    const cases: [sheets_v4.Schema$DeveloperMetadataLookup, number[]][] = [
      [{ metadataKey: 'seq' }, [1, 2]],
      [{ metadataKey: 'seq', metadataValue: '7', visibility: 'DOCUMENT' }, [1]],
      [{ metadataId: 3 }, [3]],
      [{ locationType: 'SHEET' }, [2, 3]],
      [{ metadataLocation: { sheetId: other }, locationMatchingStrategy: 'EXACT_LOCATION' }, [2]],
      [{ metadataLocation: { sheetId: 0 } }, [3]],
      [{ metadataLocation: onSpreadsheet, locationMatchingStrategy: 'EXACT_LOCATION' }, [1]],
      [{ visibility: 'PROJECT' }, [2]],
      [{ metadataKey: 'nobody' }, []],
    ];
    for (const [lookup, ids] of cases)
      assert.deepEqual(await search(lookup), ids, JSON.stringify(lookup));
  });

  it('search answers each entry once with every filter that selected it, and {} for none', async () => {
    const { id } = await tagged();
    const byKey = { developerMetadataLookup: { metadataKey: 'seq' } };
    const byType = { developerMetadataLookup: { locationType: 'SPREADSHEET' } };
    const { data } = await fixture.api.spreadsheets.developerMetadata.search({
      spreadsheetId: id,
      requestBody: { dataFilters: [byKey, byType] },
    });
    assert.deepEqual(
      data.matchedDeveloperMetadata?.map((match) => [
        match.developerMetadata?.metadataId,
        match.dataFilters,
      ]),
      [
        [1, [byKey, byType]],
        [2, [byKey]],
      ],
    );
    const none = await fixture.api.spreadsheets.developerMetadata.search({
      spreadsheetId: id,
      requestBody: { dataFilters: [{ developerMetadataLookup: { metadataKey: 'nobody' } }] },
    });
    assert.deepEqual(none.data, {});
  });

  it('search refuses no filters and the lookups the reference forbids', async () => {
    const { id } = await tagged();
    const refused = async (dataFilters: sheets_v4.Schema$DataFilter[]) =>
      (
        await failure(
          fixture.api.spreadsheets.developerMetadata.search({
            spreadsheetId: id,
            requestBody: { dataFilters },
          }),
        )
      ).body;
    assert.deepEqual(await refused([]), badRequest('At least one data filter must be specified.'));
    assert.deepEqual(
      await refused([{ developerMetadataLookup: { locationMatchingStrategy: 'EXACT_LOCATION' } }]),
      badRequest(
        'dataFilters[0].developerMetadataLookup: locationMatchingStrategy needs a metadataLocation.',
      ),
    );
    assert.deepEqual(
      await refused([{ a1Range: 'Sheet1!A1' }]),
      badRequest(
        'dataFilters[0]: a1Range and gridRange filters are not supported by the emulator, only developerMetadataLookup.',
      ),
    );
  });

  it('get and search need a scope that can write, as Google lists for them; spreadsheets.get does not', async () => {
    const { id } = await tagged();
    const readonly = sheetsClient(
      fixture.emulator,
      serviceAccountClient(fixture.emulator, fixture.key, {
        scopes: ['https://www.googleapis.com/auth/spreadsheets.readonly'],
      }),
    );
    const { data } = await readonly.spreadsheets.get({
      spreadsheetId: id,
      fields: 'developerMetadata/metadataId',
    });
    assert.deepEqual(data, { developerMetadata: [{ metadataId: 1 }] });
    const denied = await failure(
      readonly.spreadsheets.developerMetadata.get({ spreadsheetId: id, metadataId: 1 }),
    );
    assert.equal(denied.status, 403);
    const searched = await failure(
      readonly.spreadsheets.developerMetadata.search({
        spreadsheetId: id,
        requestBody: { dataFilters: [{ developerMetadataLookup: {} }] },
      }),
    );
    assert.equal(searched.status, 403);
  });
});

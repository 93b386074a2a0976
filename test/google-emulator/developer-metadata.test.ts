/**
 * Developer metadata written through the real client: the batchUpdate requests, their replies and
 * refusals, and the all-or-nothing batch they share with cell requests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import {
  appendRow,
  badRequest,
  create,
  keysAndValues,
  metadataSheets,
  onSpreadsheet,
  type Metadata,
} from './metadata-test-support.ts';
import { failure, networkFailure, useEmulator } from './test-support.ts';

const fixture = useEmulator();
const { batch, twoTabs, tagged } = metadataSheets(fixture);

describe('createDeveloperMetadata', () => {
  it('replies at its own index among cell requests, with a fresh id and locationType filled in', async () => {
    const { id } = await twoTabs();
    const { data } = await batch(id, [
      appendRow(0, 'b'),
      create({
        metadataKey: 'sheetport.push',
        metadataValue: '7',
        location: onSpreadsheet,
        visibility: 'DOCUMENT',
      }),
      create({ metadataKey: 'sheetport.tab', location: { sheetId: 0 }, visibility: 'PROJECT' }),
      { appendDimension: { sheetId: 0, dimension: 'ROWS', length: 1 } },
    ]);
    const created = [1, 2].map(
      (i) => data.replies?.[i]?.createDeveloperMetadata?.developerMetadata,
    );
    const [first, second] = created.map((entry) => entry?.metadataId ?? 0);
    assert.deepEqual(data.replies, [
      {},
      {
        createDeveloperMetadata: {
          developerMetadata: {
            metadataId: first,
            metadataKey: 'sheetport.push',
            metadataValue: '7',
            location: { locationType: 'SPREADSHEET', spreadsheet: true },
            visibility: 'DOCUMENT',
          },
        },
      },
      {
        createDeveloperMetadata: {
          developerMetadata: {
            metadataId: second,
            metadataKey: 'sheetport.tab',
            location: { locationType: 'SHEET', sheetId: 0 },
            visibility: 'PROJECT',
          },
        },
      },
      {},
    ]);
    for (const metadataId of [first ?? 0, second ?? 0]) {
      assert.ok(Number.isInteger(metadataId) && metadataId > 0 && metadataId < 2 ** 31);
    }
    assert.notEqual(first, second);
    assert.deepEqual(fixture.emulator.developerMetadata(id), created);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a'], ['b']]);
  });

  it('keeps a given metadataId; an id already taken refuses the whole batch', async () => {
    const { id } = await tagged();
    const before = fixture.emulator.developerMetadata(id);
    const entry = (metadataId: number) =>
      create({ metadataId, metadataKey: 'again', location: onSpreadsheet, visibility: 'DOCUMENT' });
    const cases: [sheets_v4.Schema$Request[], string][] = [
      [
        [appendRow(0, 'lost'), entry(1)],
        'requests[1].createDeveloperMetadata: Developer metadata with id 1',
      ],
      [
        [appendRow(0, 'lost'), entry(9), entry(9)],
        'requests[2].createDeveloperMetadata: Developer metadata with id 9',
      ],
    ];
    for (const [requests, message] of cases) {
      const refused = await failure(batch(id, requests));
      assert.deepEqual(refused.body, badRequest(`Invalid ${message} already exists.`));
    }
    assert.deepEqual(fixture.emulator.developerMetadata(id), before);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a']]);
  });

  it('refuses an entry without key, visibility or location, on an unknown sheet, or on a column', async () => {
    const { id } = await twoTabs();
    const cases: [Metadata, string][] = [
      [
        { location: onSpreadsheet, visibility: 'DOCUMENT' },
        'Developer metadata must always have a key specified.',
      ],
      [
        { metadataKey: 'k', location: onSpreadsheet },
        'Developer metadata must always have visibility specified.',
      ],
      [
        { metadataKey: 'k', visibility: 'DOCUMENT' },
        'Developer metadata must always have a location specified.',
      ],
      [
        { metadataKey: 'k', visibility: 'DOCUMENT', location: { sheetId: 12345 } },
        'No grid with id: 12345',
      ],
      [
        { metadataKey: 'k', visibility: 'DOCUMENT', location: onSpreadsheet, metadataId: -4 },
        'developerMetadata.metadataId must be positive, not -4.',
      ],
      [
        {
          metadataKey: 'k',
          visibility: 'DOCUMENT',
          location: {
            dimensionRange: { sheetId: 0, dimension: 'COLUMNS', startIndex: 0, endIndex: 1 },
          },
        },
        'developerMetadata.location.dimensionRange: developer metadata on columns is not supported by the emulator.',
      ],
    ];
    for (const [metadata, message] of cases) {
      const refused = await failure(batch(id, [create(metadata)]));
      assert.deepEqual(
        refused.body,
        badRequest(`Invalid requests[0].createDeveloperMetadata: ${message}`),
      );
    }
    const enumRefused = await failure(
      batch(id, [create({ metadataKey: 'k', visibility: 'PUBLIC', location: onSpreadsheet })]),
    );
    assert.match(
      (enumRefused.body as { error: { message: string } }).error.message,
      /^Invalid JSON payload received\. Invalid value at 'developerMetadata\.visibility' .*"PUBLIC"$/,
    );
    assert.deepEqual(fixture.emulator.developerMetadata(id), []);
  });
});

describe('updateDeveloperMetadata and deleteDeveloperMetadata', () => {
  const bySeq = [{ developerMetadataLookup: { metadataKey: 'seq' } }];

  it('update changes only the masked fields of every entry its filters select, and replies with them', async () => {
    const { id, other } = await tagged();
    const { data } = await batch(id, [
      {
        updateDeveloperMetadata: {
          dataFilters: bySeq,
          developerMetadata: { metadataKey: 'ignored', metadataValue: '8' },
          fields: 'metadataValue',
        },
      },
    ]);
    assert.deepEqual(keysAndValues(data.replies?.[0]?.updateDeveloperMetadata?.developerMetadata), [
      '1:seq=8',
      '2:seq=8',
    ]);
    assert.deepEqual(keysAndValues(fixture.emulator.developerMetadata(id)), [
      '1:seq=8',
      '2:seq=8',
      '3:owner=',
    ]);
    await batch(id, [
      {
        updateDeveloperMetadata: {
          dataFilters: [{ developerMetadataLookup: { metadataId: 3 } }],
          developerMetadata: {
            metadataKey: 'owner',
            location: { sheetId: other },
            visibility: 'PROJECT',
          },
          fields: '*',
        },
      },
    ]);
    assert.deepEqual(fixture.emulator.developerMetadata(id).at(-1), {
      metadataId: 3,
      metadataKey: 'owner',
      location: { locationType: 'SHEET', sheetId: other },
      visibility: 'PROJECT',
    });
    const none = await batch(id, [
      {
        updateDeveloperMetadata: {
          dataFilters: [{ developerMetadataLookup: { metadataKey: 'nobody' } }],
          developerMetadata: { metadataValue: '1' },
          fields: 'metadataValue',
        },
      },
    ]);
    assert.deepEqual(none.data.replies, [{ updateDeveloperMetadata: {} }]);
  });

  it('update refuses no mask, a field it cannot change, and a masked field left empty', async () => {
    const { id } = await tagged();
    const before = fixture.emulator.developerMetadata(id);
    const cases: [string | undefined, Metadata, string][] = [
      [undefined, { metadataValue: '9' }, 'fields must name at least one field.'],
      [
        'metadataId',
        { metadataId: 5 },
        'fields: metadataId cannot be updated; only metadataKey, metadataValue, location, visibility can.',
      ],
      [
        'visibility',
        { metadataValue: '9' },
        'Developer metadata must always have visibility specified.',
      ],
    ];
    for (const [fields, developerMetadata, message] of cases) {
      const refused = await failure(
        batch(id, [
          {
            updateDeveloperMetadata: {
              dataFilters: bySeq,
              developerMetadata,
              ...(fields ? { fields } : {}),
            },
          },
        ]),
      );
      assert.deepEqual(
        refused.body,
        badRequest(`Invalid requests[0].updateDeveloperMetadata: ${message}`),
      );
    }
    assert.deepEqual(fixture.emulator.developerMetadata(id), before);
  });

  it('delete removes every entry its filter selects and replies with them', async () => {
    const { id } = await tagged();
    const { data } = await batch(id, [{ deleteDeveloperMetadata: { dataFilter: bySeq[0] } }]);
    assert.deepEqual(
      keysAndValues(data.replies?.[0]?.deleteDeveloperMetadata?.deletedDeveloperMetadata),
      ['1:seq=7', '2:seq=7'],
    );
    assert.deepEqual(keysAndValues(fixture.emulator.developerMetadata(id)), ['3:owner=']);
    const again = await batch(id, [{ deleteDeveloperMetadata: { dataFilter: bySeq[0] } }]);
    assert.deepEqual(again.data.replies, [{ deleteDeveloperMetadata: {} }]);
    const refused = await failure(batch(id, [{ deleteDeveloperMetadata: {} }]));
    assert.deepEqual(
      refused.body,
      badRequest('Invalid requests[0].deleteDeveloperMetadata: dataFilter must be set.'),
    );
  });
});

describe('metadata in the atomic batch', () => {
  it('a failing request anywhere in the batch changes no metadata and no cells', async () => {
    const { id } = await tagged();
    const before = fixture.emulator.developerMetadata(id);
    const refused = await failure(
      batch(id, [
        create({ metadataKey: 'new', location: onSpreadsheet, visibility: 'DOCUMENT' }),
        {
          updateDeveloperMetadata: {
            dataFilters: [{ developerMetadataLookup: { metadataKey: 'seq' } }],
            developerMetadata: { metadataValue: '8' },
            fields: 'metadataValue',
          },
        },
        { deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataId: 3 } } } },
        appendRow(0, 'b'),
        appendRow(999, 'lost'),
      ]),
    );
    assert.deepEqual(
      refused.body,
      badRequest('Invalid requests[4].appendCells: No grid with id: 999'),
    );
    assert.deepEqual(fixture.emulator.developerMetadata(id), before);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a']]);
  });

  for (const when of ['after', 'before'] as const) {
    it(`a push tagged with its sequence number in its own batch: reset ${when} applying, the tag tells ${when === 'after' ? 'it landed' : 'it did not'}`, async () => {
      const { id } = await tagged();
      fixture.emulator.failNext(1, { mode: 'reset', when, only: 'writes' });
      const push = fixture.api.spreadsheets.batchUpdate(
        {
          spreadsheetId: id,
          requestBody: {
            requests: [
              appendRow(0, 'pushed'),
              {
                updateDeveloperMetadata: {
                  dataFilters: [{ developerMetadataLookup: { metadataId: 1 } }],
                  developerMetadata: { metadataValue: '8' },
                  fields: 'metadataValue',
                },
              },
            ],
          },
        },
        { retry: false },
      );
      assert.equal((await networkFailure(push)).code, 'ECONNRESET');
      const { data } = await fixture.api.spreadsheets.developerMetadata.get({
        spreadsheetId: id,
        metadataId: 1,
      });
      assert.equal(data.metadataValue, when === 'after' ? '8' : '7');
      assert.deepEqual(
        fixture.emulator.rows(id, 'Sheet1'),
        when === 'after' ? [['a'], ['pushed']] : [['a']],
      );
    });
  }

  it('deleteSheet takes its sheet’s metadata with it and leaves the rest', async () => {
    const { id, other } = await tagged();
    await batch(id, [{ deleteSheet: { sheetId: other } }]);
    assert.deepEqual(keysAndValues(fixture.emulator.developerMetadata(id)), [
      '1:seq=7',
      '3:owner=',
    ]);
  });
});

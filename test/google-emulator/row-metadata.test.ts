/**
 * Developer metadata on rows, through the real client: it moves with its row when rows are
 * inserted, deleted or moved (by the API or by a person), goes with a deleted row, is found by an
 * exact-location lookup, and the two behaviours Google leaves unsaid follow the emulator's rules.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import { badRequest, create, metadataSheets } from './metadata-test-support.ts';
import { failure, useEmulator } from './test-support.ts';

const fixture = useEmulator();
const { batch } = metadataSheets(fixture);

const rowRange = (row: number): sheets_v4.Schema$DimensionRange => ({
  sheetId: 0,
  dimension: 'ROWS',
  startIndex: row,
  endIndex: row + 1,
});

const onRow = (metadataId: number, row: number) =>
  create({
    metadataId,
    metadataKey: 'anchor',
    location: { dimensionRange: rowRange(row) },
    visibility: 'DOCUMENT',
  });

const deleteAt = (metadataId: number, row: number): sheets_v4.Schema$Request => ({
  deleteDeveloperMetadata: {
    dataFilter: {
      developerMetadataLookup: {
        metadataId,
        metadataLocation: { dimensionRange: rowRange(row) },
        locationMatchingStrategy: 'EXACT_LOCATION',
      },
    },
  },
});

/** A tab of a header and rows r1..r5, with entry 11 on r2 (grid row 2) and 12 on r4. */
async function anchored(): Promise<string> {
  const id = fixture.create({
    tabs: [{ title: 'Sheet1', rows: [['h'], ['r1'], ['r2'], ['r3'], ['r4'], ['r5']] }],
  });
  await batch(id, [onRow(11, 2), onRow(12, 4)]);
  return id;
}

/** Each entry's row, as spreadsheets.get answers it in rowMetadata. */
async function rowsOf(id: string): Promise<Record<number, number>> {
  const { data } = await fixture.api.spreadsheets.get({
    spreadsheetId: id,
    includeGridData: true,
    fields: 'sheets(data(rowMetadata(developerMetadata(metadataId))))',
  });
  const found: Record<number, number> = {};
  (data.sheets?.[0]?.data?.[0]?.rowMetadata ?? []).forEach((row, r) => {
    for (const entry of row.developerMetadata ?? []) found[entry.metadataId ?? 0] = r;
  });
  return found;
}

describe('developer metadata on rows', () => {
  it('is answered with its one-row dimensionRange and locationType ROW', async () => {
    const id = await anchored();
    const { data } = await fixture.api.spreadsheets.developerMetadata.get({
      spreadsheetId: id,
      metadataId: 11,
    });
    assert.deepEqual(data.location, { locationType: 'ROW', dimensionRange: rowRange(2) });
    assert.deepEqual(await rowsOf(id), { 11: 2, 12: 4 });
  });

  it('refuses a range of more than one row', async () => {
    const id = await anchored();
    const range = { sheetId: 0, dimension: 'ROWS', startIndex: 1, endIndex: 3 };
    await assert.deepEqual(
      (
        await failure(
          batch(id, [
            create({
              metadataKey: 'k',
              location: { dimensionRange: range },
              visibility: 'DOCUMENT',
            }),
          ]),
        )
      ).body,
      badRequest(
        'Invalid requests[0].createDeveloperMetadata: developerMetadata.location.dimensionRange must represent a single row or column.',
      ),
    );
  });

  it('moves down with rows inserted above and stays with rows inserted below', async () => {
    const id = await anchored();
    await batch(id, [{ insertDimension: { range: { ...rowRange(3), endIndex: 5 } } }]);
    assert.deepEqual(await rowsOf(id), { 11: 2, 12: 6 });
    fixture.emulator.insertRows(id, 'Sheet1', 1, [['p']]);
    assert.deepEqual(await rowsOf(id), { 11: 3, 12: 7 });
  });

  it('goes with its deleted row, and moves up under deleted rows', async () => {
    const id = await anchored();
    await batch(id, [{ deleteDimension: { range: rowRange(2) } }]);
    assert.deepEqual(await rowsOf(id), { 12: 3 });
    fixture.emulator.deleteRows(id, 'Sheet1', 1);
    assert.deepEqual(await rowsOf(id), { 12: 2 });
    assert.deepEqual(
      fixture.emulator.rows(id, 'Sheet1').map(([cell]) => cell),
      ['h', 'r3', 'r4', 'r5'],
    );
  });

  it('moves with its row in moveDimension and in a person dragging a row', async () => {
    const id = await anchored();
    // r2 (grid row 2) goes before r5 (grid row 5): r1 r3 r4 r2 r5.
    await batch(id, [{ moveDimension: { source: rowRange(2), destinationIndex: 5 } }]);
    assert.deepEqual(await rowsOf(id), { 11: 4, 12: 3 });
    assert.deepEqual(
      fixture.emulator.rows(id, 'Sheet1').map(([cell]) => cell),
      ['h', 'r1', 'r3', 'r4', 'r2', 'r5'],
    );
    fixture.emulator.moveRow(id, 'Sheet1', 4, 1);
    assert.deepEqual(await rowsOf(id), { 11: 1, 12: 4 });
  });

  it('stays at its grid row when a person rewrites the values in place', async () => {
    const id = await anchored();
    fixture.emulator.setRows(id, 'Sheet1', [['h'], ['r2'], ['r1'], ['r3'], ['r4'], ['r5']]);
    assert.deepEqual(await rowsOf(id), { 11: 2, 12: 4 });
  });

  it('is deleted by an exact-location lookup on its row, and not by one on another row', async () => {
    const id = await anchored();
    const { data } = await batch(id, [deleteAt(11, 2), deleteAt(12, 3)]);
    assert.deepEqual(
      data.replies?.map((reply) =>
        (reply.deleteDeveloperMetadata?.deletedDeveloperMetadata ?? []).map((e) => e.metadataId),
      ),
      [[11], []],
    );
    assert.deepEqual(await rowsOf(id), { 12: 4 });
  });

  it('refuses the whole batch when an id to create exists, wherever it is', async () => {
    const id = await anchored();
    fixture.emulator.moveRow(id, 'Sheet1', 2, 1);
    await assert.deepEqual(
      (
        await failure(
          batch(id, [deleteAt(11, 2), onRow(11, 2), { deleteDimension: { range: rowRange(5) } }]),
        )
      ).body,
      badRequest(
        'Invalid requests[1].createDeveloperMetadata: Developer metadata with id 11 already exists.',
      ),
    );
    assert.equal(fixture.emulator.rows(id, 'Sheet1').length, 6);
    assert.deepEqual(await rowsOf(id), { 11: 1, 12: 4 });
  });
});

describe('what Google does not document', () => {
  it('a delete matching nothing does nothing, or refuses the batch when the rule says so', async () => {
    const id = await anchored();
    await batch(id, [deleteAt(11, 3)]);
    fixture.emulator.rules.emptyDeleteFails = true;
    try {
      await assert.deepEqual(
        (await failure(batch(id, [deleteAt(11, 3)]))).body,
        badRequest(
          'Invalid requests[0].deleteDeveloperMetadata: No developer metadata matches the given data filter.',
        ),
      );
    } finally {
      fixture.emulator.rules.emptyDeleteFails = false;
    }
    assert.deepEqual(await rowsOf(id), { 11: 2, 12: 4 });
  });

  it('a sort moves row metadata with the rows, or leaves it when the rule says so', async () => {
    const byTextDescending = (a: unknown[], b: unknown[]) =>
      String(b[0]).localeCompare(String(a[0]));
    const id = await anchored();
    fixture.emulator.sortRows(id, 'Sheet1', byTextDescending);
    assert.deepEqual(
      fixture.emulator.rows(id, 'Sheet1').map(([cell]) => cell),
      ['h', 'r5', 'r4', 'r3', 'r2', 'r1'],
    );
    assert.deepEqual(await rowsOf(id), { 11: 4, 12: 2 });
    const still = await anchored();
    fixture.emulator.rules.sortMovesRowMetadata = false;
    try {
      fixture.emulator.sortRows(still, 'Sheet1', byTextDescending);
    } finally {
      fixture.emulator.rules.sortMovesRowMetadata = true;
    }
    assert.deepEqual(await rowsOf(still), { 11: 2, 12: 4 });
  });
});

/** spreadsheets.batchUpdate through the real client: all-or-nothing, cell masks, dimensions. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import { failure, googleError, useEmulator } from './test-support.ts';

const fixture = useEmulator();

const numbered = () =>
  fixture.create({
    tabs: [
      {
        title: 'Sheet1',
        rows: [
          ['id', 'name', 'note'],
          [1, 'a', 'x'],
          [2, 'b', 'y'],
          [3, 'c', 'z'],
          [4, 'd'],
        ],
        rowCount: 6,
        columnCount: 3,
      },
    ],
  });

const batch = (spreadsheetId: string, requests: sheets_v4.Schema$Request[], extra = {}) =>
  fixture.api.spreadsheets.batchUpdate({ spreadsheetId, requestBody: { requests, ...extra } });

const text = (stringValue: string) => ({ userEnteredValue: { stringValue } });

describe('batchUpdate', () => {
  it('one invalid request refuses the whole batch and changes nothing', async () => {
    const id = numbered();
    const before = fixture.emulator.rows(id, 'Sheet1');
    const refused = await failure(
      batch(id, [
        {
          updateCells: {
            start: { sheetId: 0, rowIndex: 1 },
            rows: [{ values: [text('new')] }],
            fields: 'userEnteredValue',
          },
        },
        {
          deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 2, endIndex: 3 } },
        },
        { appendCells: { sheetId: 999, rows: [{ values: [text('lost')] }], fields: '*' } },
      ]),
    );
    assert.equal(refused.status, 400);
    assert.deepEqual(
      refused.body,
      googleError(400, 'INVALID_ARGUMENT', 'Invalid requests[2].appendCells: No grid with id: 999'),
    );
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), before);
  });

  it('applies valid requests in order and replies {} to each', async () => {
    const id = numbered();
    const { data } = await batch(id, [
      {
        updateCells: {
          start: { sheetId: 0, rowIndex: 1 },
          rows: [{ values: [text('=1+1')] }],
          fields: 'userEnteredValue',
        },
      },
      {
        appendCells: {
          sheetId: 0,
          rows: [{ values: [{ userEnteredValue: { formulaValue: '=A2' } }] }],
          fields: '*',
        },
      },
    ]);
    assert.deepEqual(data, { spreadsheetId: id, replies: [{}, {}] });
    const rows = fixture.emulator.rows(id, 'Sheet1');
    assert.deepEqual(rows[1], ['=1+1', 'a', 'x'], 'stringValue "=1+1" is text');
    assert.deepEqual(
      rows[5],
      [{ formula: '=A2', value: null }],
      'appendCells goes after the last row with data',
    );
    const stats = fixture.emulator.stats().requests.at(-1);
    assert.equal(stats?.requestCount, 2);
  });

  it('updateCells with a range clears the masked fields of cells the rows do not reach', async () => {
    const id = numbered();
    await batch(id, [
      {
        updateCells: {
          range: {
            sheetId: 0,
            startRowIndex: 1,
            endRowIndex: 3,
            startColumnIndex: 1,
            endColumnIndex: 3,
          },
          rows: [{ values: [text('A')] }],
          fields: 'userEnteredValue',
        },
      },
    ]);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1').slice(1, 3), [[1, 'A'], [2]]);
  });

  it('deleteDimension removes [startIndex, endIndex) of rows or columns and shrinks the grid', async () => {
    const id = numbered();
    await batch(id, [
      { deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 1, endIndex: 3 } } },
      {
        deleteDimension: {
          range: { sheetId: 0, dimension: 'COLUMNS', startIndex: 1, endIndex: 2 },
        },
      },
    ]);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['id', 'note'], [3, 'z'], [4]]);
    const { data } = await fixture.api.spreadsheets.get({ spreadsheetId: id });
    assert.deepEqual(data.sheets?.[0]?.properties?.gridProperties, { rowCount: 4, columnCount: 2 });
  });

  it('deleteDimension past the last row, or of every row, is refused in Google’s words', async () => {
    const id = numbered();
    const past = await failure(
      batch(id, [
        {
          deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 4, endIndex: 8 } },
        },
      ]),
    );
    assert.deepEqual(
      past.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        "Invalid requests[0].deleteDimension: Cannot delete a row that doesn't exist. Tried to delete row index 7 but there are only 6 rows.",
      ),
    );
    const all = await failure(
      batch(id, [
        {
          deleteDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 0, endIndex: 6 } },
        },
      ]),
    );
    assert.deepEqual(
      all.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        'Invalid requests[0].deleteDimension: Sorry, it is not possible to delete all non-frozen rows.',
      ),
    );
  });

  it('insertDimension and appendDimension grow the grid; the spreadsheet comes back when asked', async () => {
    const id = numbered();
    const { data } = await batch(
      id,
      [
        {
          insertDimension: { range: { sheetId: 0, dimension: 'ROWS', startIndex: 1, endIndex: 2 } },
        },
        { appendDimension: { sheetId: 0, dimension: 'COLUMNS', length: 2 } },
      ],
      {
        includeSpreadsheetInResponse: true,
        responseRanges: ['Sheet1!A1:B2'],
        responseIncludeGridData: true,
      },
    );
    const sheet = data.updatedSpreadsheet?.sheets?.[0];
    assert.deepEqual(sheet?.properties?.gridProperties, { rowCount: 7, columnCount: 5 });
    assert.deepEqual(
      sheet?.data?.[0]?.rowData?.map((row) => row.values?.map((cell) => cell.formattedValue)),
      [['id', 'name']],
      'the inserted row 2 is empty and trailing',
    );
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1')[2], [1, 'a', 'x']);
  });

  it('deleteSheet removes the tab; an unknown sheet and the last one are refused as Google words it', async () => {
    const id = fixture.create({
      tabs: [
        { title: 'Sheet1', rows: [['a']] },
        { title: 'Gone', rows: [['b']] },
      ],
    });
    const sheetIds = async () =>
      (await fixture.api.spreadsheets.get({ spreadsheetId: id })).data.sheets?.map(
        (sheet) => sheet.properties?.sheetId,
      ) ?? [];
    const [, gone = -1] = await sheetIds();
    const unknown = await failure(batch(id, [{ deleteSheet: { sheetId: 4242 } }]));
    assert.deepEqual(
      unknown.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        'Invalid requests[0].deleteSheet: No grid with id: 4242',
      ),
    );
    const { data } = await batch(id, [{ deleteSheet: { sheetId: gone } }]);
    assert.deepEqual(data.replies, [{}]);
    assert.deepEqual(await sheetIds(), [0]);
    const last = await failure(batch(id, [{ deleteSheet: { sheetId: 0 } }]));
    assert.deepEqual(
      last.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        "Invalid requests[0].deleteSheet: You can't remove all the sheets in a document.",
      ),
    );
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a']]);
  });
});

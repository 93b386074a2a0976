/**
 * The emulator driven through the real `@googleapis/sheets` client and a google-auth-library JWT
 * (see clients.ts for how the JWT's token request reaches the emulator).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { failure, googleError, useEmulator } from './test-support.ts';

const fixture = useEmulator();

const people = () =>
  fixture.create({
    title: 'People',
    tabs: [
      {
        title: 'My Tab',
        rows: [
          ['name', 'age', 'joined', 'active', 'double'],
          ['Ada', 36, { date: '2024-01-05' }, true, { formula: '=B2*2', value: 72 }],
          [],
          ['Bob', null, { date: '2024-01-05T13:45:00Z' }],
        ],
      },
    ],
  });

describe('reading', () => {
  it('spreadsheets.get with grid data answers Google’s Spreadsheet, GridData and CellData', async () => {
    const id = people();
    const { data } = await fixture.api.spreadsheets.get({
      spreadsheetId: id,
      includeGridData: true,
    });
    assert.equal(data.spreadsheetId, id);
    assert.equal(data.properties?.title, 'People');
    assert.equal(data.spreadsheetUrl, `https://docs.google.com/spreadsheets/d/${id}/edit`);
    const sheet = data.sheets?.[0];
    assert.deepEqual(sheet?.properties, {
      sheetId: 0,
      title: 'My Tab',
      index: 0,
      sheetType: 'GRID',
      gridProperties: { rowCount: 1000, columnCount: 26 },
    });
    const grid = sheet?.data?.[0];
    assert.equal(grid?.startRow, undefined, 'a zero startRow is left out');
    const rows = grid?.rowData ?? [];
    assert.equal(rows.length, 4, 'trailing empty rows are left out');
    assert.deepEqual(rows[2], {}, 'an empty row in the middle is {}');
    const [, age, joined, active, double] = rows[1]?.values ?? [];
    assert.deepEqual(age?.userEnteredValue, { numberValue: 36 });
    assert.deepEqual(age?.effectiveValue, { numberValue: 36 });
    assert.equal(age?.formattedValue, '36');
    assert.deepEqual(joined?.userEnteredValue, { numberValue: 45296 });
    assert.equal(joined?.effectiveFormat?.numberFormat?.type, 'DATE');
    assert.equal(joined?.formattedValue, '2024-01-05');
    assert.deepEqual(active?.effectiveValue, { boolValue: true });
    assert.equal(active?.formattedValue, 'TRUE');
    assert.deepEqual(double?.userEnteredValue, { formulaValue: '=B2*2' });
    assert.deepEqual(double?.effectiveValue, { numberValue: 72 });
    const bob = rows[3]?.values ?? [];
    assert.equal(bob.length, 3, 'trailing empty cells are left out');
    assert.deepEqual(bob[1], {}, 'an empty cell before a filled one is {}');
    assert.equal(bob[2]?.effectiveFormat?.numberFormat?.type, 'DATE_TIME');
    const serial = bob[2]?.userEnteredValue?.numberValue ?? 0;
    assert.ok(
      Math.abs(serial - (45296 + 13.75 / 24)) < 1e-9,
      `13:45 is 0.5729… of a day: ${serial}`,
    );
  });

  it('spreadsheets.get with ranges returns only the sheets named, with startRow and startColumn', async () => {
    const id = fixture.create({
      tabs: [
        { title: 'One', rows: [['a']] },
        {
          title: 'Two',
          rows: [
            ['x', 'y'],
            ['z', 'w'],
          ],
        },
      ],
    });
    const { data } = await fixture.api.spreadsheets.get({
      spreadsheetId: id,
      ranges: ['Two!B2:C3'],
      includeGridData: true,
    });
    assert.deepEqual(
      data.sheets?.map((sheet) => sheet.properties?.title),
      ['Two'],
    );
    const grid = data.sheets?.[0]?.data?.[0];
    assert.equal(grid?.startRow, 1);
    assert.equal(grid?.startColumn, 1);
    assert.deepEqual(
      grid?.rowData?.map((row) => row.values?.map((cell) => cell.formattedValue)),
      [['w']],
    );
  });

  it('fields keeps only what was asked for, as Google’s partial responses do', async () => {
    const id = people();
    const { data } = await fixture.api.spreadsheets.get({
      spreadsheetId: id,
      ranges: ["'My Tab'!A2:C2"],
      includeGridData: true,
      fields:
        'sheets(properties(sheetId,title),data(rowData(values(effectiveValue,effectiveFormat/numberFormat/type))))',
    });
    assert.deepEqual(data, {
      sheets: [
        {
          properties: { sheetId: 0, title: 'My Tab' },
          data: [
            {
              rowData: [
                {
                  values: [
                    { effectiveValue: { stringValue: 'Ada' }, effectiveFormat: {} },
                    { effectiveValue: { numberValue: 36 }, effectiveFormat: {} },
                    {
                      effectiveValue: { numberValue: 45296 },
                      effectiveFormat: { numberFormat: { type: 'DATE' } },
                    },
                  ],
                },
              ],
            },
          ],
        },
      ],
    });
  });

  it('values.get renders formatted, unformatted and formula values, trimming trailing empties', async () => {
    const id = people();
    const get = (options: object) =>
      fixture.api.spreadsheets.values.get({
        spreadsheetId: id,
        range: "'My Tab'!A2:E5",
        ...options,
      });
    const formatted = (await get({})).data;
    assert.deepEqual(formatted, {
      range: "'My Tab'!A2:E5",
      majorDimension: 'ROWS',
      values: [['Ada', '36', '2024-01-05', 'TRUE', '72'], [], ['Bob', '', '2024-01-05 13:45:00']],
    });
    const serial = (await get({ valueRenderOption: 'UNFORMATTED_VALUE' })).data.values;
    assert.deepEqual(serial?.[0], ['Ada', 36, 45296, true, 72]);
    const dates = await get({
      valueRenderOption: 'UNFORMATTED_VALUE',
      dateTimeRenderOption: 'FORMATTED_STRING',
    });
    assert.deepEqual(dates.data.values?.[0], ['Ada', 36, '2024-01-05', true, 72]);
    const formulas = (await get({ valueRenderOption: 'FORMULA' })).data.values;
    assert.deepEqual(formulas?.[0], ['Ada', 36, 45296, true, '=B2*2']);
    const columns = (await get({ majorDimension: 'COLUMNS', range: "'My Tab'!A1:B4" })).data;
    assert.deepEqual(columns.values, [
      ['name', 'Ada', '', 'Bob'],
      ['age', '36'],
    ]);
  });

  it('values.get of a whole tab names the grid; an empty range has no values', async () => {
    const id = fixture.create({ tabs: [{ title: 'Sheet1', rows: [] }] });
    const { data } = await fixture.api.spreadsheets.values.get({
      spreadsheetId: id,
      range: 'Sheet1',
    });
    assert.deepEqual(data, { range: 'Sheet1!A1:Z1000', majorDimension: 'ROWS' });
  });

  it('a missing tab is 400 "Unable to parse range", a range past the grid is refused', async () => {
    const id = people();
    const missing = await failure(
      fixture.api.spreadsheets.values.get({ spreadsheetId: id, range: 'Nope!A1:B2' }),
    );
    assert.equal(missing.status, 400);
    assert.deepEqual(
      missing.body,
      googleError(400, 'INVALID_ARGUMENT', 'Unable to parse range: Nope!A1:B2'),
    );
    const past = await failure(
      fixture.api.spreadsheets.values.get({ spreadsheetId: id, range: "'My Tab'!A1:AA2" }),
    );
    assert.deepEqual(
      past.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        "Range ('My Tab'!A1:AA2) exceeds grid limits. Max rows: 1000, max columns: 26",
      ),
    );
  });
});

describe('writing values', () => {
  const table = () =>
    fixture.create({
      tabs: [
        {
          title: 'Sheet1',
          rows: [
            ['a', 'b', 'c', 'd'],
            [1, 2, 3, 4],
          ],
        },
      ],
    });

  it('append RAW keeps "=1+1", "+5", "-x" and "@y" as text, after the table', async () => {
    const id = table();
    const { data } = await fixture.api.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Sheet1',
      valueInputOption: 'RAW',
      requestBody: { values: [['=1+1', '+5', '-x', '@y']] },
    });
    assert.deepEqual(data, {
      spreadsheetId: id,
      tableRange: 'Sheet1!A1:D2',
      updates: {
        spreadsheetId: id,
        updatedRange: 'Sheet1!A3:D3',
        updatedRows: 1,
        updatedColumns: 4,
        updatedCells: 4,
      },
    });
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1')[2], ['=1+1', '+5', '-x', '@y']);
  });

  it('append USER_ENTERED parses formulas, numbers, booleans and dates as a person typing', async () => {
    const id = table();
    await fixture.api.spreadsheets.values.append({
      spreadsheetId: id,
      range: 'Sheet1!A:D',
      valueInputOption: 'USER_ENTERED',
      insertDataOption: 'INSERT_ROWS',
      requestBody: { values: [['=1+1', '5', 'TRUE', '2024-01-05'], ["'7"]] },
    });
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1').slice(2), [
      [{ formula: '=1+1', value: null }, 5, true, { date: '2024-01-05' }],
      ['7'],
    ]);
  });

  it('update answers Google’s counts; null leaves a cell, "" clears it', async () => {
    const id = table();
    const { data } = await fixture.api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Sheet1!B2',
      valueInputOption: 'RAW',
      requestBody: { values: [['x', null, '']] },
    });
    assert.deepEqual(data, {
      spreadsheetId: id,
      updatedRange: 'Sheet1!B2:D2',
      updatedRows: 1,
      updatedColumns: 2,
      updatedCells: 2,
    });
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1')[1], [1, 'x', 3]);
    const tooWide = await failure(
      fixture.api.spreadsheets.values.update({
        spreadsheetId: id,
        range: 'Sheet1!A1:B1',
        valueInputOption: 'RAW',
        requestBody: { values: [[1, 2, 3]] },
      }),
    );
    assert.deepEqual(
      tooWide.body,
      googleError(
        400,
        'INVALID_ARGUMENT',
        'Requested writing within range [Sheet1!A1:B1], but tried writing to column [C]',
      ),
    );
  });

  it('values.batchUpdate writes every range and totals the counts', async () => {
    const id = table();
    const { data } = await fixture.api.spreadsheets.values.batchUpdate({
      spreadsheetId: id,
      requestBody: {
        valueInputOption: 'RAW',
        data: [
          { range: 'Sheet1!A3', values: [['p', 'q']] },
          { range: 'Sheet1!A4', values: [['r']] },
        ],
      },
    });
    assert.equal(data.totalUpdatedCells, 3);
    assert.equal(data.totalUpdatedRows, 2);
    assert.equal(data.totalUpdatedSheets, 1);
    assert.deepEqual(
      data.responses?.map((response) => response.updatedRange),
      ['Sheet1!A3:B3', 'Sheet1!A4'],
    );
  });

  it('concurrent appends are applied one at a time in arrival order, none overwriting another', async () => {
    const id = table();
    fixture.emulator.latencyMs = 20;
    try {
      const appends = Array.from({ length: 8 }, (_, i) =>
        fixture.api.spreadsheets.values.append({
          spreadsheetId: id,
          range: 'Sheet1',
          valueInputOption: 'RAW',
          requestBody: { values: [[`row ${i}`]] },
        }),
      );
      const ranges = (await Promise.all(appends)).map(
        (answer) => answer.data.updates?.updatedRange,
      );
      assert.equal(new Set(ranges).size, 8);
      assert.equal(fixture.emulator.rows(id, 'Sheet1').length, 10);
    } finally {
      fixture.emulator.latencyMs = 0;
    }
  });
});

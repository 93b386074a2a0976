/** Drive items, worksheets, usedRange and range reads over real HTTP, in Graph's shapes. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shareIdOf } from './index.ts';
import { errorCode, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

describe('drive items', () => {
  it('answers a workbook driveItem with its drive and the xlsx mime type', async () => {
    const { ref } = fixture.create([{ name: 'Sheet1' }]);
    const answer = await fixture.call('GET', `drives/${ref.driveId}/items/${ref.itemId}`);
    assert.equal(answer.status, 200);
    const body = answer.body as {
      id: string;
      parentReference: { driveId: string };
      file: { mimeType: string };
    };
    assert.equal(body.id, ref.itemId);
    assert.equal(body.parentReference.driveId, ref.driveId);
    assert.equal(
      body.file.mimeType,
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
  });

  it('answers 404 itemNotFound for an unknown item and for an item of another tenant', async () => {
    const missing = await fixture.call('GET', `drives/b!nope/items/01NOPE`);
    assert.deepEqual([missing.status, errorCode(missing)], [404, 'itemNotFound']);
    const other = fixture.emulator.registerApp();
    const theirs = fixture.emulator.createWorkbook({
      tenant: other.tenant,
      worksheets: [{ name: 'S' }],
    });
    const answer = await fixture.call('GET', `drives/${theirs.driveId}/items/${theirs.itemId}`);
    assert.deepEqual([answer.status, errorCode(answer)], [404, 'itemNotFound']);
  });

  it('refuses the workbook API on a file that is not a workbook, while its driveItem answers', async () => {
    const ref = fixture.emulator.createFile({
      tenant: fixture.app.tenant,
      mimeType: 'text/csv',
      name: 'a.csv',
    });
    const item = await fixture.call('GET', `drives/${ref.driveId}/items/${ref.itemId}`);
    assert.equal((item.body as { file: { mimeType: string } }).file.mimeType, 'text/csv');
    const sheets = await fixture.call(
      'GET',
      `drives/${ref.driveId}/items/${ref.itemId}/workbook/worksheets`,
    );
    assert.equal(sheets.status, 400);
  });

  it('finds the driveItem of a sharing link through shares/u!{base64url}/driveItem', async () => {
    const { ref } = fixture.create([{ name: 'Sheet1' }]);
    const url = fixture.emulator.shareLink(ref);
    const shareId = `u!${Buffer.from(url).toString('base64').replace(/=+$/, '').replaceAll('/', '_').replaceAll('+', '-')}`;
    assert.equal(shareId, shareIdOf(url));
    const answer = await fixture.call('GET', `shares/${shareId}/driveItem`);
    assert.equal(answer.status, 200);
    assert.equal(
      (answer.body as { parentReference: { driveId: string } }).parentReference.driveId,
      ref.driveId,
    );
    const unknown = await fixture.call(
      'GET',
      `shares/${shareIdOf('https://contoso.sharepoint.com/x')}/driveItem`,
    );
    assert.equal(unknown.status, 404);
  });
});

describe('worksheets', () => {
  it('lists worksheets with id, name, position and visibility', async () => {
    const { workbook } = fixture.create([
      { name: 'Data' },
      { name: 'Other sheet', visibility: 'Hidden' },
    ]);
    const answer = await fixture.call('GET', `${workbook}worksheets`);
    assert.deepEqual(answer.body, {
      value: [
        {
          id: '{00000001-0001-0000-0000-000000000000}',
          name: 'Data',
          position: 0,
          visibility: 'Visible',
        },
        {
          id: '{00000002-0001-0000-0000-000000000000}',
          name: 'Other sheet',
          position: 1,
          visibility: 'Hidden',
        },
      ],
    });
  });

  it("finds a worksheet by percent-encoded id, by name, and by ('name'); a missing one is 404 ItemNotFound", async () => {
    const { workbook } = fixture.create([{ name: 'Data' }, { name: "Bob's list" }]);
    const byId = await fixture.call(
      'GET',
      `${workbook}worksheets/${encodeURIComponent('{00000002-0001-0000-0000-000000000000}')}`,
    );
    assert.equal((byId.body as { name: string }).name, "Bob's list");
    const byName = await fixture.call('GET', `${workbook}worksheets/Data`);
    assert.equal((byName.body as { position: number }).position, 0);
    const quoted = await fixture.call(
      'GET',
      `${workbook}worksheets('${encodeURIComponent("Bob''s list")}')`,
    );
    assert.equal((quoted.body as { position: number }).position, 1);
    const missing = await fixture.call('GET', `${workbook}worksheets('Nope')`);
    assert.deepEqual([missing.status, errorCode(missing)], [404, 'ItemNotFound']);
  });
});

describe('usedRange', () => {
  it('trims to the used cells, with an address that need not start at A1', async () => {
    const { workbook } = fixture.create([
      {
        name: 'Sheet1',
        at: 'B2',
        rows: [
          ['id', 'name'],
          [1, null],
          [null, true],
        ],
      },
    ]);
    const answer = await fixture.call(
      'GET',
      `${workbook}worksheets('Sheet1')/usedRange(valuesOnly=true)`,
    );
    const body = answer.body as Record<string, unknown>;
    assert.equal(body['address'], 'Sheet1!B2:C4');
    assert.deepEqual(
      [body['rowIndex'], body['columnIndex'], body['rowCount'], body['columnCount']],
      [1, 1, 3, 2],
    );
    assert.deepEqual(body['values'], [
      ['id', 'name'],
      [1, ''],
      ['', true],
    ]);
    assert.deepEqual(body['valueTypes'], [
      ['String', 'String'],
      ['Double', 'Empty'],
      ['Empty', 'Boolean'],
    ]);
    assert.deepEqual(body['text'], [
      ['id', 'name'],
      ['1', ''],
      ['', 'TRUE'],
    ]);
  });

  it('counts formatted empty cells unless valuesOnly=true', async () => {
    const { workbook } = fixture.create([
      { name: 'Sheet1', rows: [['a'], [null], [{ numberFormat: '@' }]] },
    ]);
    const all = await fixture.call('GET', `${workbook}worksheets/Sheet1/usedRange`);
    assert.equal((all.body as { address: string }).address, 'Sheet1!A1:A3');
    const values = await fixture.call(
      'GET',
      `${workbook}worksheets/Sheet1/usedRange(valuesOnly=true)`,
    );
    assert.equal((values.body as { address: string }).address, 'Sheet1!A1');
  });

  it('answers A1 with [[""]] on an empty sheet, and quotes sheet names that need it', async () => {
    const { workbook } = fixture.create([{ name: 'My data' }]);
    const answer = await fixture.call(
      'GET',
      `${workbook}worksheets('My%20data')/usedRange(valuesOnly=true)`,
    );
    const body = answer.body as { address: string; values: unknown };
    assert.deepEqual([body.address, body.values], ["'My data'!A1", [['']]]);
  });
});

describe('range GET', () => {
  it('answers values, text, formulas, numberFormat and valueTypes of each cell', async () => {
    const { workbook } = fixture.create([
      {
        name: 'Sheet1',
        rows: [
          [{ value: 45293, numberFormat: 'm/d/yyyy' }, { formula: '=A2*2' }, 'x'],
          [21, { formula: '=1/0' }, { value: 0.25, numberFormat: '0%' }],
        ],
      },
    ]);
    const answer = await fixture.call('GET', `${workbook}${range('Sheet1', 'A1:C2')}`);
    const body = answer.body as Record<string, unknown>;
    assert.equal(body['address'], 'Sheet1!A1:C2');
    assert.deepEqual(body['values'], [
      [45293, 42, 'x'],
      [21, '#DIV/0!', 0.25],
    ]);
    assert.deepEqual(body['text'], [
      ['1/2/2024', '42', 'x'],
      ['21', '#DIV/0!', '25%'],
    ]);
    assert.deepEqual(body['formulas'], [
      [45293, '=A2*2', 'x'],
      [21, '=1/0', 0.25],
    ]);
    assert.deepEqual(body['numberFormat'], [
      ['m/d/yyyy', 'General', 'General'],
      ['General', 'General', '0%'],
    ]);
    assert.deepEqual(body['valueTypes'], [
      ['Double', 'Double', 'String'],
      ['Double', 'Error', 'Double'],
    ]);
  });

  it('reads a sheet-qualified address, and refuses one naming another sheet or no address at all', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }, { name: 'Sheet2' }]);
    const same = await fixture.call('GET', `${workbook}${range('Sheet1', 'Sheet1!A1')}`);
    assert.deepEqual((same.body as { values: unknown }).values, [['a']]);
    const other = await fixture.call('GET', `${workbook}${range('Sheet1', 'Sheet2!A1')}`);
    assert.deepEqual([other.status, errorCode(other)], [400, 'InvalidArgument']);
    const bad = await fixture.call('GET', `${workbook}${range('Sheet1', 'A1:B')}`);
    assert.deepEqual([bad.status, errorCode(bad)], [400, 'InvalidArgument']);
  });

  it('reads whole rows across every column', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1', rows: [['a'], ['b', 'c']] }]);
    const answer = await fixture.call('GET', `${workbook}${range('Sheet1', '2:2')}`);
    const body = answer.body as { address: string; columnCount: number; values: unknown[][] };
    assert.deepEqual([body.address, body.columnCount], ['Sheet1!2:2', 16384]);
    assert.deepEqual(body.values[0]?.slice(0, 3), ['b', 'c', '']);
  });
});

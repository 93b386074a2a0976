/**
 * Defined names of the workbook: added, listed, deleted, and moved by Excel with the cells they
 * refer to.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, useEmulator } from './test-support.ts';

const fixture = useEmulator();

const rows = [['name'], ['Ann'], ['Bob'], ['Kim']];

/** A workbook with Sheet1 (a header and three rows) and a name on it; its paths. */
async function withName(reference: string) {
  const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows }, { name: 'Other' }]);
  const names = `${workbook}names`;
  const added = await fixture.call('POST', `${names}/add`, {
    name: 'Anchor',
    reference,
    comment: 'what it is',
  });
  assert.equal(added.status, 200, JSON.stringify(added.body));
  const value = async () =>
    ((await fixture.call('GET', `${names}/Anchor`)).body as { value?: string }).value;
  return { ref, workbook, names, value };
}

describe('defined names', () => {
  it('are added with their reference and comment, listed, and deleted', async () => {
    const { workbook, names } = await withName('=Sheet1!$A$5:$A$6');
    const other = await fixture.call('POST', `${names}/add`, {
      name: 'Elsewhere',
      reference: '=Other!$B$2',
    });
    assert.equal(other.status, 200, JSON.stringify(other.body));
    const listed = (await fixture.call('GET', names)).body as { value: unknown[] };
    assert.deepEqual(listed.value, [
      {
        name: 'Anchor',
        comment: 'what it is',
        scope: 'Workbook',
        type: 'Range',
        value: '=Sheet1!$A$5:$A$6',
        visible: true,
      },
      {
        name: 'Elsewhere',
        comment: '',
        scope: 'Workbook',
        type: 'Range',
        value: '=Other!$B$2',
        visible: true,
      },
    ]);
    const sheetNames = await fixture.call('POST', `${workbook}worksheets/Sheet1/names/add`, {
      name: 'Local',
      reference: '=Sheet1!$A$1',
    });
    assert.equal(sheetNames.status, 400, 'names of a worksheet are not served');
    assert.equal((await fixture.call('DELETE', `${names}/anchor`)).status, 204);
    const gone = await fixture.call('GET', `${names}/Anchor`);
    assert.equal(gone.status, 404);
    assert.equal(errorCode(gone), 'ItemNotFound');
  });

  it('refuse a name in use anywhere in the workbook, a name that is a cell address, and a reference to no worksheet', async () => {
    const { names } = await withName('=Sheet1!$A$5');
    const again = await fixture.call('POST', `${names}/add`, {
      name: 'ANCHOR',
      reference: '=Other!$A$1',
    });
    assert.equal(again.status, 400);
    assert.equal(errorCode(again), 'InvalidArgument');
    const cell = await fixture.call('POST', `${names}/add`, {
      name: 'AB12',
      reference: '=Sheet1!$A$1',
    });
    assert.equal(errorCode(cell), 'InvalidArgument');
    const noSheet = await fixture.call('POST', `${names}/add`, { name: 'Bare', reference: 'A1' });
    assert.equal(errorCode(noSheet), 'InvalidArgument', 'a workbook name names its worksheet');
    const nowhere = await fixture.call('POST', `${names}/add`, {
      name: 'Lost',
      reference: '=Nowhere!$A$1',
    });
    assert.equal(errorCode(nowhere), 'InvalidArgument');
    const unknown = await fixture.call('GET', `${names}/Nobody/range`);
    assert.equal(unknown.status, 404);
    assert.equal(errorCode(unknown), 'ItemNotFound');
  });

  it('move down with rows a person inserts at or above their first row, and grow with rows inserted inside', async () => {
    const below = await withName('=Sheet1!$A$5:$A$6');
    fixture.emulator.insertRows(below.ref, 'Sheet1', 2, [['Top'], ['Two']]);
    assert.equal(await below.value(), '=Sheet1!$A$7:$A$8');
    fixture.emulator.insertRows(below.ref, 'Sheet1', 7, [['At']]);
    assert.equal(await below.value(), '=Sheet1!$A$8:$A$9', 'an insert at the first row moves it');
    fixture.emulator.insertRows(below.ref, 'Sheet1', 9, [['Inside']]);
    assert.equal(await below.value(), '=Sheet1!$A$8:$A$10', 'an insert inside grows it');
    fixture.emulator.insertRows(below.ref, 'Sheet1', 11, [['After']]);
    assert.equal(await below.value(), '=Sheet1!$A$8:$A$10', 'an insert below leaves it');
  });

  it('move up and shrink with rows deleted, and refer to #REF! once all their cells are gone', async () => {
    const { ref, value, names } = await withName('=Sheet1!$A$3:$A$5');
    fixture.emulator.deleteRows(ref, 'Sheet1', 2);
    assert.equal(await value(), '=Sheet1!$A$2:$A$4');
    fixture.emulator.deleteRows(ref, 'Sheet1', 3);
    assert.equal(await value(), '=Sheet1!$A$2:$A$3');
    fixture.emulator.deleteRows(ref, 'Sheet1', 1, 3);
    const gone = (await fixture.call('GET', `${names}/Anchor`)).body as { value: string };
    assert.equal(gone.value, '=#REF!');
    const range = await fixture.call('GET', `${names}/Anchor/range`);
    assert.equal(errorCode(range), 'InvalidArgument');
  });

  it('follow a row a person moves', async () => {
    const { ref, value } = await withName('=Sheet1!$A$2');
    fixture.emulator.moveRow(ref, 'Sheet1', 2, 4);
    assert.equal(await value(), '=Sheet1!$A$4');
  });

  it('insert cells where the name now is, and a name the insert falls inside grows to be written whole', async () => {
    // The documented path `workbook/names/{name}/range/insert`.
    const end = await withName('=Sheet1!$A$5');
    const { ref, workbook } = end;
    const span = await fixture.call('POST', `${workbook}names/add`, {
      name: 'Span',
      reference: '=Sheet1!$A$4:$A$5',
    });
    assert.equal(span.status, 200);
    fixture.emulator.insertRows(ref, 'Sheet1', 2, [['Top']]);
    const inserted = await fixture.call('POST', `${workbook}names/Anchor/range/insert`, {
      shift: 'Down',
    });
    assert.equal(inserted.status, 200, JSON.stringify(inserted.body));
    assert.equal((inserted.body as { address: string }).address, 'Sheet1!A6');
    assert.equal(await end.value(), '=Sheet1!$A$7', 'the name moved down with the cells');
    const written = await fixture.call('PATCH', `${workbook}names/Span/range`, {
      values: [[null], ['Zoe'], [null]],
    });
    assert.equal(written.status, 200, JSON.stringify(written.body));
    assert.deepEqual(
      fixture.emulator.values(ref, 'Sheet1').map((row) => row[0]),
      ['name', 'Top', 'Ann', 'Bob', 'Kim', 'Zoe'],
    );
    const wrongSize = await fixture.call('PATCH', `${workbook}names/Span/range`, {
      values: [['x']],
    });
    assert.equal(errorCode(wrongSize), 'InvalidArgument');
  });

  it("resolve as a worksheet range's address", async () => {
    const { workbook } = await withName('=Sheet1!$A$3:$A$4');
    const read = await fixture.call('GET', `${workbook}worksheets/Sheet1/range(address='Anchor')`);
    assert.deepEqual((read.body as { values: unknown[][] }).values, [['Bob'], ['Kim']]);
  });
});

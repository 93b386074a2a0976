/**
 * Late apply: a write held unanswered and applied after its client gave up — on the workbook as it
 * is by then — unless its session was closed first; and a person editing between two requests.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

async function gaveUp(
  workbook: string,
  value: string,
  headers: Record<string, string> = {},
): Promise<void> {
  const call = fetch(`${fixture.emulator.graphUrl}${workbook}${range('Sheet1', 'A2')}`, {
    method: 'PATCH',
    headers: {
      authorization: `Bearer ${fixture.token}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify({ values: [[value]] }),
    signal: AbortSignal.timeout(100),
  });
  await assert.rejects(call, { name: 'TimeoutError' });
}

const untilHeldRan = () =>
  new Promise<void>((resolve) => {
    const check = () =>
      fixture.emulator.heldCount === 0 ? resolve() : setTimeout(check, 5).unref();
    check();
  });

describe('late apply', () => {
  it('holds a write past its client’s timeout, then applies it when released', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['id']] }]);
    fixture.emulator.resetRequests();
    fixture.emulator.failNext(1, { mode: 'late', match: { only: 'writes' } });
    await gaveUp(workbook, 'late');
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['id']], 'applied before its time');
    assert.equal(fixture.emulator.heldCount, 1);
    assert.equal(fixture.emulator.applyHeld(), 1);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['id'], ['late']]);
    const [entry] = fixture.emulator.requests();
    assert.deepEqual([entry?.answer, entry?.applied, entry?.lateStatus], ['none', true, 200]);
  });

  it('applies by itself after applyAfterMs, over what landed meanwhile', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['id']] }]);
    fixture.emulator.failNext(1, { mode: 'late', applyAfterMs: 150, match: { only: 'writes' } });
    await gaveUp(workbook, 'first');
    const retry = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A2')}`, {
      values: [['second']],
    });
    assert.equal(retry.status, 200);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['id'], ['second']]);
    await untilHeldRan();
    assert.deepEqual(
      fixture.emulator.values(ref, 'Sheet1'),
      [['id'], ['first']],
      'the late write wins',
    );
  });

  it('refuses a held write whose session closed before it landed, applying nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['id']] }]);
    const session = await fixture.call('POST', `${workbook}createSession`, {
      persistChanges: true,
    });
    const headers = { 'workbook-session-id': (session.body as { id: string }).id };
    fixture.emulator.resetRequests();
    fixture.emulator.failNext(1, { mode: 'late', match: { only: 'writes' } });
    await gaveUp(workbook, 'late', headers);
    const closed = await fixture.call('POST', `${workbook}closeSession`, undefined, headers);
    assert.equal(closed.status, 204);
    assert.equal(fixture.emulator.applyHeld(), 1);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['id']]);
    const held = fixture.emulator.requests().find((entry) => entry.fault?.mode === 'late');
    assert.deepEqual([held?.applied, held?.lateStatus], [false, 404]);
  });
});

describe('a person editing', () => {
  it('between a client’s read and its write, through afterNext', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['id'], ['a'], ['b']] }]);
    fixture.emulator.afterNext('read', () =>
      fixture.emulator.insertRows(ref, 'Sheet1', 2, [['new']]),
    );
    const read = await fixture.call(
      'GET',
      `${workbook}worksheets/Sheet1/usedRange(valuesOnly=true)`,
    );
    assert.deepEqual(
      (read.body as { values: unknown }).values,
      [['id'], ['a'], ['b']],
      'the read ran before the edit',
    );
    await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A2')}`, { values: [['A']] });
    assert.deepEqual(
      fixture.emulator.values(ref, 'Sheet1'),
      [['id'], ['A'], ['a'], ['b']],
      'the write hit the new row',
    );
  });

  it('inserts, deletes and moves whole rows, and types as Excel reads typed input', async () => {
    const { ref } = fixture.create([
      {
        name: 'Sheet1',
        rows: [
          ['id', 'x'],
          ['1', 'a'],
          ['2', 'b'],
          ['3', 'c'],
        ],
      },
    ]);
    const version = fixture.emulator.version(ref);
    fixture.emulator.moveRow(ref, 'Sheet1', 2, 4);
    assert.deepEqual(
      fixture.emulator.values(ref, 'Sheet1').map((row) => row[1]),
      ['x', 'b', 'c', 'a'],
    );
    fixture.emulator.deleteRows(ref, 'Sheet1', 2, 2);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [
      ['id', 'x'],
      ['1', 'a'],
    ]);
    fixture.emulator.typeCells(ref, 'Sheet1', 'A3', [['007', '=A3+1']]);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1')[2], [7, 8]);
    fixture.emulator.setCells(ref, 'Sheet1', 'A4', [['007']]);
    assert.equal(fixture.emulator.values(ref, 'Sheet1')[3]?.[0], '007');
    assert.ok(fixture.emulator.version(ref) > version, 'a person’s edits move the version');
  });

  it('renames and deletes worksheets, which Graph then finds by id or not at all', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }, { name: 'Old' }]);
    fixture.emulator.renameWorksheet(ref, 'Old', 'New');
    const byId = await fixture.call(
      'GET',
      `${workbook}worksheets/${encodeURIComponent('{00000002-0001-0000-0000-000000000000}')}`,
    );
    assert.equal((byId.body as { name: string }).name, 'New');
    fixture.emulator.deleteWorksheet(ref, 'New');
    const gone = await fixture.call('GET', `${workbook}worksheets('New')`);
    assert.equal(errorCode(gone), 'ItemNotFound');
    assert.deepEqual(fixture.emulator.worksheetNames(ref), ['Sheet1']);
  });
});

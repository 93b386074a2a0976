/**
 * The `late` fault: a request held unanswered and applied later, after its client gave up (even
 * after it hung up), on the spreadsheet as it is by then, all or nothing; and `afterNext`, a
 * person editing right after a request ran, before its answer goes out.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import { networkFailure, useEmulator } from './test-support.ts';

const fixture = useEmulator();

const tagged = (metadataId: number, text: string): sheets_v4.Schema$Request[] => [
  {
    appendCells: {
      sheetId: 0,
      rows: [{ values: [{ userEnteredValue: { stringValue: text } }] }],
      fields: 'userEnteredValue',
    },
  },
  {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataId,
        metadataKey: 'push',
        location: { sheetId: 0 },
        visibility: 'DOCUMENT',
      },
    },
  },
];

function send(spreadsheetId: string, requests: sheets_v4.Schema$Request[], timeout?: number) {
  return fixture.api.spreadsheets.batchUpdate(
    { spreadsheetId, requestBody: { requests } },
    { retry: false, ...(timeout === undefined ? {} : { timeout }) },
  );
}

describe('late', () => {
  it('holds a write past its client’s timeout, then applies it when told', async () => {
    const id = fixture.create({ tabs: [{ title: 'Sheet1', rows: [['a']] }] });
    fixture.emulator.resetStats();
    fixture.emulator.failNext(1, { mode: 'late', only: 'writes' });
    assert.equal((await networkFailure(send(id, tagged(5, 'late'), 200))).name, 'AbortError');
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a']], 'applied before its time');
    assert.equal(fixture.emulator.heldCount, 1);
    assert.equal(fixture.emulator.applyHeld(), 1);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a'], ['late']]);
    const [write] = fixture.emulator.stats().requests.filter((r) => r.kind === 'write');
    assert.deepEqual([write?.answer, write?.applied, write?.lateStatus], ['none', true, 200]);
  });

  it('applies on the spreadsheet as it is by then: a metadataId created meanwhile refuses it whole', async () => {
    const id = fixture.create({ tabs: [{ title: 'Sheet1', rows: [['a']] }] });
    fixture.emulator.resetStats();
    fixture.emulator.failNext(1, { mode: 'late', only: 'writes' });
    await networkFailure(send(id, tagged(7, 'first'), 200));
    // The client sends again with the same id; this one lands at once.
    await send(id, tagged(7, 'second'));
    assert.equal(fixture.emulator.applyHeld(), 1);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a'], ['second']]);
    const [held] = fixture.emulator.stats().requests.filter((r) => r.fault?.mode === 'late');
    assert.deepEqual([held?.applied, held?.lateStatus], [false, 400]);
  });

  it('applies by itself after applyAfterMs, whoever still listens', async () => {
    const id = fixture.create({ tabs: [{ title: 'Sheet1', rows: [['a']] }] });
    fixture.emulator.failNext(1, { mode: 'late', applyAfterMs: 50, only: 'writes' });
    await networkFailure(send(id, tagged(9, 'by itself'), 20));
    assert.equal(fixture.emulator.heldCount, 1, 'applied before its time');
    await new Promise<void>((resolve) => {
      const check = () =>
        fixture.emulator.heldCount === 0 ? resolve() : setTimeout(check, 10).unref();
      check();
    });
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a'], ['by itself']]);
  });
});

describe('afterNext', () => {
  it('runs a person’s edit once the next write ran, before its answer', async () => {
    const id = fixture.create({ tabs: [{ title: 'Sheet1', rows: [['a'], ['b']] }] });
    let seen: unknown[][] = [];
    fixture.emulator.afterNext('write', () => {
      seen = fixture.emulator.rows(id, 'Sheet1');
      fixture.emulator.insertRows(id, 'Sheet1', 0, [['top']]);
      fixture.emulator.moveRow(id, 'Sheet1', 1, 3);
      fixture.emulator.deleteRows(id, 'Sheet1', 1);
    });
    await send(id, tagged(11, 'c'));
    assert.deepEqual(seen, [['a'], ['b'], ['c']]);
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['top'], ['c'], ['a']]);
  });
});

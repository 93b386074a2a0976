import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Cell } from '../../cells/cell.ts';
import {
  batchRequests,
  pushTagRequests,
  pushTagsOf,
  runs,
  tagsToPrune,
} from './google-requests.ts';

test('positions coalesce into runs of consecutive rows', () => {
  assert.deepEqual(runs([]), []);
  assert.deepEqual(runs([5, 0, 1, 2, 2, 9, 8]), [
    [0, 2],
    [5, 5],
    [8, 9],
  ]);
});

test('deleting rows is one deleteDimension per run, bottom-up, under the header', () => {
  const requests = batchRequests(7, 2, [
    { kind: 'delete', positions: [0, 1, 2, 5, 8, 9], before: [] },
  ]);
  assert.deepEqual(
    requests.map((r) => r.deleteDimension?.range),
    [
      { sheetId: 7, dimension: 'ROWS', startIndex: 9, endIndex: 11 },
      { sheetId: 7, dimension: 'ROWS', startIndex: 6, endIndex: 7 },
      { sheetId: 7, dimension: 'ROWS', startIndex: 1, endIndex: 4 },
    ],
  );
});

test('appends write every column, text as text and empty cells as no value', () => {
  const [request] = batchRequests(3, 3, [{ kind: 'append', rows: [['=1+1', 42, null]] }]);
  assert.deepEqual(request?.appendCells, {
    sheetId: 3,
    rows: [
      {
        values: [
          { userEnteredValue: { stringValue: '=1+1' } },
          { userEnteredValue: { numberValue: 42 } },
          {},
        ],
      },
    ],
    fields: 'userEnteredValue',
  });
});

test('updates cover each run of rows and each run of columns once', () => {
  const requests = batchRequests(0, 4, [
    {
      kind: 'update',
      positions: [0, 1, 4],
      cells: new Map<number, Cell>([
        [0, 'a'],
        [1, true],
        [3, null],
      ]),
      before: [],
      after: [],
    },
  ]);
  assert.deepEqual(
    requests.map((r) => r.updateCells?.range),
    [
      { sheetId: 0, startRowIndex: 1, endRowIndex: 3, startColumnIndex: 0, endColumnIndex: 2 },
      { sheetId: 0, startRowIndex: 1, endRowIndex: 3, startColumnIndex: 3, endColumnIndex: 4 },
      { sheetId: 0, startRowIndex: 5, endRowIndex: 6, startColumnIndex: 0, endColumnIndex: 2 },
      { sheetId: 0, startRowIndex: 5, endRowIndex: 6, startColumnIndex: 3, endColumnIndex: 4 },
    ],
  );
  assert.deepEqual(requests[0]?.updateCells?.rows, [
    {
      values: [
        { userEnteredValue: { stringValue: 'a' } },
        { userEnteredValue: { boolValue: true } },
      ],
    },
    {
      values: [
        { userEnteredValue: { stringValue: 'a' } },
        { userEnteredValue: { boolValue: true } },
      ],
    },
  ]);
  assert.deepEqual(requests[1]?.updateCells?.rows, [{ values: [{}] }, { values: [{}] }]);
});

test('effects keep their order in one batch', () => {
  const requests = batchRequests(0, 1, [
    { kind: 'append', rows: [['x']] },
    { kind: 'delete', positions: [0], before: [] },
    { kind: 'update', positions: [0], cells: new Map([[0, 'y']]), before: [], after: [] },
  ]);
  assert.deepEqual(
    requests.map((r) => Object.keys(r)[0]),
    ['appendCells', 'deleteDimension', 'updateCells'],
  );
});

test('a push tag is created with its fixed id and its plan, after the deletes of old tags', () => {
  assert.deepEqual(pushTagRequests(4, 77, { plan: 'p1', deadline: 1000 }, [5]), [
    { deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataId: 5 } } } },
    {
      createDeveloperMetadata: {
        developerMetadata: {
          metadataId: 77,
          metadataKey: 'sheetport.push',
          metadataValue: 'p1@1000',
          location: { sheetId: 4 },
          visibility: 'DOCUMENT',
        },
      },
    },
  ]);
});

test('push tags are read back by id; other keys are ignored, and an older form has deadline 0', () => {
  const tags = pushTagsOf([
    { metadataId: 1, metadataKey: 'sheetport.push', metadataValue: 'p1@1000' },
    { metadataId: 2, metadataKey: 'sheetport.push', metadataValue: 'legacy' },
    { metadataId: 3, metadataKey: 'other', metadataValue: 'x@1' },
    { metadataKey: 'sheetport.push', metadataValue: 'no id@1' },
  ]);
  assert.deepEqual(
    [...tags],
    [
      [1, { plan: 'p1', deadline: 1000 }],
      [2, { plan: 'legacy', deadline: 0 }],
    ],
  );
});

test('old tags are pruned after five minutes past their deadline, never the own, however many', () => {
  const now = 10 * 60_000;
  const tags = new Map([
    [1, { plan: 'a', deadline: now - 5 * 60_000 - 1 }],
    [2, { plan: 'b', deadline: now - 5 * 60_000 + 1 }],
    [3, { plan: 'c', deadline: 0 }],
  ]);
  assert.deepEqual(tagsToPrune(tags, 9, now).sort(), [1, 3]);
  assert.deepEqual(tagsToPrune(tags, 1, now), [3]);
  const many = new Map(
    Array.from({ length: 401 }, (_, i) => [i + 1, { plan: 'p', deadline: now + i }]),
  );
  assert.deepEqual(tagsToPrune(many, 1000, now), []);
});

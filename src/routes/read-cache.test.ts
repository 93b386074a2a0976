import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadCache, type AnswerKey } from './read-cache.ts';

const whole = (version: number): AnswerKey => ({
  sheetId: 'sheet',
  version,
  variant: 'json\n/api/v1/sheet',
  wholeSheet: true,
});

/** What the cache answers under `at` without reading, or null if it would read. */
async function kept(cache: ReadCache, at: AnswerKey): Promise<string | null> {
  const answer = await cache.answer(at, () => Promise.reject(new Error('read')));
  return answer.kind === 'whole' ? answer.body.toString() : null;
}

const appended = (from: number, rows: string[], began: number) => ({
  sheetId: 'sheet',
  from,
  to: from + 1,
  rows,
  began,
});

test('rows appended are added to each whole sheet kept at the version they started from', async () => {
  const cache = new ReadCache(1_000_000);
  cache.set(whole(3), { body: Buffer.from('[{"a":1}]'), total: 1 }, 10);
  cache.set(
    { ...whole(3), variant: 'json\n/api/v1/sheets/sheet' },
    { body: Buffer.from('[]'), total: 0 },
    10,
  );
  cache.appended(appended(3, ['{"a":2}', '{"a":3}'], 11));
  assert.equal(await kept(cache, whole(4)), '[{"a":1},{"a":2},{"a":3}]');
  assert.equal(
    await kept(cache, { ...whole(4), variant: 'json\n/api/v1/sheets/sheet' }),
    '[{"a":2},{"a":3}]',
  );
  const answer = await cache.answer(whole(4), () => Promise.reject(new Error('read')));
  assert.equal(answer.total, 3);
  // The extended answer is exact: the next append extends it again.
  cache.appended(appended(4, ['{"a":4}'], 12));
  assert.equal(await kept(cache, whole(5)), '[{"a":1},{"a":2},{"a":3},{"a":4}]');
});

test('an answer in hand only after the append began may hold its rows: it is not extended', async () => {
  const cache = new ReadCache(1_000_000);
  // Looked up at version 3, but read once the append had committed: the row is in it already.
  cache.set(whole(3), { body: Buffer.from('[{"a":1},{"a":2}]'), total: 2 }, 12);
  cache.appended(appended(3, ['{"a":2}'], 11));
  await assert.rejects(kept(cache, whole(4)), /read/);
});

test('answers of another version, another sheet or less than the whole sheet are not extended', async () => {
  const cache = new ReadCache(1_000_000);
  cache.set(whole(2), { body: Buffer.from('[{"a":1}]'), total: 1 }, 10);
  cache.set(
    { ...whole(3), variant: 'json\n?a=1', wholeSheet: false },
    { body: Buffer.from('[{"a":1}]'), total: 1 },
    10,
  );
  cache.set({ ...whole(3), sheetId: 'other' }, { body: Buffer.from('[]'), total: 0 }, 10);
  cache.appended(appended(3, ['{"a":2}'], 11));
  await assert.rejects(kept(cache, whole(4)), /read/);
  await assert.rejects(
    kept(cache, { ...whole(4), variant: 'json\n?a=1', wholeSheet: false }),
    /read/,
  );
  await assert.rejects(kept(cache, { ...whole(4), sheetId: 'other' }), /read/);
});

test('an answer pushed out of the budget is not brought back by an append', async () => {
  // Nine bytes an answer, forty in all: the fifth answer pushes out the first.
  const cache = new ReadCache(40);
  cache.set(whole(3), { body: Buffer.from('[{"a":1}]'), total: 1 }, 10);
  for (const sheetId of ['b', 'c', 'd', 'e']) {
    cache.set({ ...whole(3), sheetId }, { body: Buffer.from('[{"b":1}]'), total: 1 }, 10);
  }
  await assert.rejects(kept(cache, whole(3)), /read/);
  cache.appended(appended(3, ['{"a":2}'], 11));
  await assert.rejects(kept(cache, whole(4)), /read/);
});

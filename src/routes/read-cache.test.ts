import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ReadCache, type AnswerKey } from './read-cache.ts';
import { bodyOf } from './answer-body.ts';

const whole = (version: number, sheetId = 'sheet'): AnswerKey => ({
  sheetId,
  version,
  variant: 'json\n/api/v1/sheet',
  wholeSheet: true,
});

const answer = (body: string) => ({
  body: bodyOf([Buffer.from(body)]),
  total: JSON.parse(body).length,
});

/** What the cache answers under `at` without reading, or null if it would have to read. */
async function kept(
  cache: ReadCache,
  at: AnswerKey,
): Promise<{ body: string; total: number } | null> {
  const found = await cache.answer(at, async () => ({
    kind: 'streamed',
    body: (async function* () {})(),
    total: -1,
    version: at.version,
  }));
  return found.kind === 'whole'
    ? { body: Buffer.concat(found.body.pieces).toString(), total: found.total }
    : null;
}

/** Rows appended by a commit from `from` that began now. */
const appended = (from: number, rows: string[], sheetId = 'sheet') => ({
  sheetId,
  from,
  to: from + 1,
  rows,
  began: performance.now(),
});

test('rows appended go to the end of each whole sheet kept at the version they started from', async () => {
  const cache = new ReadCache(1_000_000);
  const other = { ...whole(3), variant: 'json\n/api/v1/sheets/sheet' };
  cache.set(whole(3), answer('[{"a":1}]'));
  cache.set(other, answer('[]'));
  cache.appended(appended(3, ['{"a":2}', '{"a":3}']));
  assert.deepEqual(await kept(cache, whole(4)), { body: '[{"a":1},{"a":2},{"a":3}]', total: 3 });
  assert.deepEqual(await kept(cache, { ...other, version: 4 }), {
    body: '[{"a":2},{"a":3}]',
    total: 2,
  });
  // Moved, not copied: the old version is gone.
  assert.equal(await kept(cache, whole(3)), null);
  // Appends that no read asked for in between are joined at once, in order.
  cache.appended(appended(4, ['{"a":4}']));
  cache.appended(appended(5, ['{"a":5}', '{"a":6}']));
  assert.deepEqual(await kept(cache, whole(6)), {
    body: '[{"a":1},{"a":2},{"a":3},{"a":4},{"a":5},{"a":6}]',
    total: 6,
  });
});

test('an answer in hand only after the append began may hold its rows: it is not extended', async () => {
  const cache = new ReadCache(1_000_000);
  const commit = appended(3, ['{"a":2}']);
  // Looked up at version 3, but read once the append had committed: the row is in it already.
  cache.set(whole(3), answer('[{"a":1},{"a":2}]'));
  cache.appended(commit);
  assert.equal(await kept(cache, whole(4)), null);
});

test('answers of another version, another sheet or less than the whole sheet are not extended', async () => {
  const cache = new ReadCache(1_000_000);
  const filtered = { ...whole(3), variant: 'json\n?a=1', wholeSheet: false };
  cache.set(whole(2), answer('[{"a":1}]'));
  cache.set(filtered, answer('[{"a":1}]'));
  cache.set(whole(3, 'other'), answer('[]'));
  cache.appended(appended(3, ['{"a":2}']));
  assert.equal(await kept(cache, whole(4)), null);
  assert.equal(await kept(cache, { ...filtered, version: 4 }), null);
  assert.equal(await kept(cache, whole(4, 'other')), null);
  assert.deepEqual(await kept(cache, filtered), { body: '[{"a":1}]', total: 1 });
});

test('rows waiting that outweigh the answer drop it: a read costs less than joining them', async () => {
  const cache = new ReadCache(10_000_000);
  // 100 KiB of rows in the answer, 1 KiB a row appended.
  const row = (n: number) => JSON.stringify({ n, text: 'x'.repeat(1000) });
  const rows = Array.from({ length: 100 }, (_, n) => row(n));
  cache.set(whole(0), answer(`[${rows.join(',')}]`));
  for (let n = 100; n < 190; n++) cache.appended(appended(n - 100, [row(n)]));
  assert.equal((await kept(cache, whole(90)))?.total, 190);
  // Joined by that read: as many again may wait.
  for (let n = 190; n < 350; n++) cache.appended(appended(n - 100, [row(n)]));
  assert.equal((await kept(cache, whole(250)))?.total, 350);
  for (let n = 350; n < 710; n++) cache.appended(appended(n - 100, [row(n)]));
  assert.equal(await kept(cache, whole(610)), null);
});

test('a small answer takes rows up to 64 KiB before it is dropped', async () => {
  const cache = new ReadCache(10_000_000);
  const row = JSON.stringify({ text: 'x'.repeat(1000) });
  cache.set(whole(0), answer('[]'));
  for (let n = 0; n < 60; n++) cache.appended(appended(n, [row]));
  assert.equal((await kept(cache, whole(60)))?.total, 60);
  for (let n = 60; n < 200; n++) cache.appended(appended(n, [row]));
  assert.equal(await kept(cache, whole(200)), null);
});

test('an answer pushed out of the budget is not brought back by an append', async () => {
  // Nine bytes an answer, forty in all: the fifth answer pushes out the first.
  const cache = new ReadCache(40);
  cache.set(whole(3), answer('[{"a":1}]'));
  for (const sheetId of ['b', 'c', 'd', 'e']) cache.set(whole(3, sheetId), answer('[{"b":1}]'));
  assert.equal(await kept(cache, whole(3)), null);
  cache.appended(appended(3, ['{"a":2}']));
  assert.equal(await kept(cache, whole(4)), null);
});

test('rows waiting count against the budget', async () => {
  // Four answers of nine bytes fit in forty; eight bytes of rows appended to one push one out.
  const cache = new ReadCache(40);
  cache.set(whole(3), answer('[{"a":1}]'));
  for (const sheetId of ['b', 'c', 'd']) cache.set(whole(3, sheetId), answer('[{"b":1}]'));
  cache.appended(appended(3, ['{"a":2}']));
  assert.equal(await kept(cache, whole(3, 'b')), null);
  assert.notEqual(await kept(cache, whole(3, 'c')), null);
  assert.deepEqual(await kept(cache, whole(4)), { body: '[{"a":1},{"a":2}]', total: 2 });
});

test('an answer moved to a version a read kept already replaces it, counted once', async () => {
  // 9 + 17 + 3 x 18 bytes fill eighty exactly; once the first answer moves onto the second, 71.
  const cache = new ReadCache(80);
  cache.set(whole(3), answer('[{"a":1}]'));
  cache.set(whole(4), answer('[{"a":1},{"a":2}]'));
  for (const sheetId of ['b', 'c', 'd']) {
    cache.set(whole(3, sheetId), answer('[{"b":1234567890}]'));
  }
  cache.appended(appended(3, ['{"a":2}']));
  assert.deepEqual(await kept(cache, whole(4)), { body: '[{"a":1},{"a":2}]', total: 2 });
  for (const sheetId of ['b', 'c', 'd'])
    assert.notEqual(await kept(cache, whole(3, sheetId)), null);
});

/** Asks the cache for `at` as a route does, counting the reads it makes and keeping as told. */
async function ask(cache: ReadCache, at: AnswerKey, reads: { count: number }): Promise<void> {
  await cache.answer(at, async (keep) => {
    reads.count++;
    const read = answer('[{"a":1}]');
    const body = keep ? cache.set(at, read) : read.body;
    return { kind: 'whole', body, total: read.total, version: at.version };
  });
}

const filtered = (version: number, query: string): AnswerKey => ({
  sheetId: 'sheet',
  version,
  variant: `json\n${query}`,
  wholeSheet: false,
});

test('a read asked for once is not kept; asked a second time, it is, and the third needs no store', async () => {
  const cache = new ReadCache(1_000_000);
  const reads = { count: 0 };
  await ask(cache, filtered(1, 'a=1'), reads);
  assert.equal(await kept(cache, filtered(1, 'a=2')), null, 'nothing kept for a read asked once');
  await ask(cache, filtered(1, 'a=1'), reads);
  await ask(cache, filtered(1, 'a=1'), reads);
  assert.equal(reads.count, 2);
});

test('a read asked for at an older version is kept at its first ask at the new one', async () => {
  const cache = new ReadCache(1_000_000);
  const reads = { count: 0 };
  await ask(cache, filtered(1, 'a=1'), reads);
  await ask(cache, filtered(2, 'a=1'), reads);
  await ask(cache, filtered(2, 'a=1'), reads);
  assert.equal(reads.count, 2);
});

test('a whole sheet is kept at its first read', async () => {
  const cache = new ReadCache(1_000_000);
  const reads = { count: 0 };
  await ask(cache, whole(1), reads);
  await ask(cache, whole(1), reads);
  assert.equal(reads.count, 1);
});

test('reads that differ each time never push a kept answer out', async () => {
  // Room for about one answer: before admission, each new read evicted the one kept.
  const cache = new ReadCache(40);
  const reads = { count: 0 };
  await ask(cache, filtered(1, 'popular'), reads);
  await ask(cache, filtered(1, 'popular'), reads);
  for (let limit = 0; limit < 100; limit++) await ask(cache, filtered(1, `_limit=${limit}`), reads);
  const before = reads.count;
  await ask(cache, filtered(1, 'popular'), reads);
  assert.equal(reads.count, before, 'the popular answer is still kept');
});

test('an answer is kept as the pieces it was read in, and joined into one buffer at its first hit', async () => {
  const cache = new ReadCache(10_000_000);
  const rows = Buffer.alloc(100 * 1024, 'x');
  const read = { body: bodyOf([Buffer.from('["'), rows, Buffer.from('"]')]), total: 1 };
  const sent = cache.set(whole(1), read);
  assert.equal(sent, read.body, 'the answer sent as it is kept is the one read, not a copy');
  const hit = await cache.answer(whole(1), () => assert.fail('a kept answer is not read again'));
  assert.equal(hit.kind, 'whole');
  if (hit.kind !== 'whole') return;
  assert.equal(hit.body.pieces.length, 1);
  assert.equal(hit.body.bytes, rows.length + 4);
  assert.equal(Buffer.concat(hit.body.pieces).toString(), `["${rows.toString()}"]`);
  const again = await cache.answer(whole(1), () => assert.fail('a kept answer is not read again'));
  assert.ok(again.kind === 'whole' && again.body.pieces[0] === hit.body.pieces[0], 'joined once');
});

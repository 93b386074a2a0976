/**
 * The read cache: answers kept by sheet version, and reads that miss together after a write
 * answered by one read of the store. Runs on the store the suite is pointed at.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { setTimeout } from 'node:timers/promises';
import { build, call } from './helpers/build.ts';
import type { RowStoreOptions } from '../src/store/row-store.ts';

/** A server over a sheet of `size` rows, counting the reads that reach the store. */
async function counted(t: TestContext, cacheSize: number, size = 50, store: RowStoreOptions = {}) {
  const server = await build(t, { cacheSize }, {}, { store });
  const rows = Array.from({ length: size }, (_, n) => ({ n, name: `row ${n}` }));
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'counted', columns: ['n', 'name'], rows },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  // Each read of the store is held a while, so that the requests sent together all arrive
  // while the first is being read, on any store.
  const reads = { count: 0 };
  const readJson = server.store.readJson.bind(server.store);
  server.store.readJson = async (sheet, plan) => {
    reads.count++;
    await setTimeout(100);
    return readJson(sheet, plan);
  };
  return { url: `${server.url}/api/v1/${id}`, reads };
}

const together = (url: string, count: number) =>
  Promise.all(Array.from({ length: count }, () => call(url)));

test('reads that miss together after a write are answered by one read, with the write in it', async (t) => {
  const { url, reads } = await counted(t, 1_000_000);
  assert.equal((await together(url, 3)).length, 3);
  const written = await call(url, { method: 'POST', body: { n: 50, name: 'new' } });
  assert.equal(written.status, 201, written.text);
  reads.count = 0;
  const answers = await together(url, 8);
  assert.equal(reads.count, 1, 'one read of the store for eight requests');
  for (const answer of answers) {
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('etag'), written.headers.get('etag'));
    assert.equal((answer.body as unknown[]).length, 51);
    assert.deepEqual((answer.body as unknown[])[50], { n: 50, name: 'new' });
  }
  // Other reads are other answers.
  reads.count = 0;
  const [first, paged] = await Promise.all([call(`${url}?n=1`), call(`${url}?_limit=2`)]);
  assert.equal(reads.count, 2);
  assert.deepEqual(first.body, [{ n: 1, name: 'row 1' }]);
  assert.equal((paged.body as unknown[]).length, 2);
});

test('with the cache off, every request reads the store', async (t) => {
  const { url, reads } = await counted(t, 0);
  const answers = await together(url, 6);
  assert.equal(reads.count, 6);
  for (const answer of answers) assert.equal((answer.body as unknown[]).length, 50);
});

test('an answer streamed as it is read is not shared: each request reads its own, whole', async (t) => {
  // Pieces of 100 rows (the fewest a piece holds): 600 rows, more than the five pieces read
  // whole, are read, and sent, in six.
  const { url, reads } = await counted(t, 1_000_000, 600, { pieceCells: 20 });
  const answers = await together(url, 4);
  assert.equal(reads.count, 4);
  for (const answer of answers) {
    assert.equal(answer.status, 200);
    assert.deepEqual(
      (answer.body as { n: number }[]).map((row) => row.n),
      Array.from({ length: 600 }, (_, n) => n),
    );
  }
});

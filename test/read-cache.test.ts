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
  const written = await call(`${url}?_id=7`, { method: 'PATCH', body: { name: 'changed' } });
  assert.equal(written.status, 200, written.text);
  reads.count = 0;
  const answers = await together(url, 8);
  assert.equal(reads.count, 1, 'one read of the store for eight requests');
  for (const answer of answers) {
    assert.equal(answer.status, 200);
    assert.equal(answer.headers.get('etag'), written.headers.get('etag'));
    assert.equal((answer.body as unknown[]).length, 50);
    assert.deepEqual((answer.body as unknown[])[7], { n: 7, name: 'changed' });
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

test('rows appended extend the whole sheet kept: the next read needs no store', async (t) => {
  const { url, reads } = await counted(t, 1_000_000);
  const [before] = await together(url, 1);
  const sheetsPath = url.replace('/api/v1/', '/api/v1/sheets/');
  assert.equal((await call(sheetsPath)).status, 200);
  const parts = [`${url}?_limit=60`, `${url}?n=1`, `${url}?_fields=n`];
  await Promise.all(parts.map((part) => call(part)));
  const one = await call(url, { method: 'POST', body: { n: 50, name: 'new' } });
  const two = await call(url, { method: 'POST', body: [{ n: 51 }, { n: 52, name: 'last' }] });
  assert.equal(two.status, 201, two.text);
  reads.count = 0;
  const [answer, other] = await Promise.all([call(url), call(sheetsPath)]);
  assert.equal(reads.count, 0, 'both paths answered from the answers kept');
  for (const got of [answer, other]) {
    assert.equal(got.headers.get('etag'), two.headers.get('etag'));
    assert.deepEqual(got.body, [
      ...(before?.body as unknown[]),
      { n: 50, name: 'new' },
      { n: 51, name: null },
      { n: 52, name: 'last' },
    ]);
  }
  assert.notEqual(one.headers.get('etag'), two.headers.get('etag'));
  // Answers that are not the whole sheet, as kept, are read again.
  const [paged, filtered, narrowed] = await Promise.all(parts.map((part) => call(part)));
  assert.equal(reads.count, 3);
  assert.equal((paged?.body as unknown[]).length, 53);
  assert.deepEqual(filtered?.body, [{ n: 1, name: 'row 1' }]);
  assert.deepEqual((narrowed?.body as unknown[]).at(-1), { n: 52 });
  // A write that is not an append leaves nothing to extend.
  await call(`${url}?_id=0`, { method: 'DELETE' });
  reads.count = 0;
  assert.equal(((await call(url)).body as unknown[]).length, 52);
  assert.equal(reads.count, 1);
});

test('an empty sheet kept whole takes its first rows', async (t) => {
  const { url, reads } = await counted(t, 1_000_000, 0);
  assert.deepEqual((await call(url)).body, []);
  await call(url, { method: 'POST', body: { n: 0, name: 'first' } });
  reads.count = 0;
  assert.deepEqual((await call(url)).body, [{ n: 0, name: 'first' }]);
  assert.equal(reads.count, 0);
});

test('a read that ends after an append began is not extended, though it was asked before', async (t) => {
  // The read is held until the append has committed: its rows may already hold the new row,
  // so extending it could show that row twice.
  const { url, reads } = await counted(t, 1_000_000);
  const reading = call(url);
  await setTimeout(20);
  const written = await call(url, { method: 'POST', body: { n: 50, name: 'new' } });
  assert.equal(written.status, 201, written.text);
  await reading;
  reads.count = 0;
  const after = await call(url);
  assert.equal(reads.count, 1, 'read again rather than extended');
  assert.deepEqual(
    (after.body as { n: number }[]).map((row) => row.n),
    [...Array.from({ length: 50 }, (_, n) => n), 50],
  );
});

test('whole-sheet reads among concurrent appends each answer one version of the sheet', async (t) => {
  // Appends only: every version of the sheet is the first rows of the last one. Reads that
  // end before, during and after commits, in random order, must each answer such a prefix,
  // with every row acknowledged before the read was sent, and never a row twice.
  const server = await build(t, { cacheSize: 10_000_000 });
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'appended', columns: ['n'], rows: Array.from({ length: 20 }, (_, n) => ({ n })) },
  });
  const url = `${server.url}/api/v1/${(created.body as { id: string }).id}`;
  const readJson = server.store.readJson.bind(server.store);
  // Each read waits a while after its request found the sheet's version, so that commits
  // land between the two.
  server.store.readJson = async (sheet, plan) => {
    await setTimeout(Math.random() * 4);
    return readJson(sheet, plan);
  };
  let acknowledged = 20;
  let next = 20;
  const reads: { atLeast: number; rows: { n: number }[] }[] = [];
  const writer = async () => {
    for (let i = 0; i < 25; i++) {
      const n = next++;
      const written = await call(url, { method: 'POST', body: { n } });
      assert.equal(written.status, 201, written.text);
      acknowledged++;
    }
  };
  const reader = async () => {
    for (let i = 0; i < 40; i++) {
      const atLeast = acknowledged;
      const read = await call(url);
      assert.equal(read.status, 200, read.text);
      reads.push({ atLeast, rows: read.body as { n: number }[] });
    }
  };
  await Promise.all([writer(), writer(), reader(), reader(), reader()]);
  const last = (await call(`${url}?_limit=1000`)).body as { n: number }[];
  assert.equal(last.length, 70);
  assert.equal(new Set(last.map((row) => row.n)).size, 70);
  assert.deepEqual((await call(url)).body, last);
  for (const { atLeast, rows } of reads) {
    assert.ok(rows.length >= atLeast, `${rows.length} rows, ${atLeast} acknowledged before`);
    assert.deepEqual(rows, last.slice(0, rows.length));
  }
});

test('a whole sheet too large to join is sent in one answer with its length, before and after appends', async (t) => {
  // 1,000 rows of about 100 bytes: more than the 64 KiB an answer is joined up to, so the answer
  // kept is the pieces read, which appends extend (and, past 64 pieces, gather).
  const name = (n: number) => `row ${n} ${'x'.repeat(80)}`;
  for (const cacheSize of [10_000_000, 0]) {
    const server = await build(t, { cacheSize });
    const expected = Array.from({ length: 1_000 }, (_, n) => ({ n, name: name(n) }));
    const created = await call(`${server.url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'large', columns: ['n', 'name'], rows: expected },
    });
    assert.equal(created.status, 201, created.text);
    const url = `${server.url}/api/v1/${(created.body as { id: string }).id}`;
    for (let n = 1_000; n < 1_100; n++) {
      if (n % 25 === 0) {
        const got = await call(url);
        assert.equal(got.status, 200);
        assert.equal(got.headers.get('content-length'), String(Buffer.byteLength(got.text)));
        assert.deepEqual(got.body, expected);
      }
      const written = await call(url, { method: 'POST', body: { n, name: name(n) } });
      assert.equal(written.status, 201, written.text);
      expected.push({ n, name: name(n) });
      // Read after each append, so that each adds pieces of its own to the answer kept.
      assert.equal(((await call(url)).body as unknown[]).length, n + 1);
    }
    const last = await call(url);
    assert.ok(last.text.length > 100_000);
    assert.deepEqual(last.body, expected);
    const head = await fetch(url, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(last.text)));
  }
});

/**
 * Reads too large to hold in memory are sent as they are read, from one snapshot: a slow client
 * gets every row, in order, as the sheet stood when the read began, even if it is written to
 * meanwhile. Runs on the store the suite is pointed at.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { build, call } from './helpers/build.ts';
import { backend } from './helpers/stores.ts';

// 25,000 rows of 20 columns, read in pieces of 100 rows: a slow client holds the read open long
// after its first piece, while the sheet is written to.
const rowCount = 25_000;
const filler = 'x'.repeat(20);
const fillers = Array.from({ length: 19 }, (_, i) => `text ${i}`);
const sheet = {
  id: 'large',
  name: 'large',
  columns: ['n', ...fillers],
  source: { provider: 'scratch' as const },
  settings: { deleteEnabled: true },
};
const rowsOf = () => [
  Array.from({ length: rowCount }, (_, n) => [n, ...fillers.map(() => filler)]),
];

test(`${backend}: a read of ${rowCount.toLocaleString('en')} rows streams every row, in order, from the snapshot it began with`, async (t) => {
  const { url, store } = await build(t, {}, {}, { store: { pieceCells: 2000 } });
  await store.createSheet(sheet, rowsOf());
  const rows = `${url}/api/v1/large`;
  // Read slowly: take the first bytes, write to the sheet, then read the rest.
  const body = await new Promise<string>((resolve, reject) => {
    request(rows, (response) => {
      assert.equal(response.statusCode, 200);
      const pieces: Buffer[] = [];
      let wrote = false;
      response.on('data', (piece: Buffer) => {
        pieces.push(piece);
        if (wrote) return;
        wrote = true;
        response.pause();
        void (async () => {
          const deleted = await call(`${rows}?_id=0`, { method: 'DELETE' });
          assert.equal(deleted.status, 200, deleted.text);
          const posted = await call(rows, { method: 'POST', body: { n: -1 } });
          assert.equal(posted.status, 201, posted.text);
          await sleep(50);
          response.resume();
        })().catch(reject);
      });
      response.on('end', () => resolve(Buffer.concat(pieces).toString()));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
  const read = JSON.parse(body) as Record<string, unknown>[];
  assert.equal(read.length, rowCount);
  assert.ok(
    read.every((row, i) => row.n === i && row['text 18'] === filler),
    'rows missing, repeated or out of order',
  );
  // The writes made while it streamed are there for the next read.
  const after = (await call(rows)).body as { n: number }[];
  assert.equal(after.length, rowCount);
  assert.deepEqual([after[0]?.n, after.at(-1)?.n], [1, -1]);
});

test(`${backend}: a large read as CSV, and with _with_id, carries every row`, async (t) => {
  const { url, store } = await build(t, {}, {}, { store: { pieceCells: 2000 } });
  await store.createSheet(sheet, rowsOf());
  const csv = await call(`${url}/api/v1/large`, { headers: { accept: 'text/csv' } });
  const lines = csv.text.trimEnd().split('\n');
  assert.equal(lines.length, rowCount + 1);
  assert.equal(lines.at(-1), [rowCount - 1, ...fillers.map(() => filler)].join(','));
  const withIds = (await call(`${url}/api/v1/large?_with_id=true`)).body as { _id: number }[];
  assert.equal(withIds.length, rowCount);
  assert.ok(withIds.every((row, i) => row._id === i));
});

test(`${backend}: long pages, with and without _with_id, carry every row's text as written`, async (t) => {
  // Long pages and short ones may be read differently (by COPY on PostgreSQL): both must carry
  // characters of more than one byte and those JSON or PostgreSQL's text formats escape.
  const { url, store } = await build(t);
  const text = (n: number) => `Zoë "q" \\ \t\n ✓ ${n}`;
  const count = 1200;
  await store.createSheet({ ...sheet, id: 'texts', name: 'texts', columns: ['n', 'text'] }, [
    Array.from({ length: count }, (_, n) => [n, text(n)]),
  ]);
  for (const [offset, limit] of [
    [0, 1200],
    [7, 1000],
    [900, 250],
    [1100, 500],
    [3, 20],
  ] as const) {
    for (const withIds of [false, true]) {
      const page = `${url}/api/v1/texts?_offset=${offset}&_limit=${limit}&_with_id=${withIds}`;
      const read = await call(page);
      assert.equal(read.status, 200, read.text);
      const expected = Array.from({ length: Math.min(limit, count - offset) }, (_, i) => {
        const n = offset + i;
        return withIds ? { _id: n, n, text: text(n) } : { n, text: text(n) };
      });
      assert.deepEqual(read.body, expected, page);
    }
  }
});

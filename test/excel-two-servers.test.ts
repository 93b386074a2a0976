/**
 * An Excel sheet served by two servers on one PostgreSQL store: when the server pushing loses
 * its lock, the other one settles the push from the store's record, closing the first one's
 * workbook sessions before it reads the worksheet, so that nothing the first one sent lands
 * after that read. Checked with an Idempotency-Key retry, on the worksheet and the copy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, secondServer } from './helpers/excel.ts';
import { backend, endLockConnections } from './helpers/stores.ts';

test(
  `${backend}: a server that took the sheet over closes the first one's session before it reads: a write held by Graph never lands after, and its retry lands once`,
  { skip: backend !== 'postgres' },
  async (t) => {
    const excel = await excelApp(t, { settings: { deadlineMs: 4000 }, app: { cacheSize: 0 } });
    const id = await connectPeople(excel, { freshnessSeconds: 3600 });
    const other = await secondServer(t, excel);
    // Graph holds the first server's write (an append: one `$batch`) unanswered, to apply it
    // when the test says.
    excel.emulator.failNext(1, { mode: 'late', match: { only: 'batch', holding: '/insert' } });
    const first = call(`${excel.url}/api/v1/${id}`, {
      method: 'POST',
      body: { name: 'Zed' },
      headers: { 'idempotency-key': '"zed"' },
    });
    for (let i = 0; i < 200 && excel.emulator.heldCount === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    assert.equal(excel.emulator.heldCount, 1, 'the write is held by Graph');
    assert.equal(await endLockConnections(excel.env.SHEETPORT_DATABASE_URL ?? ''), 1);
    // The other server takes the sheet: it closes the first one's sessions at once, serves the
    // last copy and refuses writes until no request of that push can be in flight.
    const read = await call(`${other}/api/v1/${id}?name=Zed`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, []);
    const meanwhile = await call(`${other}/api/v1/${id}`, {
      method: 'POST',
      body: { name: 'Amy' },
    });
    assert.equal(meanwhile.status, 503, meanwhile.text);
    assert.ok(meanwhile.headers.get('retry-after') !== null);
    // Graph now runs the held write: its session was closed, so it is refused.
    excel.emulator.applyHeld();
    const late = excel.emulator.requests().find((r) => r.fault?.mode === 'late');
    assert.equal(late?.applied, false, 'the held write did not land after the other read');
    const answered = await first;
    assert.ok([503, 504].includes(answered.status), answered.text);
    const retried = () =>
      call(`${other}/api/v1/${id}`, {
        method: 'POST',
        body: { name: 'Zed' },
        headers: { 'idempotency-key': '"zed"' },
      });
    let retry = await retried();
    for (const stop = Date.now() + 10_000; retry.status === 503 || retry.status === 409;) {
      assert.ok(Date.now() < stop, `the wait ends: ${retry.text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      retry = await retried();
    }
    assert.equal(retry.status, 201, retry.text);
    const { api, sheet } = await bothSides(excel, id);
    assert.deepEqual(api, sheet);
    assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1, 'Zed is in once');
  },
);

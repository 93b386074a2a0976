/**
 * A watched Excel worksheet: a person's edit becomes events with no API call, found by the
 * workbook's cTag moving; an idle workbook costs one probe per interval and no read of its cells.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { WatchOptions } from '../src/sheets/start-watching.ts';
import { call } from './helpers/build.ts';
import { connectPeople, excelApp } from './helpers/excel.ts';

const quick: WatchOptions = { intervalMs: 100, tickMs: 20, minReadGapMs: 300 };

async function eventually<T>(check: () => Promise<T | undefined>, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await sleep(10);
  }
}

test("a person's edit on a watched worksheet becomes an event, with no API call", async (t) => {
  const excel = await excelApp(t, { app: { watch: quick } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  const patched = await call(`${excel.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { watch: true },
  });
  assert.equal(patched.status, 200, patched.text);
  const before = await excel.store.latestEventId(id);
  excel.emulator.setCells(excel.ref, 'People', 'A3', [['Bobby']]);
  const events = await eventually(async () => {
    const found = await excel.store.eventsAfter(id, before, 100);
    return found.length > 0 ? found : undefined;
  }, 'the watcher commits events');
  const { type, data } = JSON.parse(events[0]?.body ?? '{}') as {
    type: string;
    data: { source: string; rows: { _id: number; name: string }[] };
  };
  assert.deepEqual(
    [type, data.source, data.rows.map((row) => `${row._id}:${row.name}`)],
    ['rows.updated', 'provider', ['1:Bobby']],
  );
});

test('an idle watched workbook is probed for its cTag, and its cells are not read', async (t) => {
  const excel = await excelApp(t, { app: { watch: quick } });
  const id = await connectPeople(excel, { freshnessSeconds: 3600 });
  await call(`${excel.url}/admin/v1/sheets/${id}`, { method: 'PATCH', body: { watch: true } });
  // The first check reads once (nothing known yet); then only probes.
  await eventually(
    async () =>
      excel.emulator.requests().filter((r) => r.path.includes('usedRange')).length >= 2
        ? true
        : undefined,
    'the first watch read',
  );
  excel.emulator.resetRequests();
  await eventually(
    async () =>
      excel.emulator.requests().filter((r) => r.path.endsWith(excel.ref.itemId)).length >= 5
        ? true
        : undefined,
    'five probes',
  );
  const reads = excel.emulator.requests().filter((r) => r.path.includes('usedRange'));
  assert.deepEqual(reads, [], 'no read of the cells while the cTag stands');
});

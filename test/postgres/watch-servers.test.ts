import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { startGoogleSheetsEmulator } from '../google-emulator/index.ts';
import { call } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server-process.ts';
import { backend, openTestStore } from '../helpers/stores.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

/** The number of tabs a server says it watches, from its metrics. */
async function watchedBy(server: RunningServer): Promise<number> {
  const text = (await call(`${server.url}/metrics`)).text;
  return Number(/^sheetport_watched_tabs (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
}

async function untilTrue(check: () => Promise<boolean>, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    assert.ok(Date.now() < deadline, `timed out waiting until ${what}`);
    await sleep(100);
  }
}

test('two servers on one PostgreSQL: one watches a tab, each change is delivered once, and the other takes over when it dies', async (t) => {
  assert.equal(backend, 'postgres', 'run through npm run test:postgres');
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const account = emulator.serviceAccount();
  const spreadsheetId = emulator.createSpreadsheet({
    tabs: [
      {
        title: 'People',
        rows: [
          ['name', 'age'],
          ['Ann', 31],
          ['Bob', 27],
        ],
      },
    ],
    sharedWith: [account.client_email],
  });
  const { env, dispose } = await openTestStore();
  const kills: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const kill of kills) await kill();
    await dispose();
  });
  const settings = {
    ...env,
    SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true',
    SHEETPORT_METRICS: 'true',
    SHEETPORT_WATCH_INTERVAL_SECONDS: '5',
    SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
    SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
    SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
  };
  const servers = await Promise.all(
    [0, 1].map(() => startServer(settings, (kill) => kills.push(kill))),
  );
  const [a, b] = servers as [RunningServer, RunningServer];
  const created = await call(`${a.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId }, freshnessSeconds: 3600 },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const hook = await receiver(t);
  const hooked = await call(`${b.url}/admin/v1/sheets/${id}/webhooks`, {
    method: 'POST',
    body: { url: hook.url },
  });
  assert.equal(hooked.status, 201, hooked.text);

  // The webhook makes the tab watched, by one server of the two.
  const counts = async () => [await watchedBy(a), await watchedBy(b)];
  await untilTrue(async () => (await counts()).join() !== '0,0', 'a server watches', 15_000);
  assert.deepEqual((await counts()).sort(), [0, 1]);
  const holder = (await watchedBy(a)) === 1 ? a : b;
  const other = holder === a ? b : a;

  emulator.editCell(spreadsheetId, 'People', 'B2', 32);
  await hook.until(1, 20_000);
  emulator.editCell(spreadsheetId, 'People', 'B3', 28);
  await hook.until(2, 20_000);

  // Seconds later, after many ticks of both: still one watcher.
  assert.deepEqual([await watchedBy(holder), await watchedBy(other)], [1, 0]);

  // The holder dies; the other takes the tab over within the interval, and misses no change.
  await holder.crash();
  emulator.editCell(spreadsheetId, 'People', 'A3', 'Rob');
  await untilTrue(async () => (await watchedBy(other)) === 1, 'the other takes over', 15_000);
  await hook.until(3, 20_000);
  // A while longer, for any second delivery of a change to arrive.
  await sleep(2000);
  const events = hook.received.map(
    (delivery) =>
      JSON.parse(delivery.body) as { id: string; type: string; data: { rows: unknown[] } },
  );
  // A delivery cut off by the crash may come again, with the same id (webhooks deliver at
  // least once): each change is one event all the same, not one per server.
  const byId = new Map(events.map((event) => [event.id, event]));
  assert.equal(byId.size, 3, `each change once: ${JSON.stringify(events)}`);
  assert.deepEqual(
    [...byId.values()].map((event) => [event.type, event.data.rows]),
    [
      // Each row keeps its key across the fail-over: Bob is the same row once renamed Rob.
      ['rows.updated', [{ _id: 0, _key: '0', name: 'Ann', age: 32 }]],
      ['rows.updated', [{ _id: 1, _key: '1', name: 'Bob', age: 28 }]],
      ['rows.updated', [{ _id: 1, _key: '1', name: 'Rob', age: 28 }]],
    ],
  );
});

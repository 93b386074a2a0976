import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { call } from './helpers/build.ts';
import { freePort, startServer } from './helpers/server-process.ts';
import { storeSettings } from './helpers/stores.ts';
import { receiver } from './helpers/webhook-receiver.ts';

test('a write acknowledged just before kill -9 is still delivered to its webhook after a restart, once', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-webhook-restart-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const kills: (() => Promise<void>)[] = [];
  t.after(() => Promise.all(kills.map((kill) => kill())));
  const settings = { ...(await storeSettings(t, dir)), SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true' };
  const first = await startServer(settings, (kill) => kills.push(kill));
  const created = await call(`${first.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'orders', columns: ['item'] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  // Nothing listens at the webhook's address yet: the first attempts fail.
  const port = await freePort();
  const hooked = await call(`${first.url}/admin/v1/sheets/${id}/webhooks`, {
    method: 'POST',
    body: { url: `http://127.0.0.1:${port}/hook` },
  });
  assert.equal(hooked.status, 201, hooked.text);
  const posted = await call(`${first.url}/api/v1/${id}`, {
    method: 'POST',
    body: { item: 'before the crash' },
  });
  assert.equal(posted.status, 201, posted.text);
  await first.crash();

  const hook = await receiver(t, [], 0, port);
  await startServer(settings, (kill) => kills.push(kill));
  const [delivery] = await hook.until(1, 30_000);
  const event = JSON.parse(delivery?.body ?? '{}') as { data: { rows: { item: string }[] } };
  assert.deepEqual(event.data.rows, [{ _id: 0, _key: '0', item: 'before the crash' }]);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(hook.received.length, 1);
});

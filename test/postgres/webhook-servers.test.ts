import assert from 'node:assert/strict';
import { test } from 'node:test';
import { call } from '../helpers/build.ts';
import { startServer, type RunningServer } from '../helpers/server-process.ts';
import { backend, openTestStore } from '../helpers/stores.ts';
import { receiver } from '../helpers/webhook-receiver.ts';

test('two servers on one PostgreSQL deliver each event once, in order', async (t) => {
  assert.equal(backend, 'postgres', 'run through npm run test:postgres');
  const { env, dispose } = await openTestStore();
  const kills: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const kill of kills) await kill();
    await dispose();
  });
  const settings = { ...env, SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true' };
  const servers: RunningServer[] = await Promise.all(
    [0, 1].map(() => startServer(settings, (kill) => kills.push(kill))),
  );
  const [a, b] = servers as [RunningServer, RunningServer];
  const created = await call(`${a.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'shared', columns: ['n'] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const hook = await receiver(t);
  const hooked = await call(`${b.url}/admin/v1/sheets/${id}/webhooks`, {
    method: 'POST',
    body: { url: hook.url },
  });
  assert.equal(hooked.status, 201, hooked.text);
  // Writes through both servers, some at once: every server's worker sees every event.
  for (let n = 0; n < 20; n += 2) {
    const answers = await Promise.all([
      call(`${a.url}/api/v1/${id}`, { method: 'POST', body: { n } }),
      call(`${b.url}/api/v1/${id}`, { method: 'POST', body: { n: n + 1 } }),
    ]);
    for (const answer of answers) assert.equal(answer.status, 201, answer.text);
  }
  await hook.until(20, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const ids = hook.received.map((delivery) => delivery.headers['webhook-id'] as string);
  assert.equal(ids.length, 20, 'each event once');
  assert.equal(new Set(ids).size, 20);
  // In outbox order: the versions the events carry rise one by one.
  const versions = hook.received.map(
    (delivery) => (JSON.parse(delivery.body) as { data: { version: number } }).data.version,
  );
  assert.deepEqual(
    versions,
    [...versions].sort((x, y) => x - y),
  );
  assert.equal(new Set(versions).size, 20);
});

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { EventSource } from 'eventsource';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';
import { eventually, readEvents } from './helpers/event-reader.ts';
import { receiver } from './helpers/webhook-receiver.ts';

const adminToken = 'stream-limits-administrator-token';
const admin = { authorization: `Bearer ${adminToken}` };

/** A server with an administrator token, and a sheet of the given access on it. */
async function sheetWith(
  t: TestContext,
  access: 'open' | 'public-read' | 'private',
  options: Partial<AppOptions> = {},
) {
  const built = await build(t, { adminToken, ...options });
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'people', columns: ['name', 'ssn'] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const patched = await call(`${built.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    headers: admin,
    body: { access, deleteEnabled: true },
  });
  assert.equal(patched.status, 200, patched.text);
  return {
    ...built,
    id,
    rows: `${built.url}/api/v1/${id}`,
    events: `${built.url}/api/v1/${id}/events`,
    sheetUrl: `${built.url}/admin/v1/sheets/${id}`,
  };
}

async function post(url: string, body: unknown): Promise<void> {
  const answer = await call(url, { method: 'POST', headers: admin, body });
  assert.equal(answer.status, 201, answer.text);
}

test('a client that never reads is disconnected, and what the server holds for it stays bounded', async (t) => {
  const { app, store, id, rows } = await sheetWith(t, 'open', {
    events: { recheckMs: 100, maxUnsentBytes: 1_048_576 },
  });
  // About 18 MB of history: far more than the kernel's socket buffers take.
  const wide = 'x'.repeat(5000);
  for (let i = 0; i < 20; i += 1) {
    await post(
      rows,
      Array.from({ length: 180 }, (_, n) => ({ name: `r${i}-${n}`, ssn: wide })),
    );
  }
  const [first] = await store.eventsAfter(id, null, 1);
  assert.ok(first !== undefined);
  const accepted = new Map<number, Socket>();
  app.server.on('connection', (socket: Socket) => accepted.set(socket.remotePort ?? 0, socket));
  const client = connect(Number(new URL(rows).port), '127.0.0.1');
  t.after(() => client.destroy());
  await once(client, 'connect');
  client.pause();
  client.write(
    `GET /api/v1/${id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\nLast-Event-ID: ${first.id}\r\n\r\n`,
  );
  await eventually(() => accepted.has(client.localPort ?? -1), 'the server to accept');
  const server = accepted.get(client.localPort ?? -1) as Socket;
  let peak = 0;
  const sampler = setInterval(() => (peak = Math.max(peak, server.writableLength)), 10);
  t.after(() => clearInterval(sampler));
  await eventually(() => server.destroyed, 'the server to disconnect the client', 20_000);
  clearInterval(sampler);
  // One event of this history (~0.9 MB) and the socket's own buffer, not the history.
  assert.ok(peak < 3 * 1_048_576, `the server held ${peak} bytes for a client that reads none`);
});

/** A request for a stream that should be refused: a stream opened instead is closed at once. */
async function refused(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const text = response.status === 200 ? '' : await response.text();
  controller.abort();
  const body = (text === '' ? {} : JSON.parse(text)) as { code?: string };
  return { status: response.status, headers: response.headers, text, body };
}

test('streams beyond the cap of an address answer 429 too-many-streams, beyond the server cap 503, both with Retry-After', async (t) => {
  const { events } = await sheetWith(t, 'public-read', {
    trustProxy: true,
    events: { streamsPerAddress: 2, streamsPerServer: 3 },
  });
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const a1 = await readEvents(t, events, from('203.0.113.1'));
  const a2 = await readEvents(t, events, from('203.0.113.1'));
  assert.deepEqual([a1.response.status, a2.response.status], [200, 200]);
  const a3 = await refused(events, from('203.0.113.1'));
  assert.equal(a3.status, 429, a3.text);
  assert.equal((a3.body as { code: string }).code, 'too-many-streams');
  assert.ok(Number(a3.headers.get('retry-after')) > 0);

  const b1 = await readEvents(t, events, from('203.0.113.2'));
  assert.equal(b1.response.status, 200);
  const c1 = await refused(events, from('203.0.113.3'));
  assert.equal(c1.status, 503, c1.text);
  assert.equal((c1.body as { code: string }).code, 'streams-unavailable');
  assert.ok(Number(c1.headers.get('retry-after')) > 0);

  // A stream that ends gives its place back.
  a1.abort();
  await eventually(async () => {
    const again = await readEvents(t, events, from('203.0.113.3'));
    again.abort();
    return again.response.status === 200;
  }, 'a place to free up');
});

test('revoking its key ends a stream within the re-check interval', async (t) => {
  const { url, id, rows, events } = await sheetWith(t, 'private', { events: { recheckMs: 200 } });
  const made = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: admin,
    body: { name: 'reader', scopes: ['read'] },
  });
  assert.equal(made.status, 201, made.text);
  const { key, id: keyId } = made.body as { key: string; id: string };
  const stream = await readEvents(t, events, { authorization: `Bearer ${key}` });
  assert.equal(stream.response.status, 200);
  await post(rows, { name: 'before revocation' });
  await stream.until(() => stream.frames.length === 1, 'the first event');

  const revoked = await call(`${url}/admin/v1/sheets/${id}/keys/${keyId}`, {
    method: 'DELETE',
    headers: admin,
  });
  assert.equal(revoked.status, 204, revoked.text);
  const at = Date.now();
  await stream.until(() => stream.ended, 'the stream to end', 5000);
  assert.ok(Date.now() - at < 2000, `ended ${Date.now() - at} ms after the revocation`);
  await post(rows, { name: 'written after revocation' });
  assert.deepEqual(
    stream.frames.map((frame) => frame.event),
    ['rows.created'],
  );
});

test('a key revoked or a sheet made private on this server ends its streams at once: nothing written after reaches them', async (t) => {
  // A re-check a minute away: only the change itself can end the streams in time.
  const { url, id, rows, events, sheetUrl } = await sheetWith(t, 'public-read', {
    events: { recheckMs: 60_000 },
  });
  const made = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: admin,
    body: { name: 'reader', scopes: ['read'] },
  });
  assert.equal(made.status, 201, made.text);
  const { key, id: keyId } = made.body as { key: string; id: string };
  const keyed = await readEvents(t, events, { authorization: `Bearer ${key}` });
  const anonymous = await readEvents(t, events, {});
  await post(rows, { name: 'before' });
  for (const stream of [keyed, anonymous]) {
    await stream.until(() => stream.frames.length === 1, 'the first event');
  }

  const revoked = await call(`${url}/admin/v1/sheets/${id}/keys/${keyId}`, {
    method: 'DELETE',
    headers: admin,
  });
  assert.equal(revoked.status, 204, revoked.text);
  await post(rows, { name: 'written after revocation' });
  await keyed.until(() => keyed.ended, 'the keyed stream to end', 5000);
  await anonymous.until(() => anonymous.frames.length === 2, 'the anonymous stream to go on');

  const patched = await call(sheetUrl, {
    method: 'PATCH',
    headers: admin,
    body: { access: 'private' },
  });
  assert.equal(patched.status, 200, patched.text);
  await post(rows, { name: 'written once private' });
  await anonymous.until(() => anonymous.ended, 'the anonymous stream to end', 5000);
  assert.deepEqual(
    keyed.frames.map((frame) => frame.event),
    ['rows.created'],
  );
  assert.equal(anonymous.frames.length, 2);
});

test('making the sheet private ends the anonymous streams of a public-read sheet', async (t) => {
  const { events, sheetUrl } = await sheetWith(t, 'public-read', { events: { recheckMs: 200 } });
  const stream = await readEvents(t, events, {});
  assert.equal(stream.response.status, 200);
  const patched = await call(sheetUrl, {
    method: 'PATCH',
    headers: admin,
    body: { access: 'private' },
  });
  assert.equal(patched.status, 200, patched.text);
  await stream.until(() => stream.ended, 'the stream to end', 5000);
});

test('removing an origin from allowedOrigins ends the streams of pages from it', async (t) => {
  const { events, sheetUrl } = await sheetWith(t, 'public-read', { events: { recheckMs: 200 } });
  const origin = 'https://app.example';
  const allow = async (allowedOrigins: string[]) => {
    const patched = await call(sheetUrl, {
      method: 'PATCH',
      headers: admin,
      body: { allowedOrigins },
    });
    assert.equal(patched.status, 200, patched.text);
  };
  await allow([origin, 'https://other.example']);
  const fromPage = await readEvents(t, events, { origin });
  const sameOrigin = await readEvents(t, events, {});
  await allow(['https://other.example']);
  await fromPage.until(() => fromPage.ended, 'the page stream to end', 5000);
  assert.equal(sameOrigin.ended, false);
});

/** Listens with a real EventSource, recording every event, `reset` included. */
function listen(t: TestContext, url: string, lastEventId: string) {
  const received: { type: string; id: string; data: string }[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...(init?.headers ?? {}), 'last-event-id': lastEventId },
      }),
  });
  t.after(() => source.close());
  for (const type of ['reset', 'rows.created', 'rows.updated', 'rows.deleted']) {
    source.addEventListener(type, (event) =>
      received.push({ type, id: event.lastEventId, data: event.data }),
    );
  }
  return { received };
}

test('an unknown Last-Event-ID replays nothing: the stream starts at the present with a reset event', async (t) => {
  const { store, id, rows } = await sheetWith(t, 'open');
  await post(rows, { name: 'Ann', ssn: '078-05-1120' });
  const deleted = await call(`${rows}?name=Ann`, { method: 'DELETE', headers: admin });
  assert.equal(deleted.status, 200, deleted.text);
  const newest = await store.latestEventId(id);
  const stream = listen(t, `${rows}/events`, 'evt_made_up');
  await eventually(() => stream.received.length === 1, 'the reset event');
  await post(rows, { name: 'Bob' });
  await eventually(() => stream.received.length === 2, 'the new event');
  assert.deepEqual(stream.received[0], { type: 'reset', id: newest, data: '{"type":"reset"}' });
  assert.equal(stream.received[1]?.type, 'rows.created');
  assert.ok(stream.received.every((event) => !event.data.includes('078-05-1120')));
});

test('an event past the retention is never served, even before it is pruned', async (t) => {
  const { store, id, rows } = await sheetWith(t, 'open', {
    events: { retentionMs: 1000, pruneIntervalMs: 3_600_000 },
  });
  await post(rows, { name: 'Ann', ssn: '078-05-1120' });
  const [old] = await store.eventsAfter(id, null, 1);
  assert.ok(old !== undefined);
  await eventually(() => Date.now() - Date.parse(old.createdAt) > 1100, 'the event to expire');
  // Still in the outbox: the pruner has not run since.
  assert.equal((await store.eventsAfter(id, null, 10)).length, 1);
  const stream = listen(t, `${rows}/events`, old.id);
  await eventually(() => stream.received.length === 1, 'the reset event');
  assert.equal(stream.received[0]?.type, 'reset');
});

test('the pruner removes events past the retention', async (t) => {
  const { store, id, rows } = await sheetWith(t, 'open', {
    events: { retentionMs: 1000, pruneIntervalMs: 100 },
  });
  await post(rows, { name: 'Ann', ssn: '078-05-1120' });
  assert.equal((await store.eventsAfter(id, null, 10)).length, 1);
  await eventually(
    async () => (await store.eventsAfter(id, null, 10)).length === 0,
    'the event to be pruned',
  );
});

/** Two sheets on one server: `hooked` with a webhook to `url`, and `plain` with none. */
async function twoSheets(t: TestContext, url: string, webhooks: AppOptions['webhooks']) {
  const hooked = await sheetWith(t, 'open', {
    events: { retentionMs: 1000, pruneIntervalMs: 100 },
    webhooks: { allowPrivate: true, pollMs: 50, timeoutMs: 300, ...webhooks },
  });
  const made = await call(`${hooked.sheetUrl}/webhooks`, {
    method: 'POST',
    headers: admin,
    body: { url },
  });
  assert.equal(made.status, 201, made.text);
  const created = await call(`${hooked.url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'plain', columns: ['name'] },
  });
  assert.equal(created.status, 201, created.text);
  const plain = (created.body as { id: string }).id;
  await post(hooked.rows, { name: 'Ann' });
  await post(`${hooked.url}/api/v1/${plain}`, { name: 'Ann' });
  const kept = async (sheetId: string) =>
    (await hooked.store.eventsAfter(sheetId, null, 10)).length;
  // The plain sheet's event, made last, is pruned: the hooked one was then past the retention too.
  await eventually(async () => (await kept(plain)) === 0, "the plain sheet's event to be pruned");
  return { ...hooked, kept };
}

test('an event a webhook has still to send outlives the retention until it is delivered', async (t) => {
  const answers = Array.from({ length: 1000 }, () => 500);
  const hook = await receiver(t, answers);
  const { id, kept } = await twoSheets(t, hook.url, { retryDelaysMs: [50], giveUpMs: 3_600_000 });
  await hook.until(2);
  assert.equal(await kept(id), 1, 'the undelivered event is kept');
  answers.length = 0;
  await eventually(async () => (await kept(id)) === 0, 'the delivered event to be pruned');
});

test('a webhook that keeps failing holds its events back for the give-up time past the retention, no longer', async (t) => {
  const hook = await receiver(t, [500]);
  // Its next attempt is an hour away: only the pruner's window lets the event go.
  const { id, kept, store } = await twoSheets(t, hook.url, {
    retryDelaysMs: [3_600_000],
    giveUpMs: 2000,
  });
  await hook.until(1);
  assert.equal(await kept(id), 1, 'the undelivered event is kept');
  await eventually(async () => (await kept(id)) === 0, 'the held event to be pruned', 10_000);
  const [webhook] = await store.webhooksOf(id);
  assert.equal(webhook?.cursor, 0, 'the webhook never delivered it');
});

test('idle streams share the poll: a write another server commits reaches every stream of its sheet', async (t) => {
  const { store, id, events } = await sheetWith(t, 'open');
  const streams = await Promise.all(
    Array.from({ length: 8 }, () => readEvents(t, events, { authorization: admin.authorization })),
  );
  assert.ok(streams.every((stream) => stream.response.status === 200));
  // Straight to the store, as another server on the same database writes: no local wake-up.
  const [written] = await store.writeRows(id, [
    { op: { kind: 'append', rows: [['from elsewhere', null]] }, ifMatch: null },
  ]);
  assert.ok(written !== undefined && !('code' in written));
  for (const stream of streams) {
    await stream.until(() => stream.frames.length === 1, 'the event from elsewhere', 5000);
    assert.equal(stream.frames[0]?.event, 'rows.created');
  }
});

test('a known Last-Event-ID replays every event after it, across pages cut by count and by size, in order, none twice', async (t) => {
  const { store, id, rows, events } = await sheetWith(t, 'open');
  const large = 'y'.repeat(20_000);
  for (let i = 0; i < 130; i += 1) await post(rows, { name: `small ${i}` });
  // Eight events of ~200 KB: a page reaches its 256 KiB after two of them.
  for (let i = 0; i < 8; i += 1) {
    await post(
      rows,
      Array.from({ length: 10 }, () => ({ name: `large ${i}`, ssn: large })),
    );
  }
  const outbox = await store.eventsAfter(id, null, 1000);
  assert.equal(outbox.length, 138);
  const stream = await readEvents(t, events, { 'last-event-id': outbox[0]?.id as string });
  await stream.until(() => stream.frames.length >= 137, 'the replay');
  await post(rows, { name: 'live' });
  await stream.until(() => stream.frames.length >= 138, 'the live event');
  const expected = [
    ...outbox.slice(1).map((event) => event.id),
    (await store.latestEventId(id)) as string,
  ];
  assert.deepEqual(
    stream.frames.map((frame) => frame.id),
    expected,
  );
});

import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { EventSource } from 'eventsource';
import { build, call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';

/** An event as received: `data:` is the event's whole body, as a webhook delivers it. */
interface Received {
  id: string;
  type: string;
  body: {
    id: string;
    type: string;
    data: { sheetId: string; source: string; rows: Record<string, unknown>[] };
  };
}

/**
 * An EventSource on a sheet's stream, collecting events; `headers` go with every request it
 * makes (a key, or a Last-Event-ID to resume from). Closed when the test ends.
 */
function listen(t: TestContext, url: string, headers: Record<string, string> = {}) {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, { ...init, headers: { ...(init?.headers ?? {}), ...headers } }),
  });
  t.after(() => source.close());
  for (const type of ['rows.created', 'rows.updated', 'rows.deleted']) {
    source.addEventListener(type, (event) => {
      received.push({
        id: event.lastEventId,
        type,
        body: JSON.parse(event.data) as Received['body'],
      });
      for (const wake of waiters.splice(0)) wake();
    });
  }
  const opened = new Promise<void>((resolve, reject) => {
    source.addEventListener('open', () => resolve(), { once: true });
    source.addEventListener('error', (error) => reject(new Error(String(error.message))), {
      once: true,
    });
  });
  /** Resolves once `count` events have arrived (or fails after a while). */
  const until = async (count: number) => {
    const deadline = Date.now() + 10_000;
    while (received.length < count) {
      assert.ok(Date.now() < deadline, `only ${received.length} of ${count} events arrived`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
    return received;
  };
  return { source, received, opened, until };
}

async function sheetWith(t: TestContext, options = {}) {
  const built = await build(t, options);
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'feed', columns: ['name', 'age'], rows: [{ name: 'Ann', age: 31 }] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  await call(`${built.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { deleteEnabled: true },
  });
  return {
    ...built,
    id,
    rows: `${built.url}/api/v1/${id}`,
    events: `${built.url}/api/v1/${id}/events`,
  };
}

test('a stream sends each committed write as one event: id, type and the outbox body', async (t) => {
  const { rows, events, store, id } = await sheetWith(t);
  const stream = listen(t, events);
  await stream.opened;
  assert.equal(
    (await call(rows, { method: 'POST', body: [{ name: 'Bob' }, { name: 'Cy' }] })).status,
    201,
  );
  assert.equal(
    (await call(`${rows}?name=Bob`, { method: 'PATCH', body: { age: 28 } })).status,
    200,
  );
  assert.equal((await call(`${rows}?_id=0`, { method: 'DELETE' })).status, 200);
  const received = await stream.until(3);
  assert.deepEqual(
    received.map((event) => event.type),
    ['rows.created', 'rows.updated', 'rows.deleted'],
  );
  const outbox = await store.eventsAfter(id, null, 10);
  assert.deepEqual(
    received.map((event) => [event.id, event.body]),
    outbox.map((event) => [event.id, JSON.parse(event.body)]),
  );
  assert.ok(
    received.every((event) => event.body.id === event.id && event.body.type === event.type),
  );
  assert.deepEqual(received[0]?.body.data.rows, [
    { _id: 1, _key: '1', name: 'Bob', age: null },
    { _id: 2, _key: '2', name: 'Cy', age: null },
  ]);
  assert.equal(received[0]?.body.data.source, 'api');
});

test('a new stream starts after the newest event; Last-Event-ID resumes after the one given', async (t) => {
  const { rows, events } = await sheetWith(t);
  for (const name of ['B1', 'B2', 'B3']) {
    assert.equal((await call(rows, { method: 'POST', body: { name } })).status, 201);
  }
  const fresh = listen(t, events);
  await fresh.opened;
  assert.equal((await call(rows, { method: 'POST', body: { name: 'C1' } })).status, 201);
  const [only] = await fresh.until(1);
  assert.deepEqual(
    only?.body.data.rows.map((row) => row.name),
    ['C1'],
  );

  // A client that saw C1 resumes after it, and gets only what comes next.
  const seen = fresh.received[0]?.id as string;
  const resumed = listen(t, events, { 'last-event-id': seen });
  await resumed.opened;
  assert.equal((await call(rows, { method: 'POST', body: { name: 'C2' } })).status, 201);
  const after = await resumed.until(1);
  assert.deepEqual(
    after.map((event) => event.body.data.rows.map((row) => row.name)),
    [['C2']],
  );
});

test('a client cut off reconnects with Last-Event-ID and misses nothing committed meanwhile, nor gets anything twice', async (t) => {
  const { app, rows, events } = await sheetWith(t);
  const stream = listen(t, events);
  await stream.opened;
  assert.equal((await call(rows, { method: 'POST', body: { name: 'before' } })).status, 201);
  await stream.until(1);
  // Every connection of the server is cut; the EventSource connects again by itself.
  app.server.closeAllConnections();
  // This client's own pooled connections were cut too: let it notice before it writes.
  await new Promise((resolve) => setTimeout(resolve, 100));
  for (const name of ['during 1', 'during 2']) {
    assert.equal((await call(rows, { method: 'POST', body: { name } })).status, 201);
  }
  // A last write marks the end: the stream sends events in order, so a duplicate of any earlier
  // one, replayed on reconnecting, would arrive before the marker does.
  assert.equal((await call(rows, { method: 'POST', body: { name: 'marker' } })).status, 201);
  const received = await stream.until(4);
  assert.deepEqual(
    received.map((event) => event.body.data.rows[0]?.name),
    ['before', 'during 1', 'during 2', 'marker'],
  );
});

test('on a private sheet the stream needs a key with the read scope', async (t) => {
  const adminToken = 'events-administrator-token-0123';
  const { url, id, events } = await sheetWithToken(t, adminToken);
  const refused = await call(events);
  assert.equal(refused.status, 401);
  const key = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}` },
    body: { name: 'reader', scopes: ['read'] },
  });
  assert.equal(key.status, 201, key.text);
  const stream = listen(t, events, { 'x-api-key': (key.body as { key: string }).key });
  await stream.opened;
});

async function sheetWithToken(t: TestContext, adminToken: string) {
  const built = await build(t, { adminToken });
  const headers = { authorization: `Bearer ${adminToken}` };
  const created = await call(`${built.url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: { name: 'private feed', columns: ['name'] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const patched = await call(`${built.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    headers,
    body: { access: 'private' },
  });
  assert.equal(patched.status, 200, patched.text);
  return { ...built, id, events: `${built.url}/api/v1/${id}/events` };
}

test('an idle stream sends a comment heartbeat', async (t) => {
  const { events } = await sheetWith(t, { events: { heartbeatMs: 50 } });
  const controller = new AbortController();
  t.after(() => controller.abort());
  const response = await fetch(events, { signal: controller.signal });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (!text.includes(': heartbeat\n\n')) {
    const { value, done } = await reader.read();
    assert.ok(!done, `the stream ended: ${text}`);
    text += new TextDecoder().decode(value);
  }
  controller.abort();
});

test('an edit made in the Google spreadsheet, found by a refresh, reaches the stream with source "provider"', async (t) => {
  const google = await setup(t);
  const id = await connect(google, { freshnessSeconds: 0 });
  const stream = listen(t, `${google.url}/api/v1/${id}/events`);
  await stream.opened;
  google.emulator.editCell(google.spreadsheetId, 'People', 'B3', 28);
  assert.equal((await call(`${google.url}/api/v1/${id}`)).status, 200);
  const [event] = await stream.until(1);
  assert.equal(event?.type, 'rows.updated');
  assert.equal(event?.body.data.source, 'provider');
  assert.deepEqual(
    event?.body.data.rows.map((row) => [row.name, row.age]),
    [['Bob', 28]],
  );
});

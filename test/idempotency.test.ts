/**
 * Idempotency-Key on row writes: a retry with the same key and request answers what the first
 * answered and applies nothing again, on every kind of write and failure in between. Every check
 * of the data reads the store (the test build has the read cache off).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, mock, test, type TestContext } from 'node:test';
import { createApp } from '../src/app.ts';
import { Problem } from '../src/errors/problem.ts';
import { requestFingerprint } from '../src/routes/idempotency-key.ts';
import { storeUnavailable } from '../src/store/dialect.ts';
import type { HeldKey, SheetStore } from '../src/store/store.ts';
import { guardAnswers } from './helpers/answer-guard.ts';
import { build, call } from './helpers/build.ts';
import { bothSides, connect, setup } from './helpers/google.ts';
import { openTestStore } from './helpers/stores.ts';

type Row = Record<string, unknown>;
type Reply = Awaited<ReturnType<typeof call>>;

async function sheetAt(url: string, rows: Row[] = [{ name: 'a' }, { name: 'b' }]) {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'orders', columns: ['name'], rows },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  return { id, rows: `${url}/api/v1/${id}` };
}

const names = async (rows: string) => ((await call(rows)).body as Row[]).map((row) => row.name);
const keyed = (key: string, headers: Record<string, string> = {}) => ({
  'idempotency-key': `"${key}"`,
  ...headers,
});
const code = (reply: Reply) => (reply.body as { code?: string }).code;

/** The sheet's version as a fresh read sees it. */
const versionOf = async (rows: string) => (await call(rows)).headers.get('etag');

/** A server whose store's next write can be made to fail, before or after it commits. */
async function faultyServer(t: TestContext, leaseMs = 300, { renews = true } = {}) {
  const opened = await openTestStore();
  type WriteRows = SheetStore['writeRows'];
  type Fault = (
    commit: () => ReturnType<WriteRows>,
    writes: Parameters<WriteRows>[1],
  ) => ReturnType<WriteRows>;
  let fault: Fault | null = null;
  const claimed: HeldKey[] = [];
  const onClaim: (() => void)[] = [];
  const store = new Proxy(opened.store, {
    get(target, name) {
      if (name === 'writeRows') {
        return (...args: Parameters<WriteRows>) => {
          const next = fault;
          fault = null;
          const commit = () => target.writeRows(...args);
          return next === null ? commit() : next(commit, args[1]);
        };
      }
      if (name === 'claimIdempotencyKey') {
        return async (...args: Parameters<SheetStore['claimIdempotencyKey']>) => {
          const claim = await target.claimIdempotencyKey(...args);
          if (claim.kind === 'claimed') claimed.push(claim.held);
          for (const listener of onClaim.splice(0)) listener();
          return claim;
        };
      }
      // A server cut off from the store: its renewals never arrive.
      if (name === 'renewIdempotencyKey' && !renews) return async () => false;
      const value = Reflect.get(target, name, target) as unknown;
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const app = await createApp(
    { store },
    { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0, idempotency: { leaseMs } },
  );
  guardAnswers(t, app);
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  t.after(async () => {
    await app.close();
    await opened.dispose();
  });
  return {
    url,
    store: opened.store,
    failNext: (next: Fault) => {
      fault = next;
    },
    /** Resolves once keys have been claimed `count` times in all. */
    claims: async (count: number) => {
      while (claimed.length < count) await new Promise<void>((resolve) => onClaim.push(resolve));
    },
  };
}

/** Sends the request until it is no longer refused as in use (the lease has run out). */
async function untilSettled(send: () => Promise<Reply>): Promise<Reply> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const reply = await send();
    if (reply.status !== 409 || Date.now() > deadline) return reply;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('Idempotency-Key', () => {
  test('a POST sent again with its key answers the same 201, ETag and body, marked replayed, and appends once', async (t) => {
    const { url } = await build(t);
    const { rows } = await sheetAt(url);
    const key = randomUUID();
    const first = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.headers.get('idempotent-replayed'), null);
    const again = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers.get('etag'), first.headers.get('etag'));
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('the bare token, the other path of the sheet and reordered JSON members are the same request', async (t) => {
    const { url } = await build(t);
    const { id, rows } = await sheetAt(url, []);
    const key = randomUUID();
    const first = await call(rows, {
      method: 'POST',
      headers: { 'idempotency-key': `"${key}"` },
      body: '[{"name":"c"}]',
    });
    assert.equal(first.status, 201, first.text);
    const again = await call(`${url}/api/v1/sheets/${id}`, {
      method: 'POST',
      headers: { 'idempotency-key': key },
      body: ' [ { "name" : "c" } ] ',
    });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await names(rows), ['c']);
  });

  for (const write of [
    { method: 'PATCH', query: '?_id=0', body: { name: 'x' } },
    { method: 'PUT', query: '?_id=1', body: { name: 'y' } },
    { method: 'DELETE', query: '?_id=0', body: undefined },
  ]) {
    test(`a ${write.method} sent again with its key changes nothing more: the version stays`, async (t) => {
      const { url } = await build(t);
      const { rows } = await sheetAt(url, [{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
      const key = randomUUID();
      const send = () =>
        call(`${rows}${write.query}`, {
          method: write.method,
          headers: keyed(key),
          body: write.body,
        });
      const first = await send();
      assert.equal(first.status, 200, first.text);
      const after = { names: await names(rows), version: await versionOf(rows) };
      const again = await send();
      assert.equal(again.status, 200, again.text);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(again.body, first.body);
      assert.deepEqual({ names: await names(rows), version: await versionOf(rows) }, after);
    });
  }

  test('a 4xx answer is kept too: a DELETE of a row past the end answers 404 again once the row exists', async (t) => {
    const { url } = await build(t);
    const { rows } = await sheetAt(url);
    const key = randomUUID();
    const send = () => call(`${rows}?_id=2`, { method: 'DELETE', headers: keyed(key) });
    const first = await send();
    assert.equal(first.status, 404, first.text);
    await call(rows, { method: 'POST', body: { name: 'c' } });
    const again = await send();
    assert.equal(again.status, 404, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.equal(code(again), 'row-not-found');
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('a query that cannot be run is refused before its key is claimed: the key stays free', async (t) => {
    // As Stripe's keys do: a request refused before it ran named no write to remember.
    const { url } = await build(t);
    const { rows } = await sheetAt(url);
    const key = randomUUID();
    const refused = await call(`${rows}?_id=first`, {
      method: 'PATCH',
      headers: keyed(key),
      body: { name: 'z' },
    });
    assert.equal(refused.status, 400, refused.text);
    const meant = await call(`${rows}?_id=0`, {
      method: 'PATCH',
      headers: keyed(key),
      body: { name: 'z' },
    });
    assert.equal(meant.status, 200, meant.text);
    assert.equal(meant.headers.get('idempotent-replayed'), null);
    assert.deepEqual(await names(rows), ['z', 'b']);
  });

  test('the same key with another body answers 422 idempotency-key-mismatch and changes nothing', async (t) => {
    const { url } = await build(t);
    const { rows } = await sheetAt(url);
    const key = randomUUID();
    await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    const version = await versionOf(rows);
    const other = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'd' } });
    assert.equal(other.status, 422, other.text);
    assert.equal(code(other), 'idempotency-key-mismatch');
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
    assert.equal(await versionOf(rows), version);
  });

  test('a key is the sheet’s: the same key on another sheet is another request', async (t) => {
    const { url } = await build(t);
    const one = await sheetAt(url);
    const two = await sheetAt(url);
    const key = randomUUID();
    for (const { rows } of [one, two]) {
      const reply = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
      assert.equal(reply.status, 201, reply.text);
      assert.equal(reply.headers.get('idempotent-replayed'), null);
    }
    assert.deepEqual(await names(two.rows), ['a', 'b', 'c']);
  });

  for (const [value, why] of [
    ['"unterminated', 'an open quote'],
    ['"a"; b', 'text after the string'],
    ['two words', 'a space in a bare key'],
    ['""', 'an empty string'],
    [`"${'k'.repeat(256)}"`, 'too long'],
    ['"a\\nb"', 'an escape of n'],
  ] as const) {
    test(`an Idempotency-Key with ${why} answers 400 invalid-idempotency-key and applies nothing`, async (t) => {
      const { url } = await build(t);
      const { rows } = await sheetAt(url);
      const reply = await call(rows, {
        method: 'POST',
        headers: { 'idempotency-key': value },
        body: { name: 'c' },
      });
      assert.equal(reply.status, 400, reply.text);
      assert.equal(code(reply), 'invalid-idempotency-key');
      assert.deepEqual(await names(rows), ['a', 'b']);
    });
  }

  test('while another request holds the key, the retry answers 409 idempotency-key-in-use and applies nothing', async (t) => {
    const { url, store } = await build(t);
    const { id, rows } = await sheetAt(url);
    const key = randomUUID();
    const fingerprint = requestFingerprint({
      method: 'POST',
      sheetId: id,
      query: '',
      body: { name: 'c' },
    });
    const held = await store.claimIdempotencyKey(
      { sheetId: id, scope: 'admin', key },
      fingerprint,
      60_000,
    );
    assert.equal(held.kind, 'claimed');
    const reply = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal(reply.status, 409, reply.text);
    assert.equal(code(reply), 'idempotency-key-in-use');
    assert.deepEqual(await names(rows), ['a', 'b']);
  });

  test('a key held by a server that died is free once its lease has passed: the retry applies, once', async (t) => {
    const { url, store } = await build(t);
    const { id, rows } = await sheetAt(url);
    const key = randomUUID();
    const fingerprint = requestFingerprint({
      method: 'POST',
      sheetId: id,
      query: '',
      body: { name: 'c' },
    });
    // As a server leaves a key that crashed before its write: running, its lease over.
    await store.claimIdempotencyKey({ sheetId: id, scope: 'admin', key }, fingerprint, -1);
    const reply = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal(reply.status, 201, reply.text);
    const again = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('while the first request with a key is being written, the others with it answer 409 and apply nothing', async (t) => {
    const server = await faultyServer(t);
    const { rows } = await sheetAt(server.url, []);
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'once' } });
    let entered = () => {};
    const writing = new Promise<void>((resolve) => (entered = resolve));
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.failNext(async (commit) => {
      entered();
      await gate;
      return commit();
    });
    const first = send();
    await writing;
    // The others are answered while the first is held; if they waited for it instead, the gate
    // opens after a while so that the test ends, and fails.
    const fallback = setTimeout(release, 5000);
    const others = await Promise.all(Array.from({ length: 7 }, send)).finally(release);
    clearTimeout(fallback);
    assert.equal((await first).status, 201);
    for (const reply of others) {
      assert.equal(reply.status, 409, reply.text);
      assert.equal(code(reply), 'idempotency-key-in-use');
    }
    assert.deepEqual(await names(rows), ['once']);
    const after = await send();
    assert.equal(after.headers.get('idempotent-replayed'), 'true');
  });

  test('a write that runs past its lease keeps its key: its server renews the lease meanwhile', async (t) => {
    // Long enough that a loaded machine still renews in time; the retries span three leases.
    const leaseMs = 1500;
    const server = await faultyServer(t, leaseMs);
    const { rows } = await sheetAt(server.url, []);
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'once' } });
    let entered = () => {};
    const writing = new Promise<void>((resolve) => (entered = resolve));
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.failNext(async (commit) => {
      entered();
      await gate;
      return commit();
    });
    const first = send();
    await writing;
    // A retry that took the key over would wait behind the held write: the gate opens after a
    // while so that the test ends, and fails.
    const fallback = setTimeout(release, 10 * leaseMs);
    const until = Date.now() + 3 * leaseMs;
    const retries: Reply[] = [];
    while (Date.now() < until) retries.push(await send());
    release();
    clearTimeout(fallback);
    assert.equal((await first).status, 201);
    for (const reply of retries) assert.equal(code(reply), 'idempotency-key-in-use', reply.text);
    assert.deepEqual(await names(rows), ['once']);
  });

  test('a write whose lease ran out while it waited applies nothing once a retry took its key over', async (t) => {
    const server = await faultyServer(t, 100, { renews: false });
    const { rows } = await sheetAt(server.url, []);
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'once' } });
    let entered = () => {};
    const writing = new Promise<void>((resolve) => (entered = resolve));
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    server.failNext(async (commit) => {
      entered();
      await gate;
      return commit();
    });
    const first = send();
    await writing;
    // The retry takes the key over once the lease has passed; its write queues behind the first.
    const retry = untilSettled(send);
    await server.claims(2);
    release();
    const late = await first;
    assert.equal(late.status, 409, late.text);
    assert.equal(code(late), 'idempotency-key-in-use');
    assert.equal((await retry).status, 201);
    assert.deepEqual(await names(rows), ['once']);
  });

  for (const [status, problem] of [
    [503, storeUnavailable()],
    [429, new Problem('provider-rate-limited', 'Slow down.', {}, { 'retry-after': '1' })],
  ] as const) {
    test(`a ${status} answer keeps nothing: the retry with the same key applies`, async (t) => {
      const server = await faultyServer(t);
      const { rows } = await sheetAt(server.url);
      const key = randomUUID();
      server.failNext(() => Promise.reject(problem));
      const refused = await call(rows, {
        method: 'POST',
        headers: keyed(key),
        body: { name: 'c' },
      });
      assert.equal(refused.status, status, refused.text);
      const retry = await call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
      assert.equal(retry.status, 201, retry.text);
      assert.equal(retry.headers.get('idempotent-replayed'), null);
      assert.deepEqual(await names(rows), ['a', 'b', 'c']);
    });
  }

  test('a write that committed but lost its answer (504) is answered from its outcome, kept with it: it applies once', async (t) => {
    const server = await faultyServer(t);
    const { rows } = await sheetAt(server.url);
    const key = randomUUID();
    server.failNext(async (commit) => {
      await commit();
      throw new Problem('store-outcome-unknown', 'The database went away during the commit.');
    });
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    const lost = await send();
    assert.equal(lost.status, 504, lost.text);
    const retry = await send();
    assert.equal(retry.status, 201, retry.text);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(retry.body, { created: 1, keys: ['2'] });
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('a write whose commit never landed (504) answers 409 until its lease passes, then the retry applies it', async (t) => {
    const server = await faultyServer(t);
    const { rows } = await sheetAt(server.url);
    const key = randomUUID();
    server.failNext(async () => {
      // The key rode on the write's transaction, which did not commit.
      throw new Problem('store-outcome-unknown', 'The database went away.');
    });
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal((await send()).status, 504);
    const held = await send();
    assert.equal(held.status, 409, held.text);
    assert.equal(code(held), 'idempotency-key-in-use');
    const settled = await untilSettled(send);
    assert.equal(settled.status, 201, settled.text);
    assert.equal(settled.headers.get('idempotent-replayed'), null);
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('an outcome a write path could not learn (504, not kept with the write) holds the key at 409', async (t) => {
    const server = await faultyServer(t, 50);
    const { rows } = await sheetAt(server.url);
    const key = randomUUID();
    server.failNext(() =>
      Promise.reject(new Problem('upstream-outcome-unknown', 'The provider did not answer.')),
    );
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'c' } });
    assert.equal((await send()).status, 504);
    // Well past its lease: only settling the outcome may free it.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const held = await send();
    assert.equal(held.status, 409, held.text);
    assert.deepEqual(await names(rows), ['a', 'b']);
  });
});

test('on a Google sheet, a write sent again with its key is answered from the first and lands in the spreadsheet once', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  const key = randomUUID();
  const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'Zed' } });
  const first = await send();
  assert.equal(first.status, 201, first.text);
  const again = await send();
  assert.equal(again.status, 201, again.text);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.equal(again.headers.get('etag'), first.headers.get('etag'));
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.equal((sheet as Row[]).filter((row) => row.name === 'Zed').length, 1);
});

describe('keys of a Google sheet are recorded with the push’s mark', () => {
  type Step = keyof SheetStore;
  /** A store whose named steps fail while they are listed: the store down meanwhile. */
  function downFor(down: Set<Step>): (store: SheetStore) => SheetStore {
    return (store) =>
      new Proxy(store, {
        get(target, name: Step) {
          const value = target[name];
          if (typeof value !== 'function') return value;
          if (down.has(name)) return () => Promise.reject(storeUnavailable());
          return (value as (...args: unknown[]) => unknown).bind(target);
        },
      });
  }
  const zeds = (rows: unknown) => (rows as Row[]).filter((row) => row.name === 'Zed').length;
  const leaseMs = 200;

  test('the store down once Google applied: the retry is answered from the push, past any lease, and the row is there once', async (t) => {
    const down = new Set<Step>();
    const google = await setup(t, {
      wrapStore: downFor(down),
      app: { cacheSize: 0, idempotency: { leaseMs } },
    });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const rows = `${google.url}/api/v1/${id}`;
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'Zed' } });
    down.add('applyPlanned').add('settleIdempotencyKey');
    const first = await send();
    assert.equal(first.status, 201, first.text);
    down.clear();
    // Well past the lease of the server that answered: only the push may settle the key.
    await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));
    const early = await send();
    assert.equal(early.status, 409, early.text);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet);
    const again = await send();
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    // The key was chosen before the push, and the re-read gave the row that landed that key.
    assert.deepEqual(again.body, first.body);
    const [zed] = (first.body as { keys: string[] }).keys;
    assert.equal(((await call(`${rows}/rows/${zed}`)).body as Row).name, 'Zed');
    assert.equal(zeds((await bothSides(google, id)).sheet), 1);
  });

  test('after a 504 upstream-outcome-unknown the key answers 409 until a read settles the push, then the first answer', async (t) => {
    const google = await setup(t, { settings: { deadlineMs: 2500 }, app: { cacheSize: 0 } });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const rows = `${google.url}/api/v1/${id}`;
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'Zed' } });
    google.emulator.failNext(1, { mode: 'late', only: 'writes' });
    google.emulator.afterNext('write', () =>
      google.emulator.failNext(1000, { status: 429, only: 'writes' }),
    );
    const first = await send();
    assert.equal(first.status, 504, first.text);
    assert.equal(code(first), 'upstream-outcome-unknown');
    const held = await send();
    assert.equal(held.status, 409, held.text);
    google.emulator.failNext(0, { status: 429 });
    assert.equal(google.emulator.applyHeld(), 1);
    // A read closes the push and learns from its tag that it landed.
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet);
    const again = await send();
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    // Its key was chosen before the push: the answer kept names it, and the read that settled
    // the push gave the row that landed that key.
    const { keys } = again.body as { created: number; keys: string[] };
    assert.deepEqual(again.body, { created: 1, keys });
    assert.equal(((await call(`${rows}/rows/${keys[0]}`)).body as Row).name, 'Zed');
    assert.equal(zeds((await bothSides(google, id)).sheet), 1);
  });

  test('a 429 until the deadline changed nothing: the retry with the key applies, once', async (t) => {
    const google = await setup(t, { settings: { deadlineMs: 1000 }, app: { cacheSize: 0 } });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const rows = `${google.url}/api/v1/${id}`;
    const key = randomUUID();
    const send = () => call(rows, { method: 'POST', headers: keyed(key), body: { name: 'Zed' } });
    google.emulator.failNext(1000, { status: 429, only: 'writes' });
    const first = await send();
    assert.ok([429, 503].includes(first.status), first.text);
    google.emulator.failNext(0, { status: 429 });
    const again = await send();
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.equal(zeds((await bothSides(google, id)).sheet), 1);
  });

  test('the events of an API write to a Google sheet name its actor', async (t) => {
    const google = await setup(t);
    const id = await connect(google);
    const answer = await call(`${google.url}/api/v1/${id}`, {
      method: 'POST',
      body: { name: 'Zed' },
    });
    assert.equal(answer.status, 201, answer.text);
    const events = await google.store.eventsAfter(id, null, 10);
    const created = events.filter((event) => event.type === 'rows.created');
    const actors = created.map(
      (event) => (JSON.parse(event.body) as { data: { actor?: unknown } }).data.actor,
    );
    assert.deepEqual(actors, [{ type: 'admin' }]);
  });
});

test('the OpenAPI document gives every write the Idempotency-Key header and its 409 and 422 problems', async (t) => {
  const { url } = await build(t);
  type Operation = {
    parameters?: { name: string; in: string }[];
    responses: Record<string, { content?: Record<string, { schema?: { $ref?: string } }> }>;
  };
  const { paths } = (await call(`${url}/openapi.json`)).body as {
    paths: Record<string, Record<string, Operation>>;
  };
  // The /api/v1/sheets/{sheetId} aliases answer alike and are left out of the document.
  for (const path of ['/api/v1/{sheetId}']) {
    for (const method of ['post', 'put', 'patch', 'delete']) {
      const operation = paths[path]?.[method];
      const headers = (operation?.parameters ?? []).filter((p) => p.in === 'header');
      assert.deepEqual(
        headers.map((p) => p.name),
        ['idempotency-key'],
        `${method} ${path}`,
      );
      for (const status of ['409', '422']) {
        const content = operation?.responses[status]?.content?.['application/problem+json'];
        assert.ok(content?.schema?.$ref?.endsWith('Problem'), `${method} ${path} ${status}`);
      }
    }
    const read = paths[path]?.get;
    assert.ok(!(read?.parameters ?? []).some((p) => p.in === 'header'), 'reads take no key');
  }
});

test('a browser page may send the header, and read whether an answer was replayed', async (t) => {
  const { url } = await build(t);
  const { rows } = await sheetAt(url);
  const preflight = await call(rows, {
    method: 'OPTIONS',
    headers: {
      origin: 'https://app.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type, idempotency-key',
    },
  });
  assert.match(preflight.headers.get('access-control-allow-headers') ?? '', /idempotency-key/);
  const answer = await call(rows, {
    method: 'POST',
    headers: keyed(randomUUID(), { origin: 'https://app.example' }),
    body: { name: 'c' },
  });
  assert.match(answer.headers.get('access-control-expose-headers') ?? '', /idempotent-replayed/);
});

describe('change events name their actor', () => {
  const adminToken = 'idempotency-admin-token-0123456789';

  test('a key by its id (never its secret), the administrator, anyone on an open sheet, a provider', async (t) => {
    const { url, store } = await build(t, { adminToken });
    const admin = { authorization: `Bearer ${adminToken}` };
    const made = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      headers: admin,
      body: { name: 'log', columns: ['name'] },
    });
    const id = (made.body as { id: string }).id;
    const rows = `${url}/api/v1/${id}`;
    const created = await call(`${url}/admin/v1/sheets/${id}/keys`, {
      method: 'POST',
      headers: admin,
      body: { scopes: ['create'] },
    });
    const { id: keyId, key: secret } = created.body as { id: string; key: string };
    const post = (headers: Record<string, string>) =>
      call(rows, { method: 'POST', headers, body: { name: 'x' } });
    assert.equal((await post({ 'x-api-key': secret })).status, 201);
    assert.equal((await post(admin)).status, 201);
    await call(`${url}/admin/v1/sheets/${id}`, {
      method: 'PATCH',
      headers: admin,
      body: { access: 'open' },
    });
    assert.equal((await post({})).status, 201);
    await store.replaceRows(id, ['name'], [['x'], ['x'], ['x'], ['y']]);
    const events = await store.eventsAfter(id, null, 10);
    const actors = events.map(
      (event) => (JSON.parse(event.body) as { data: { actor: unknown } }).data.actor,
    );
    assert.deepEqual(actors, [
      { type: 'key', id: keyId },
      { type: 'admin' },
      { type: 'anonymous' },
      { type: 'provider' },
    ]);
    assert.ok(!events.some((event) => event.body.includes(secret)), 'no event holds the secret');
  });
});

describe('keys of a provider push', () => {
  async function pushedKey(t: TestContext) {
    const { url, store } = await build(t);
    const { id } = await sheetAt(url);
    const claimKey = (key: string) =>
      store.claimIdempotencyKey({ sheetId: id, scope: 'admin', key }, 'f', -1);
    const claim = await claimKey('k');
    assert.equal(claim.kind, 'claimed');
    const held = claim.kind === 'claimed' ? claim.held : assert.fail();
    const outcome = { kind: 'result', outcome: { created: 1 } } as const;
    assert.equal(
      await store.pushIdempotencyKeys(id, 'push-1', 'plan-a', [{ held, outcome }]),
      true,
    );
    return { store, id, held, claimKey };
  }

  test('a key tied to a push stays in use past its lease, until the push settles', async (t) => {
    const { claimKey } = await pushedKey(t);
    assert.deepEqual(await claimKey('k'), { kind: 'in-use' });
  });

  test('a push that landed records its keys’ outcomes, answered to their retries', async (t) => {
    const { store, id, held, claimKey } = await pushedKey(t);
    const outcome = { kind: 'result', outcome: { created: 1 }, version: 7 } as const;
    await store.settlePushedKeys(id, 'push-1', { plan: 'plan-a', answers: [{ held, outcome }] });
    assert.deepEqual(await claimKey('k'), { kind: 'replay', outcome });
  });

  test('a push settled later answers its keys with what the plan that landed planned', async (t) => {
    const { store, id, held, claimKey } = await pushedKey(t);
    const planB = { kind: 'result', outcome: { created: 0 } } as const;
    assert.ok(await store.pushIdempotencyKeys(id, 'push-1', 'plan-b', [{ held, outcome: planB }]));
    await store.settlePushedKeys(id, 'push-1', { plan: 'plan-b' });
    assert.deepEqual(await claimKey('k'), { kind: 'replay', outcome: planB });
  });

  test('a key another request took over is not tied to a push', async (t) => {
    const { store, id, held } = await pushedKey(t);
    await store.settlePushedKeys(id, 'push-1', { plan: null });
    const outcome = { kind: 'result', outcome: { created: 1 } } as const;
    assert.equal(await store.pushIdempotencyKeys(id, 'push-2', 'p', [{ held, outcome }]), false);
  });

  test('a push that did not land frees its keys, and the route’s own settling leaves them alone', async (t) => {
    const { store, id, held, claimKey } = await pushedKey(t);
    // Only the push may settle it: an answer stored by the route meanwhile is not kept.
    await store.settleIdempotencyKey(held, { kind: 'result', outcome: { created: 1 } });
    assert.deepEqual(await claimKey('k'), { kind: 'in-use' });
    await store.settlePushedKeys(id, 'push-1', { plan: null });
    assert.equal((await claimKey('k')).kind, 'claimed');
  });
});

test('keys are kept a day: pruned after it, and a key past it names a new request', async (t) => {
  const { url, store } = await build(t);
  const { id } = await sheetAt(url);
  const claim = (fingerprint: string) =>
    store.claimIdempotencyKey({ sheetId: id, scope: 'admin', key: 'k' }, fingerprint, 30_000);
  const first = await claim('f');
  assert.equal(first.kind, 'claimed');
  if (first.kind === 'claimed') {
    await store.settleIdempotencyKey(first.held, { kind: 'result', outcome: { created: 1 } });
  }
  assert.equal(await store.pruneIdempotencyKeys(), 0, 'a key within its day is kept');
  assert.equal((await claim('g')).kind, 'mismatch');
  mock.timers.enable({ apis: ['Date'], now: Date.now() + 24 * 3_600_000 + 1000 });
  t.after(() => mock.timers.reset());
  assert.equal((await claim('g')).kind, 'claimed', 'past its day, a key is new');
  mock.timers.setTime(Date.now() + 24 * 3_600_000 + 1000);
  assert.equal(await store.pruneIdempotencyKeys(), 1);
  assert.equal((await claim('h')).kind, 'claimed');
});

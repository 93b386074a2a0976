/**
 * Fencing: a push is applied to the copy only by the server that still holds the sheet. The mark
 * set before a push is checked when it is applied; a server whose PostgreSQL lock connection
 * died learns it before applying, and leaves the sheet marked for a re-read instead.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp } from '../src/app.ts';
import { registryOf } from '../src/providers/providers.ts';
import { LockLost } from '../src/store/dialect.ts';
import type { SheetStore } from '../src/store/store.ts';
import { call } from './helpers/build.ts';
import { bothSides, connect, setup } from './helpers/google.ts';
import { backend, endLockConnections, openTestStore } from './helpers/stores.ts';

const source = { provider: 'google' as const, spreadsheetId: 'x'.repeat(44), tab: 'T', tabId: 0 };
const append = (name: string) => ({
  outcome: { created: 1 },
  effects: [{ kind: 'append' as const, rows: [[name]] }],
});

async function sheetOf(store: SheetStore): Promise<{ id: string; version: number }> {
  const sheet = await store.createSheet(
    { id: 'g', name: 'g', columns: ['name'], source, settings: { deleteEnabled: true } },
    [[['Ann']]],
  );
  return { id: sheet.id, version: sheet.version };
}

async function names(store: SheetStore, id: string): Promise<unknown[]> {
  return (await store.loadRows(id)).rows.map((row) => row[0]);
}

test(`${backend}: a push is marked only on the sheet as it was planned on`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const { id, version } = await sheetOf(store);
  const mark = { pushId: '7', expect: { version, pushing: null } };
  assert.equal(
    await store.markPushing(id, { ...mark, expect: { version: version - 1, pushing: null } }),
    false,
  );
  assert.equal(await store.markPushing(id, mark), true);
  // A second server that planned on the same sheet meanwhile finds it marked: it stops.
  assert.equal(await store.markPushing(id, { ...mark, pushId: '8' }), false);
  assert.equal(await store.pushingMarker(id), '7');
});

test(`${backend}: a push is applied only while the sheet carries its mark`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const { id, version } = await sheetOf(store);
  assert.ok(await store.markPushing(id, { pushId: '7', expect: { version, pushing: null } }));
  // Another server took the sheet and re-read it (the spreadsheet has Zed): the mark is gone.
  await store.replaceRows(id, ['name'], [['Ann'], ['Zed']]);
  assert.equal(await store.applyPlanned(id, '7', [append('Zed')], 'api'), null);
  assert.deepEqual(await names(store, id), ['Ann', 'Zed']);
  // And marked its own push: the first server's apply still changes nothing; its own applies.
  const current = (await store.getSheet(id))?.version ?? 0;
  assert.ok(
    await store.markPushing(id, { pushId: '9', expect: { version: current, pushing: null } }),
  );
  assert.equal(await store.applyPlanned(id, '7', [append('Zed')], 'api'), null);
  const applied = await store.applyPlanned(id, '9', [append('Max')], 'api');
  assert.deepEqual(
    applied?.map((result) => result.outcome),
    [{ created: 1 }],
  );
  assert.deepEqual(await names(store, id), ['Ann', 'Zed', 'Max']);
  assert.equal(await store.pushingMarker(id), null);
});

test(
  `${backend}: a lock whose connection died is known lost, and another server can take the sheet`,
  { skip: backend !== 'postgres' },
  async (t) => {
    const { store, env, dispose } = await openTestStore();
    t.after(dispose);
    const url = env.SHEETPORT_DATABASE_URL ?? '';
    await store.database.withSheetLock('s', async (lock) => {
      await lock.verify();
      assert.equal(await endLockConnections(url), 1);
      await assert.rejects(lock.verify(), LockLost);
      assert.ok(lock.signal.aborted);
    });
    assert.equal(await store.database.withSheetLock('s', async () => 'taken'), 'taken');
  },
);

test(
  `${backend}: a server that lost its lock mid-push does not apply it; the server that took the sheet reads it once`,
  { skip: backend !== 'postgres' },
  async (t) => {
    const google = await setup(t, { app: { cacheSize: 0 } });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const other = await createApp(
      { store: google.store, providers: registryOf({ google: google.newProvider() }) },
      { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
    );
    const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    t.after(() => other.close());
    // Once Google applied the first server's push, its answer is slow; meanwhile that server's
    // lock connection dies and the other server takes the sheet.
    let applied!: () => void;
    const pushed = new Promise<void>((resolve) => (applied = resolve));
    google.emulator.afterNext('write', () => {
      google.emulator.latencyMs = 1500;
      setImmediate(() => (google.emulator.latencyMs = 0));
      applied();
    });
    const answer = call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zed' } });
    await pushed;
    assert.equal(await endLockConnections(google.env.SHEETPORT_DATABASE_URL ?? ''), 1);
    const read = await call(`${otherUrl}/api/v1/${id}?name=Zed`);
    assert.equal((read.body as unknown[]).length, 1, read.text);
    const done = await answer;
    assert.equal(done.status, 201, done.text);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet, 'the copy Sheetport serves differs from the spreadsheet');
    assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1);
  },
);

test(
  `${backend}: a server that loses its lock while retrying starts no further attempt`,
  { skip: backend !== 'postgres' },
  async (t) => {
    const google = await setup(t, { app: { cacheSize: 0 }, settings: { deadlineMs: 8000 } });
    const id = await connect(google);
    const before = (await bothSides(google, id)).sheet;
    google.emulator.resetStats();
    // Google refuses every attempt (429); after the first, the server's lock connection dies.
    google.emulator.failNext(1000, { status: 429, only: 'writes' });
    let refused!: () => void;
    const first = new Promise<void>((resolve) => (refused = resolve));
    google.emulator.afterNext('write', () => refused());
    const answer = call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zed' } });
    await first;
    assert.equal(await endLockConnections(google.env.SHEETPORT_DATABASE_URL ?? ''), 1);
    const done = await answer;
    assert.equal(done.status, 429, done.text);
    google.emulator.failNext(0, { status: 429 });
    const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
    // Without the stop, retries 20 to 200 ms apart would go on for the whole 8 s.
    assert.ok(writes.length <= 5, `${writes.length} attempts`);
    assert.deepEqual((await bothSides(google, id)).sheet, before);
  },
);

test(`${backend}: a push's store writes made under an older lock epoch change nothing`, async (t) => {
  const { store, dispose } = await openTestStore();
  t.after(dispose);
  const { id, version } = await sheetOf(store);
  // This server took the lock, then another took it after it (the epoch moved on).
  const stale = await store.database.withSheetLock(id, async (lock) => lock.epoch);
  const current = await store.database.withSheetLock(id, async (lock) => lock.epoch);
  assert.ok(current > stale, `epoch ${current} after ${stale}`);
  const expect = { version, pushing: null };
  assert.equal(await store.markPushing(id, { pushId: '7', expect, epoch: stale }), false);
  assert.ok(await store.markPushing(id, { pushId: '9', expect, epoch: current }));
  // The stale server's re-read, apply and clear leave the other server's push and copy alone.
  await assert.rejects(
    store.replaceRows(id, ['name'], [['Old']], null, undefined, { epoch: stale, pushing: '9' }),
    LockLost,
  );
  assert.equal(await store.applyPlanned(id, '9', [append('Zed')], 'api', null, null, stale), null);
  await store.clearPushing(id, '9', undefined, stale);
  assert.equal(await store.pushingMarker(id), '9');
  assert.deepEqual(await names(store, id), ['Ann']);
  // The server that holds the lock applies its own.
  const applied = await store.applyPlanned(id, '9', [append('Max')], 'api', null, null, current);
  assert.deepEqual(
    applied?.map((result) => result.outcome),
    [{ created: 1 }],
  );
  assert.deepEqual(await names(store, id), ['Ann', 'Max']);
  assert.equal(await store.pushingMarker(id), null);
});

test(
  `${backend}: a server whose lock died while Google held its attempt writes nothing over the push of the server that took the sheet`,
  { skip: backend !== 'postgres' },
  async (t) => {
    // This server gives up on an attempt after 2 s; the other waits for its own for 6 s.
    const google = await setup(t, { app: { cacheSize: 0 }, settings: { deadlineMs: 6000 } });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const other = await createApp(
      {
        store: google.store,
        providers: registryOf({ google: google.newProvider({ deadlineMs: 20_000 }) }),
      },
      { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
    );
    const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    t.after(() => other.close());
    // A person edits the tab: the first server plans its write on the tab as read, not the copy.
    google.emulator.editCell(google.spreadsheetId, 'People', 'B4', 46);
    google.emulator.failNext(1, { mode: 'late', only: 'writes' });
    const first = call(`${google.url}/api/v1/${id}?name=Bob`, {
      method: 'PATCH',
      body: { age: 99 },
    });
    await until(() => google.emulator.heldCount === 1);
    assert.equal(await endLockConnections(google.env.SHEETPORT_DATABASE_URL ?? ''), 1);
    // The other server settles the first push (its tag, void) and then holds its own out.
    google.emulator.afterNext('write', () =>
      google.emulator.failNext(1, { mode: 'late', only: 'writes' }),
    );
    const key = { 'idempotency-key': '"max-1"' };
    const send = () =>
      call(`${otherUrl}/api/v1/${id}`, { method: 'POST', headers: key, body: { name: 'Max' } });
    const second = send();
    await until(() => google.emulator.heldCount === 2);
    const refused = await first;
    assert.equal(refused.status, 503, refused.text);
    // Google gets to both at last: the first is refused whole (its tag exists), the second lands.
    assert.equal(google.emulator.applyHeld(), 2);
    const landed = await second;
    assert.equal(landed.status, 201, landed.text);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet, 'the copy Sheetport serves differs from the spreadsheet');
    assert.equal(sheet.filter((row) => row.name === 'Max').length, 1);
    assert.equal(sheet.find((row) => row.name === 'Bob')?.age, 27);
    assert.equal(await google.store.pushingMarker(id), null);
    const again = await send();
    assert.equal(again.status, 201, again.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
  },
);

async function until(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test(
  `${backend}: a server taking over the push of one that lost its lock waits while its requests may land unfenced: writes answer 503, reads the last copy`,
  { skip: backend !== 'postgres' },
  async (t) => {
    const google = await setup(t, { app: { cacheSize: 0 }, settings: { deadlineMs: 3000 } });
    // As for a provider whose requests a push cannot fence (Excel): 1.5 s past the deadline.
    Object.assign(google.google, { unfencedMs: 1500 });
    const id = await connect(google, { freshnessSeconds: 3600 });
    const other = await createApp(
      { store: google.store, providers: registryOf({ google: google.newProvider() }) },
      { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
    );
    const otherUrl = await other.listen({ host: '127.0.0.1', port: 0 });
    t.after(() => other.close());
    google.emulator.failNext(1, { mode: 'late', only: 'writes' });
    const sentAt = Date.now();
    const first = call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Zed' } });
    await until(() => google.emulator.heldCount === 1);
    assert.equal(await endLockConnections(google.env.SHEETPORT_DATABASE_URL ?? ''), 1);
    const rows = `${otherUrl}/api/v1/${id}`;
    const early = await call(rows, { method: 'POST', body: { name: 'Max' } });
    assert.equal(early.status, 503, early.text);
    assert.equal((early.body as { code: string }).code, 'upstream-unavailable');
    assert.ok(
      Number(early.headers.get('retry-after')) >= 1,
      early.headers.get('retry-after') ?? '',
    );
    const read = await call(rows);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(
      (read.body as { name: string }[]).map((row) => row.name),
      ['Ann', 'Bob', 'Joan'],
    );
    assert.equal((await first).status, 503);
    google.emulator.applyHeld();
    // Past the push's deadline and the wait, the other server settles it and writes.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, sentAt + 4600 - Date.now())));
    const later = await call(rows, { method: 'POST', body: { name: 'Max' } });
    assert.equal(later.status, 201, later.text);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet);
    assert.deepEqual(
      sheet.map((row) => row.name),
      ['Ann', 'Bob', 'Joan', 'Max'],
    );
  },
);

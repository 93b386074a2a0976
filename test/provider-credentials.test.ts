import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { ProviderCredential } from '../src/store/provider-credentials.ts';
import { openTestStore } from './helpers/stores.ts';

async function store(t: TestContext) {
  const opened = await openTestStore();
  t.after(() => opened.dispose());
  return opened.store.credentials;
}

const signedIn = (refreshToken: string, account = 'ann@example.com'): ProviderCredential => ({
  provider: 'microsoft',
  account,
  refreshToken,
  clientId: 'client-1',
  tenant: 'consumers',
  scope: 'https://graph.microsoft.com/Files.ReadWrite offline_access',
  createdAt: '2026-01-02T03:04:05.000Z',
  updatedAt: '2026-01-02T03:04:05.000Z',
});

test('a credential is absent until one is put, and then read back whole', async (t) => {
  const credentials = await store(t);
  assert.equal(await credentials.get('microsoft'), null);
  await credentials.put(signedIn('rt-1'));
  assert.deepEqual(await credentials.get('microsoft'), signedIn('rt-1'));
  assert.equal(await credentials.get('other'), null);
});

test('a new sign-in replaces the credential the provider had', async (t) => {
  const credentials = await store(t);
  await credentials.put(signedIn('rt-1'));
  await credentials.put(signedIn('rt-2', 'bob@example.com'));
  const kept = await credentials.get('microsoft');
  assert.equal(kept?.refreshToken, 'rt-2');
  assert.equal(kept?.account, 'bob@example.com');
});

test('rotating replaces the refresh token only while it is still the one spent', async (t) => {
  const credentials = await store(t);
  await credentials.put(signedIn('rt-1'));
  assert.equal(await credentials.rotate('microsoft', 'rt-1', 'rt-2'), true);
  const rotated = await credentials.get('microsoft');
  assert.equal(rotated?.refreshToken, 'rt-2');
  assert.ok((rotated?.updatedAt ?? '') > '2026-01-02T03:04:05.000Z');
  // Another server spent rt-1 too, and lost the race: the newer token stays.
  assert.equal(await credentials.rotate('microsoft', 'rt-1', 'rt-3'), false);
  assert.equal((await credentials.get('microsoft'))?.refreshToken, 'rt-2');
});

test('signing out removes the credential, and a rotation after it puts nothing back', async (t) => {
  const credentials = await store(t);
  await credentials.put(signedIn('rt-1'));
  assert.equal(await credentials.delete('microsoft'), true);
  assert.equal(await credentials.delete('microsoft'), false);
  assert.equal(await credentials.rotate('microsoft', 'rt-1', 'rt-2'), false);
  assert.equal(await credentials.get('microsoft'), null);
});

test('work on one credential takes turns, and a failed turn does not stop the next', async (t) => {
  const credentials = await store(t);
  const order: string[] = [];
  let open = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  let firstStarted = () => {};
  const started = new Promise<void>((resolve) => (firstStarted = resolve));
  const first = credentials.exclusive('microsoft', async () => {
    order.push('first starts');
    firstStarted();
    await gate;
    order.push('first ends');
    throw new Error('refused');
  });
  const second = credentials.exclusive('microsoft', async () => {
    order.push('second');
    return 2;
  });
  await started;
  open();
  await assert.rejects(first, /refused/);
  assert.equal(await second, 2);
  assert.deepEqual(order, ['first starts', 'first ends', 'second']);
});

/**
 * The last word wins in a Microsoft sign-in: a sign-in cancelled (signed out) or replaced by a
 * newer one while it finishes stores nothing, and a new sign-in drops every access token of the
 * one it replaced, even one being fetched as it lands. Run against the Graph emulator's identity
 * platform, through the real HTTP routes and store.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { microsoftAccess } from '../src/providers/excel/microsoft-access.ts';
import type { CredentialStore } from '../src/store/provider-credentials.ts';
import { call } from './helpers/build.ts';
import { signInServer } from './helpers/excel.ts';
import { eventually } from './helpers/event-reader.ts';

const adminToken = 'sign-in-races-admin-token-0123';
const auth = { authorization: `Bearer ${adminToken}` };

async function setup(t: Parameters<typeof signInServer>[0]) {
  const s = await signInServer(t, { adminToken });
  const signInUrl = `${s.url}/admin/v1/providers/excel/sign-in`;
  const start = async () => {
    const started = await call(signInUrl, { method: 'POST', headers: auth });
    assert.equal(started.status, 201, started.text);
    return (started.body as { userCode: string }).userCode;
  };
  /** Holds the next `GET /me`, which a finishing sign-in makes, without answering it. */
  const holdMe = () => s.emulator.failNext(1, { match: { path: '/v1.0/me' }, mode: 'late' });
  const meAsked = () =>
    eventually(
      () => s.emulator.requests().some((r) => r.path === '/v1.0/me' && r.answer === 'none'),
      'the sign-in to ask who signed in',
    );
  return { ...s, signInUrl, start, holdMe, meAsked };
}

test('a sign-out while a sign-in is finishing is not undone: nothing is stored', async (t) => {
  const s = await setup(t);
  const signIn = s.microsoft.signIn;
  assert.ok(signIn !== null);
  const code = await s.start();
  s.holdMe();
  s.emulator.approveDeviceCode(code, 'adele@contoso.com');
  await s.meAsked();
  const finishing = signIn.completion();
  const out = await call(s.signInUrl, { method: 'DELETE', headers: auth });
  assert.equal(out.status, 204, out.text);
  await finishing;
  assert.equal(await s.store.credentials.get('microsoft'), null, 'the cancelled sign-in is gone');
  const status = await call(s.signInUrl, { headers: auth });
  assert.equal((status.body as { state: string }).state, 'signed-out');
});

test('a sign-in replaced by a newer one while it finishes stores nothing; the newer one is kept', async (t) => {
  const s = await setup(t);
  const signIn = s.microsoft.signIn;
  assert.ok(signIn !== null);
  const first = await s.start();
  s.holdMe();
  s.emulator.approveDeviceCode(first, 'adele@contoso.com');
  await s.meAsked();
  const finishing = signIn.completion();
  const second = await s.start();
  await finishing;
  assert.equal(
    await s.store.credentials.get('microsoft'),
    null,
    'the replaced sign-in is not kept',
  );
  s.emulator.approveDeviceCode(second, 'bob@contoso.com');
  await signIn.completion();
  assert.equal((await s.store.credentials.get('microsoft'))?.account, 'bob@contoso.com');
});

test('a new sign-in drops the tokens of the one it replaced, even one whose refresh was under way', async (t) => {
  const s = await setup(t);
  // The server's own sign-in keeps the credential; this access spends it, with its rotation
  // of the refresh token held back until the new sign-in has landed.
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  let rotating = false;
  const credentials = s.store.credentials;
  const gated = new Proxy(credentials, {
    get(target, name) {
      if (name === 'rotate') {
        return async (...args: Parameters<CredentialStore['rotate']>) => {
          rotating = true;
          await gate;
          return target.rotate(...args);
        };
      }
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
    },
  });
  const signIn = s.microsoft.signIn;
  assert.ok(signIn !== null);
  s.emulator.approveDeviceCode(await s.start(), 'adele@contoso.com');
  await signIn.completion();
  const access = microsoftAccess(s.settings, gated);
  assert.ok(access.tokens !== null && access.signIn !== null);
  const token = access.tokens.token();
  await eventually(() => rotating, 'the refresh to redeem the token kept');
  // A new sign-in lands through this access (its sign-in tells its tokens).
  const bobCode = (await access.signIn.start()).userCode;
  s.emulator.approveDeviceCode(bobCode, 'bob@contoso.com');
  await access.signIn.completion();
  release();
  const whose = async (bearer: string) => {
    const me = await fetch(`${s.emulator.graphUrl}me`, {
      headers: { authorization: `Bearer ${bearer}` },
    });
    return ((await me.json()) as { userPrincipalName: string }).userPrincipalName;
  };
  assert.equal(await whose(await token), 'bob@contoso.com', 'the refresh under way answers Bob');
  assert.equal(await whose(await access.tokens.token()), 'bob@contoso.com', 'and so does the next');
});

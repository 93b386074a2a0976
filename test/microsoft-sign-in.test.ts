import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { AppOptions } from '../src/app.ts';
import type { Problem } from '../src/errors/problem.ts';
import { microsoftAccess } from '../src/providers/excel/microsoft-access.ts';
import { build, call } from './helpers/build.ts';
import { signInServer, type SignInServer } from './helpers/excel.ts';

const adminToken = 'test-admin-token-0123456789';
const auth = { authorization: `Bearer ${adminToken}` };

interface Setup extends SignInServer {
  signInUrl: string;
}

/** A server with a Microsoft app (no secret: delegated only) registered in the emulator. */
async function setup(
  t: TestContext,
  clientId?: string,
  logger?: AppOptions['logger'],
): Promise<Setup> {
  const server = await signInServer(
    t,
    { adminToken, ...(logger === undefined ? {} : { logger }) },
    clientId,
  );
  return { ...server, signInUrl: `${server.url}/admin/v1/providers/excel/sign-in` };
}

async function startSignIn(s: Setup) {
  const started = await call(s.signInUrl, { method: 'POST', headers: auth });
  assert.equal(started.status, 201, started.text);
  return started.body as { userCode: string; verificationUri: string; expiresAt: string };
}

async function signedIn(s: Setup) {
  const { userCode } = await startSignIn(s);
  s.emulator.approveDeviceCode(userCode, 'adele@contoso.com');
  await s.microsoft.signIn?.completion();
}

test('a device-code sign-in is pending until the person approves it, then kept in the store', async (t) => {
  const s = await setup(t);
  const started = await startSignIn(s);
  assert.match(started.userCode, /^\w+$/);
  assert.equal(started.verificationUri, 'https://microsoft.com/devicelogin');
  assert.ok(Date.parse(started.expiresAt) > Date.now());

  const pending = await call(s.signInUrl, { headers: auth });
  assert.equal(pending.status, 200);
  assert.deepEqual(
    { ...(pending.body as object), message: undefined },
    { state: 'pending', ...started, message: undefined },
  );
  assert.equal(await s.store.credentials.get('microsoft'), null);

  s.emulator.approveDeviceCode(started.userCode, 'adele@contoso.com');
  await s.microsoft.signIn?.completion();
  const done = await call(s.signInUrl, { headers: auth });
  assert.equal(done.status, 200);
  const status = done.body as { state: string; account: string | null };
  assert.equal(status.state, 'signed-in');
  const kept = await s.store.credentials.get('microsoft');
  assert.ok(kept !== null && kept.refreshToken !== '');
  assert.ok(!done.text.includes(kept.refreshToken), 'the refresh token is never answered');
});

test('a declined or expired sign-in fails, says why, and keeps nothing', async (t) => {
  const s = await setup(t);
  const first = await startSignIn(s);
  s.emulator.declineDeviceCode(first.userCode);
  await s.microsoft.signIn?.completion();
  const declined = await call(s.signInUrl, { headers: auth });
  assert.equal((declined.body as { state: string }).state, 'failed');
  assert.equal((declined.body as { reason: string }).reason, 'declined');

  await startSignIn(s);
  s.emulator.expireDeviceCodes();
  await s.microsoft.signIn?.completion();
  const expired = await call(s.signInUrl, { headers: auth });
  assert.equal((expired.body as { reason: string }).reason, 'expired');
  assert.equal(await s.store.credentials.get('microsoft'), null);
});

test('signing out forgets the kept sign-in, and stops one under way', async (t) => {
  const s = await setup(t);
  await signedIn(s);
  const out = await call(s.signInUrl, { method: 'DELETE', headers: auth });
  assert.equal(out.status, 204);
  assert.equal(await s.store.credentials.get('microsoft'), null);
  assert.deepEqual((await call(s.signInUrl, { headers: auth })).body, { state: 'signed-out' });

  const { userCode } = await startSignIn(s);
  const stopped = s.microsoft.signIn?.completion();
  assert.equal((await call(s.signInUrl, { method: 'DELETE', headers: auth })).status, 204);
  // Approved after the sign-out: the sign-in that was stopped is not kept.
  s.emulator.approveDeviceCode(userCode);
  assert.deepEqual(await stopped, { state: 'signed-out' });
  assert.deepEqual((await call(s.signInUrl, { headers: auth })).body, { state: 'signed-out' });
  assert.equal(await s.store.credentials.get('microsoft'), null);
});

test('the sign-in routes take the administrator token', async (t) => {
  const s = await setup(t);
  for (const method of ['POST', 'GET', 'DELETE']) {
    const refused = await call(s.signInUrl, { method });
    assert.equal(refused.status, 401, method);
    assert.equal((refused.body as { code: string }).code, 'unauthorized');
  }
  assert.deepEqual((await call(s.signInUrl, { headers: auth })).body, { state: 'signed-out' });
});

test('an application Microsoft does not know is refused with a problem naming the setting', async (t) => {
  const s = await setup(t, 'no-such-client');
  const refused = await call(s.signInUrl, { method: 'POST', headers: auth });
  assert.equal(refused.status, 502, refused.text);
  const problem = refused.body as { code: string; detail: string };
  assert.equal(problem.code, 'provider-credentials-rejected');
  assert.match(problem.detail, /SHEETPORT_MICROSOFT_CLIENT_ID/);
});

test('without a Microsoft application, starting a sign-in is refused as not configured', async (t) => {
  const { url } = await build(t, { adminToken });
  const signInUrl = `${url}/admin/v1/providers/excel/sign-in`;
  const refused = await call(signInUrl, { method: 'POST', headers: auth });
  assert.equal(refused.status, 400);
  assert.equal((refused.body as { code: string }).code, 'provider-not-configured');
  assert.deepEqual((await call(signInUrl, { headers: auth })).body, { state: 'signed-out' });
});

/** Graph's answer to a call with this token: 200 while Graph takes it. */
async function graphStatus(s: Setup, token: string): Promise<number> {
  const response = await fetch(`${s.emulator.graphUrl}drives/none/items/none`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await response.body?.cancel();
  return response.status;
}

test('the signed-in tokens are refreshed when Graph refuses one, rotating the kept refresh token first', async (t) => {
  const s = await setup(t);
  await signedIn(s);
  const first = (await s.store.credentials.get('microsoft'))?.refreshToken;
  const tokens = s.microsoft.tokens;
  assert.ok(tokens !== null);
  const token = await tokens.token();
  assert.notEqual(await graphStatus(s, token), 401);
  const second = (await s.store.credentials.get('microsoft'))?.refreshToken;
  assert.ok(second !== undefined && second !== first, 'the refresh rotated the kept token');
  assert.equal(await tokens.token(), token, 'a token that works is used again');

  s.emulator.expireAccessTokens();
  assert.equal(await graphStatus(s, token), 401);
  tokens.refused();
  const renewed = await tokens.token();
  assert.notEqual(renewed, token);
  assert.notEqual(await graphStatus(s, renewed), 401);
  assert.notEqual((await s.store.credentials.get('microsoft'))?.refreshToken, second);
});

test('a revoked sign-in answers sign-in-required, and so does no sign-in at all', async (t) => {
  const s = await setup(t);
  const tokens = s.microsoft.tokens;
  assert.ok(tokens !== null);
  await assert.rejects(tokens.token(), (error: Problem) => {
    assert.equal(error.code, 'sign-in-required');
    return true;
  });
  await signedIn(s);
  s.emulator.revokeRefreshTokens();
  await assert.rejects(tokens.token(), (error: Problem) => {
    assert.equal(error.code, 'sign-in-required');
    assert.equal(error.status, 502);
    assert.match(error.detail, /sign in/);
    return true;
  });
});

test('two servers refreshing at once both get a token, where each refresh token works once', async (t) => {
  const s = await setup(t);
  await signedIn(s);
  s.emulator.revokeUsedRefreshTokens = true;
  const one = s.another().tokens;
  const two = s.another().tokens;
  assert.ok(one !== null && two !== null);
  const [a, b] = await Promise.all([one.token(), two.token()]);
  assert.notEqual(await graphStatus(s, a), 401);
  assert.notEqual(await graphStatus(s, b), 401);
  // The token kept is one that still works: a third server refreshes with it.
  const three = s.another().tokens;
  assert.ok(three !== null);
  assert.notEqual(await graphStatus(s, await three.token()), 401);
});

test('Graph is called as the signed-in user while someone is signed in, else as the application', async (t) => {
  const s = await setup(t);
  const app = s.emulator.registerApp();
  const access = microsoftAccess(
    {
      tenantId: app.tenant,
      clientId: app.clientId,
      clientSecret: app.clientSecret,
      loginUrl: s.emulator.loginUrl,
      graphUrl: s.emulator.graphUrl,
    },
    s.store.credentials,
  );
  const tokens = access.tokens;
  assert.ok(tokens !== null && access.signIn !== null);
  /** Who the emulator saw calling Graph with the provider's next token. */
  const caller = async () => {
    s.emulator.resetRequests();
    await graphStatus(s, await tokens.token());
    const [seen] = s.emulator.requests().filter((request) => request.kind !== 'login');
    return seen?.user ?? 'the application';
  };
  assert.equal(await caller(), 'the application');

  await access.signIn.start();
  const pending = await access.signIn.status();
  assert.equal(pending.state, 'pending');
  s.emulator.approveDeviceCode(pending.state === 'pending' ? pending.userCode : '', 'ann@x.com');
  await access.signIn.completion();
  assert.equal(await caller(), 'ann@x.com');

  await access.signIn.signOut();
  assert.equal(await caller(), 'the application');
});

test('an Excel sheet is connected and read as the signed-in user; revoked, it answers sign-in-required', async (t) => {
  const s = await setup(t);
  await signedIn(s);
  const ref = s.emulator.createWorkbook({
    tenant: s.tenant,
    name: 'Budget.xlsx',
    worksheets: [{ name: 'Sheet1', rows: [['name'], ['Ann']] }],
  });
  const created = await call(`${s.url}/admin/v1/sheets`, {
    method: 'POST',
    headers: auth,
    body: { source: { provider: 'excel', drive: ref.driveId, item: ref.itemId, tab: 'Sheet1' } },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  assert.deepEqual((await call(`${s.url}/api/v1/${id}`, { headers: auth })).body, [
    { name: 'Ann' },
  ]);
  const callers = s.emulator
    .requests()
    .filter((request) => request.path.includes('/workbook/') || request.path.includes('/items/'));
  assert.ok(callers.length > 0 && callers.every((request) => request.user === 'adele@contoso.com'));

  s.emulator.revokeRefreshTokens();
  s.emulator.expireAccessTokens();
  const refused = await call(`${s.url}/admin/v1/sheets/${id}/refresh`, {
    method: 'POST',
    headers: auth,
  });
  assert.equal(refused.status, 502, refused.text);
  const problem = refused.body as { code: string; detail: string };
  assert.equal(problem.code, 'sign-in-required');
  assert.match(problem.detail, /sheetport sign-in excel/);
});

test('no log line holds a token of the sign-in, whatever the level', async (t) => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const s = await setup(t, undefined, { level: 'trace', stream });
  await signedIn(s);
  const first = (await s.store.credentials.get('microsoft'))?.refreshToken;
  const token = await s.microsoft.tokens?.token();
  const second = (await s.store.credentials.get('microsoft'))?.refreshToken;
  await call(s.signInUrl, { headers: auth });
  assert.ok(first !== undefined && second !== undefined && token !== undefined);
  assert.ok(lines.length > 0);
  const log = lines.join('');
  for (const secret of [first, second, token]) assert.ok(!log.includes(secret));
});

test('the sign-in of a provider unknown or offering none answers 404, naming the providers that offer one', async (t) => {
  const { url } = await build(t, { adminToken });
  for (const provider of ['google', 'dropbox']) {
    for (const method of ['POST', 'GET', 'DELETE']) {
      const refused = await call(`${url}/admin/v1/providers/${provider}/sign-in`, {
        method,
        headers: auth,
      });
      assert.equal(refused.status, 404, `${method} ${provider}`);
      const problem = refused.body as { code: string; detail: string; providers: string[] };
      assert.equal(problem.code, 'route-not-found');
      assert.match(problem.detail, provider === 'google' ? /Google offers no sign-in/ : /dropbox/);
      assert.deepEqual(problem.providers, ['excel']);
    }
  }
});

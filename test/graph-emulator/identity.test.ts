/** The identity platform's grants and Graph's 401s, as Microsoft publishes them. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { login, request, useEmulator } from './test-support.ts';

const fixture = useEmulator();
const SCOPE = 'https://graph.microsoft.com/.default';
const DELEGATED = 'https://graph.microsoft.com/Files.ReadWrite offline_access';

interface TokenBody {
  access_token?: string;
  refresh_token?: string;
  expires_in?: number;
  token_type?: string;
  scope?: string;
  error?: string;
  error_codes?: number[];
}

const tokenBody = (answer: { body: unknown }) => answer.body as TokenBody;

describe('client credentials', () => {
  it('hands out a Bearer token that opens the tenant’s workbooks', async () => {
    const app = fixture.emulator.registerApp();
    const answer = await login(fixture.emulator, app.tenant, 'token', {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: SCOPE,
    });
    const body = tokenBody(answer);
    assert.deepEqual([answer.status, body.token_type, body.expires_in], [200, 'Bearer', 3599]);
    const ref = fixture.emulator.createWorkbook({
      tenant: app.tenant,
      worksheets: [{ name: 'S' }],
    });
    const sheets = await request(
      `${fixture.emulator.graphUrl}drives/${ref.driveId}/items/${ref.itemId}/workbook/worksheets`,
      'GET',
      undefined,
      { authorization: `Bearer ${body.access_token ?? ''}` },
    );
    assert.equal(sheets.status, 200);
  });

  it('refuses a wrong secret (401 invalid_client), an unknown tenant and an unknown client', async () => {
    const app = fixture.emulator.registerApp();
    const form = { grant_type: 'client_credentials', client_id: app.clientId, scope: SCOPE };
    const secret = await login(fixture.emulator, app.tenant, 'token', {
      ...form,
      client_secret: 'wrong',
    });
    assert.deepEqual(
      [secret.status, tokenBody(secret).error, tokenBody(secret).error_codes],
      [401, 'invalid_client', [7000215]],
    );
    const tenant = await login(fixture.emulator, 'contoso.example', 'token', {
      ...form,
      client_secret: app.clientSecret,
    });
    assert.deepEqual(
      [tenant.status, tokenBody(tenant).error, tokenBody(tenant).error_codes],
      [400, 'invalid_request', [90002]],
    );
    const client = await login(fixture.emulator, app.tenant, 'token', {
      ...form,
      client_id: 'nobody',
      client_secret: 'x',
    });
    assert.deepEqual(
      [client.status, tokenBody(client).error, tokenBody(client).error_codes],
      [400, 'unauthorized_client', [700016]],
    );
  });
});

describe('Graph authentication', () => {
  it('answers 401 InvalidAuthenticationToken without a token, with an unknown one, and once one expired', async () => {
    const { workbook } = fixture.create([{ name: 'S' }]);
    const url = `${fixture.emulator.graphUrl}${workbook}worksheets`;
    const none = await request(url, 'GET');
    const unknown = await request(url, 'GET', undefined, { authorization: 'Bearer abc' });
    const code = (answer: { body: unknown }) =>
      (answer.body as { error: { code: string } }).error.code;
    assert.deepEqual(
      [none.status, code(none), unknown.status, code(unknown)],
      [401, 'InvalidAuthenticationToken', 401, 'InvalidAuthenticationToken'],
    );
    const app = fixture.emulator.registerApp({ tenant: fixture.app.tenant });
    fixture.emulator.accessTokenLifetimeSeconds = 1;
    const short = await login(fixture.emulator, app.tenant, 'token', {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: SCOPE,
    });
    fixture.emulator.accessTokenLifetimeSeconds = 3599;
    assert.equal(tokenBody(short).expires_in, 1);
    const auth = { authorization: `Bearer ${tokenBody(short).access_token ?? ''}` };
    assert.equal((await request(url, 'GET', undefined, auth)).status, 200);
    fixture.emulator.expireAccessTokens();
    const expired = await request(url, 'GET', undefined, auth);
    assert.deepEqual([expired.status, code(expired)], [401, 'InvalidAuthenticationToken']);
    assert.match((expired.body as { error: { message: string } }).error.message, /expired/);
  });
});

describe('device code and refresh tokens', () => {
  async function startDeviceFlow() {
    const app = fixture.emulator.registerApp({ tenant: fixture.app.tenant });
    fixture.emulator.deviceCodeIntervalSeconds = 0;
    const answer = await login(fixture.emulator, app.tenant, 'devicecode', {
      client_id: app.clientId,
      scope: DELEGATED,
    });
    const body = answer.body as {
      device_code: string;
      user_code: string;
      verification_uri: string;
      interval: number;
    };
    const poll = () =>
      login(fixture.emulator, app.tenant, 'token', {
        grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
        client_id: app.clientId,
        device_code: body.device_code,
      });
    return { app, answer, body, poll };
  }

  it('answers authorization_pending until the person approves, then tokens with a refresh token', async () => {
    const { answer, body, poll } = await startDeviceFlow();
    assert.equal(answer.status, 200);
    assert.equal(body.verification_uri, 'https://microsoft.com/devicelogin');
    const pending = await poll();
    assert.deepEqual([pending.status, tokenBody(pending).error], [400, 'authorization_pending']);
    fixture.emulator.approveDeviceCode(body.user_code, 'adele@contoso.com');
    const done = await poll();
    assert.equal(done.status, 200);
    assert.ok(tokenBody(done).access_token && tokenBody(done).refresh_token);
    assert.equal(tokenBody(done).scope, 'https://graph.microsoft.com/Files.ReadWrite');
    const again = await poll();
    assert.deepEqual([again.status, tokenBody(again).error], [400, 'invalid_grant']);
  });

  it('answers authorization_declined, expired_token, and slow_down when polled inside the interval', async () => {
    const declined = await startDeviceFlow();
    fixture.emulator.declineDeviceCode(declined.body.user_code);
    assert.equal(tokenBody(await declined.poll()).error, 'authorization_declined');
    const slow = await startDeviceFlow();
    fixture.emulator.deviceCodeIntervalSeconds = 60;
    assert.equal(tokenBody(await slow.poll()).error, 'authorization_pending');
    assert.equal(tokenBody(await slow.poll()).error, 'slow_down');
    const expired = await startDeviceFlow();
    fixture.emulator.expireDeviceCodes();
    assert.equal(tokenBody(await expired.poll()).error, 'expired_token');
  });

  it('rotates the refresh token on use, and a revoked one answers invalid_grant', async () => {
    const { app, body, poll } = await startDeviceFlow();
    fixture.emulator.approveDeviceCode(body.user_code, 'megan@contoso.com');
    const first = tokenBody(await poll()).refresh_token ?? '';
    const refresh = (token: string) =>
      login(fixture.emulator, app.tenant, 'token', {
        grant_type: 'refresh_token',
        client_id: app.clientId,
        refresh_token: token,
        scope: DELEGATED,
      });
    const second = await refresh(first);
    assert.equal(second.status, 200);
    const rotated = tokenBody(second).refresh_token ?? '';
    assert.ok(rotated && rotated !== first);
    assert.equal(fixture.emulator.revokeRefreshTokens('megan@contoso.com'), 2);
    const revoked = await refresh(rotated);
    assert.deepEqual(
      [revoked.status, tokenBody(revoked).error, tokenBody(revoked).error_codes],
      [400, 'invalid_grant', [50173]],
    );
    const unknown = await refresh('0.Anope');
    assert.deepEqual([unknown.status, tokenBody(unknown).error], [400, 'invalid_grant']);
  });

  it('can make a used refresh token invalid at once, for clients that must keep the newest', async () => {
    const { app, body, poll } = await startDeviceFlow();
    fixture.emulator.approveDeviceCode(body.user_code);
    const first = tokenBody(await poll()).refresh_token ?? '';
    const refresh = (token: string) =>
      login(fixture.emulator, app.tenant, 'token', {
        grant_type: 'refresh_token',
        client_id: app.clientId,
        refresh_token: token,
        scope: DELEGATED,
      });
    fixture.emulator.revokeUsedRefreshTokens = true;
    try {
      assert.equal((await refresh(first)).status, 200);
      assert.equal(tokenBody(await refresh(first)).error, 'invalid_grant');
    } finally {
      fixture.emulator.revokeUsedRefreshTokens = false;
    }
  });

  it('signs Graph calls in as the user who approved', async () => {
    const { body, poll } = await startDeviceFlow();
    fixture.emulator.approveDeviceCode(body.user_code, 'lee@contoso.com');
    const token = tokenBody(await poll()).access_token ?? '';
    const { workbook } = fixture.create([{ name: 'S' }]);
    fixture.emulator.resetRequests();
    const answer = await request(
      `${fixture.emulator.graphUrl}${workbook}worksheets`,
      'GET',
      undefined,
      { authorization: `Bearer ${token}` },
    );
    assert.equal(answer.status, 200);
    assert.equal(fixture.emulator.requests()[0]?.user, 'lee@contoso.com');
  });
});

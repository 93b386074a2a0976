/** Who may call, and how calls fail: tokens, sharing, API keys, quota and injected faults. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { refreshTokenClient, serviceAccountClient, sheetsClient } from './clients.ts';
import { startGoogleSheetsEmulator } from './index.ts';
import { failure, googleError, useEmulator } from './test-support.ts';

const fixture = useEmulator();

const sheet = (extra: { public?: boolean } = {}) =>
  fixture.create({ tabs: [{ title: 'Sheet1', rows: [['a'], [1]] }], ...extra });

const append = (spreadsheetId: string, value: string) =>
  fixture.api.spreadsheets.values.append({
    spreadsheetId,
    range: 'Sheet1',
    valueInputOption: 'RAW',
    requestBody: { values: [[value]] },
  });

describe('credentials', () => {
  it('a refresh token signs in through OAuth2Client with endpoints.oauth2TokenUrl', async () => {
    const credentials = fixture.emulator.oauthClient('person@example.com');
    const id = sheet();
    fixture.emulator.share(id, 'person@example.com');
    const api = sheetsClient(fixture.emulator, refreshTokenClient(fixture.emulator, credentials));
    const { data } = await api.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1!A1' });
    assert.deepEqual(data.values, [['a']]);
    assert.equal(fixture.emulator.stats().requests.at(-1)?.principal, 'person@example.com');
    const wrongSecret = refreshTokenClient(fixture.emulator, {
      ...credentials,
      clientSecret: 'nope',
    });
    const refused = await failure(wrongSecret.getAccessToken());
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.body, { error: 'invalid_client', error_description: 'Unauthorized' });
  });

  it('a JWT signed with another key is refused with invalid_grant', async () => {
    const other = fixture.emulator.serviceAccount('other');
    const forged = serviceAccountClient(fixture.emulator, {
      ...fixture.key,
      private_key: other.private_key,
    });
    const refused = await failure(forged.authorize());
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body, {
      error: 'invalid_grant',
      error_description: 'Invalid JWT Signature.',
    });
  });

  it('a token the server expired is 401 to the client holding it; a new client signs in again', async (t) => {
    // An emulator of its own: expiring tokens would break the shared client of the other tests.
    const emulator = await startGoogleSheetsEmulator();
    t.after(() => emulator.close());
    const key = emulator.serviceAccount();
    const id = emulator.createSpreadsheet({
      tabs: [{ title: 'Sheet1', rows: [['a']] }],
      sharedWith: [key.client_email],
    });
    // forceRefreshOnFailure does not help a JWT: gtoken hands back its cached, unexpired token.
    const stale = sheetsClient(
      emulator,
      serviceAccountClient(emulator, key, { forceRefreshOnFailure: true }),
    );
    await stale.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' });
    emulator.expireAccessTokens();
    const refused = await failure(
      stale.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' }),
    );
    assert.equal(refused.status, 401);
    assert.equal((refused.body as { error: { status: string } }).error.status, 'UNAUTHENTICATED');
    assert.match(refused.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    const fresh = sheetsClient(emulator, serviceAccountClient(emulator, key));
    const { data } = await fresh.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' });
    assert.deepEqual(data.values, [['a']]);
  });

  it('a principal the spreadsheet is not shared with gets 403; an unknown id 404', async () => {
    const id = fixture.emulator.createSpreadsheet({ tabs: [{ title: 'Sheet1', rows: [['a']] }] });
    const denied = await failure(fixture.api.spreadsheets.get({ spreadsheetId: id }));
    assert.deepEqual(
      denied.body,
      googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission'),
    );
    fixture.emulator.share(id, fixture.key.client_email);
    await fixture.api.spreadsheets.get({ spreadsheetId: id });
    const missing = await failure(
      fixture.api.spreadsheets.get({ spreadsheetId: 'no-such-spreadsheet' }),
    );
    assert.deepEqual(
      missing.body,
      googleError(404, 'NOT_FOUND', 'Requested entity was not found.'),
    );
  });

  it('an API key reads a public spreadsheet only, and never writes', async () => {
    const open = fixture.emulator.createSpreadsheet({
      tabs: [{ title: 'Sheet1', rows: [['a']] }],
      public: true,
    });
    const closed = fixture.emulator.createSpreadsheet({
      tabs: [{ title: 'Sheet1', rows: [['a']] }],
    });
    const api = sheetsClient(fixture.emulator, fixture.emulator.apiKey());
    const { data } = await api.spreadsheets.values.get({ spreadsheetId: open, range: 'Sheet1' });
    assert.deepEqual(data.values, [['a']]);
    const denied = await failure(
      api.spreadsheets.values.get({ spreadsheetId: closed, range: 'Sheet1' }),
    );
    assert.equal(denied.status, 403);
    const write = await failure(
      api.spreadsheets.values.append({
        spreadsheetId: open,
        range: 'Sheet1',
        valueInputOption: 'RAW',
        requestBody: { values: [['b']] },
      }),
    );
    assert.equal(write.status, 401);
    assert.match(
      (write.body as { error: { message: string } }).error.message,
      /^API keys are not supported by this API\./,
    );
    assert.deepEqual(fixture.emulator.rows(open, 'Sheet1'), [['a']]);
  });
});

describe('quota and faults', () => {
  it('a write over the quota is 429 RESOURCE_EXHAUSTED, counted as rejected, and changes nothing', async (t) => {
    const id = sheet();
    fixture.emulator.quota = { writesPerWindow: 2, windowMs: 60_000 };
    fixture.emulator.quotaRetryAfterSeconds = 7;
    t.after(() => {
      fixture.emulator.quota = null;
      fixture.emulator.quotaRetryAfterSeconds = null;
    });
    fixture.emulator.resetStats();
    await append(id, 'one');
    await append(id, 'two');
    const refused = await failure(append(id, 'three'));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '7');
    const { error } = refused.body as { error: { code: number; status: string; message: string } };
    assert.equal(error.code, 429);
    assert.equal(error.status, 'RESOURCE_EXHAUSTED');
    assert.match(
      error.message,
      /^Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute per user' of service 'sheets\.googleapis\.com'/,
    );
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1').flat(), ['a', 1, 'one', 'two']);
    await fixture.api.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' });
    const stats = fixture.emulator.stats();
    assert.deepEqual([stats.writes, stats.rejected, stats.reads], [2, 1, 1]);
  });

  it('failNext fails writes with 503 UNAVAILABLE and changes nothing', async () => {
    const id = sheet();
    fixture.emulator.failNext(1, { status: 503, only: 'writes', retryAfterSeconds: 2 });
    const failed = await failure(append(id, 'lost'));
    assert.equal(failed.status, 503);
    assert.equal(failed.headers.get('retry-after'), '2');
    assert.deepEqual(
      failed.body,
      googleError(503, 'UNAVAILABLE', 'The service is currently unavailable.'),
    );
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1'), [['a'], [1]]);
    await append(id, 'kept');
    assert.deepEqual(fixture.emulator.rows(id, 'Sheet1').flat(), ['a', 1, 'kept']);
  });

  it('failNext on reads: the client library retries a GET after a 500 and succeeds', async () => {
    const id = sheet();
    fixture.emulator.resetStats();
    fixture.emulator.failNext(1, { status: 500, only: 'reads' });
    const { data } = await fixture.api.spreadsheets.values.get({
      spreadsheetId: id,
      range: 'Sheet1!A1',
    });
    assert.deepEqual(data.values, [['a']]);
    const statuses = fixture.emulator
      .stats()
      .requests.filter((r) => r.kind === 'read')
      .map((r) => r.status);
    assert.deepEqual(statuses, [500, 200]);
  });
});

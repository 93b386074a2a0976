import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../../errors/problem.ts';
import { cachedTokens, clientCredentialTokens, tokenRefusal } from './graph-tokens.ts';

/** A token endpoint on loopback that answers `answer(form)` and counts the requests. */
async function tokenEndpoint(
  t: TestContext,
  answer: (form: URLSearchParams, path: string) => { status: number; body: unknown },
) {
  const forms: URLSearchParams[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(text);
      forms.push(form);
      const { status, body } = answer(form, request.url ?? '');
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, forms };
}

const settings = { tenantId: 'contoso', clientId: 'app-1', clientSecret: 's3cret' };

test('client credentials: one form POST to {login}{tenant}/oauth2/v2.0/token for the .default scope, cached until refused', async (t) => {
  let issued = 0;
  const paths: string[] = [];
  const endpoint = await tokenEndpoint(t, (_form, path) => {
    paths.push(path);
    return {
      status: 200,
      body: { token_type: 'Bearer', expires_in: 3599, access_token: `t${++issued}` },
    };
  });
  const tokens = clientCredentialTokens({ ...settings, loginUrl: endpoint.url });
  const [a, b] = await Promise.all([tokens.token(), tokens.token()]);
  assert.equal(a, 't1');
  assert.equal(b, 't1', 'concurrent callers share one request');
  assert.equal(await tokens.token(), 't1', 'cached');
  assert.deepEqual(paths, ['/contoso/oauth2/v2.0/token']);
  const form = Object.fromEntries(endpoint.forms[0] ?? []);
  assert.deepEqual(form, {
    grant_type: 'client_credentials',
    client_id: 'app-1',
    client_secret: 's3cret',
    scope: 'https://graph.microsoft.com/.default',
  });
  tokens.refused();
  assert.equal(await tokens.token(), 't2', 'a refused token is not used again');
});

test('a cached token is renewed five minutes before it expires', async () => {
  let clock = 0;
  let issued = 0;
  const tokens = cachedTokens(
    () => Promise.resolve({ token: `t${++issued}`, expiresInMs: 3600_000 }),
    () => clock,
  );
  assert.equal(await tokens.token(), 't1');
  clock = 3600_000 - 5 * 60_000 - 1;
  assert.equal(await tokens.token(), 't1');
  clock += 1;
  assert.equal(await tokens.token(), 't2');
});

test('each refusal of the identity platform names what was wrong', () => {
  const cases: [number, Record<string, unknown>, RegExp, string][] = [
    [
      401,
      {
        error: 'invalid_client',
        error_description: 'AADSTS7000215: Invalid client secret provided.',
        error_codes: [7000215],
      },
      /client secret is wrong.*SHEETPORT_MICROSOFT_CLIENT_SECRET/,
      'provider-credentials-rejected',
    ],
    [
      401,
      {
        error: 'invalid_client',
        error_description: 'AADSTS7000222: The provided client secret keys are expired.',
        error_codes: [7000222],
      },
      /client secret is wrong or expired/,
      'provider-credentials-rejected',
    ],
    [
      400,
      {
        error: 'invalid_request',
        error_description: "AADSTS90002: Tenant 'nope' not found.",
        error_codes: [90002],
      },
      /tenant "nope" is unknown.*SHEETPORT_MICROSOFT_TENANT_ID/,
      'provider-credentials-rejected',
    ],
    [
      400,
      {
        error: 'unauthorized_client',
        error_description: 'AADSTS700016: Application not found in the directory.',
        error_codes: [700016],
      },
      /client id.*SHEETPORT_MICROSOFT_CLIENT_ID/,
      'provider-credentials-rejected',
    ],
    [
      503,
      { error: 'temporarily_unavailable' },
      /identity platform failed \(503/,
      'upstream-unavailable',
    ],
  ];
  for (const [status, answer, detail, code] of cases) {
    const problem = tokenRefusal(status, answer, 'nope');
    assert.equal(problem.code, code, JSON.stringify(answer));
    assert.match(problem.detail, detail);
  }
});

test('a refused secret at the endpoint throws the Problem; nothing is cached', async (t) => {
  let secretFixed = false;
  const endpoint = await tokenEndpoint(t, () =>
    secretFixed
      ? { status: 200, body: { expires_in: 3600, access_token: 'ok' } }
      : { status: 401, body: { error: 'invalid_client', error_codes: [7000215] } },
  );
  const tokens = clientCredentialTokens({ ...settings, loginUrl: endpoint.url });
  await assert.rejects(tokens.token(), (error: unknown) => {
    assert.ok(error instanceof Problem);
    assert.equal(error.code, 'provider-credentials-rejected');
    return true;
  });
  secretFixed = true;
  assert.equal(await tokens.token(), 'ok');
});

test('without a tenant, client id and secret there are no tokens: provider-not-configured', () => {
  assert.throws(
    () =>
      clientCredentialTokens({
        tenantId: 'x',
        clientId: undefined,
        clientSecret: 's',
        loginUrl: 'http://x/',
      }),
    (error: unknown) => error instanceof Problem && error.code === 'provider-not-configured',
  );
});

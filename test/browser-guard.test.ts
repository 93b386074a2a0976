import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { build, call } from './helpers/build.ts';

const adminToken = 'browser-test-admin-token-0123';

/** A request naming `host` in its Host header, which fetch would not let a test set. */
function withHost(
  url: string,
  path: string,
  host: string,
  init: { method?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; code: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      `${url}${path}`,
      { method: init.method ?? 'GET', headers: { ...init.headers, host } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          const parsed = /json/.test(response.headers['content-type'] ?? '')
            ? (JSON.parse(text) as { code?: string })
            : {};
          resolve({ status: response.statusCode ?? 0, code: parsed.code });
        });
      },
    );
    sent.on('error', reject).end(init.body);
  });
}

const newSheet = JSON.stringify({ name: 'rebound', columns: ['name'] });
const json = { 'content-type': 'application/json' };

async function sheetCount(url: string): Promise<number> {
  return ((await call(`${url}/admin/v1/sheets`)).body as unknown[]).length;
}

test('without an admin token, a Host other than a loopback or allowed name is refused (DNS rebinding)', async (t) => {
  const { url } = await build(t, { allowedHosts: ['sheets.lan'] });
  for (const host of ['attacker.example', 'attacker.example:8080', 'localhost.attacker.example']) {
    assert.deepEqual(
      await withHost(url, '/admin/v1/sheets', host),
      { status: 403, code: 'host-not-allowed' },
      host,
    );
    const created = await withHost(url, '/admin/v1/sheets', host, {
      method: 'POST',
      body: newSheet,
      headers: json,
    });
    assert.deepEqual(created, { status: 403, code: 'host-not-allowed' }, host);
    assert.equal((await withHost(url, '/api/v1/anything', host)).code, 'host-not-allowed');
  }
  assert.equal(await sheetCount(url), 0, 'nothing was created');
  // Probes name the server by whatever address reaches it.
  assert.equal((await withHost(url, '/healthz', 'attacker.example')).status, 200);
  for (const host of ['localhost:1234', 'LOCALHOST', '127.0.0.1', '[::1]:80', 'sheets.lan:8443']) {
    assert.equal((await withHost(url, '/admin/v1/sheets', host)).status, 200, host);
  }
  const created = await withHost(url, '/admin/v1/sheets', 'sheets.lan', {
    method: 'POST',
    body: newSheet,
    headers: json,
  });
  assert.equal(created.status, 201);
});

test('with an admin token, the token is the defence and any Host is served', async (t) => {
  const { url } = await build(t, { adminToken });
  const headers = { authorization: `Bearer ${adminToken}` };
  assert.equal(
    (await withHost(url, '/admin/v1/sheets', 'sheets.example', { headers })).status,
    200,
  );
  assert.equal((await withHost(url, '/admin/v1/sheets', 'sheets.example')).status, 401);
});

test('without an admin token, the management API refuses writes a browser marks cross-site', async (t) => {
  const { url } = await build(t);
  const form = () => {
    const body = new FormData();
    body.append('file', new Blob(['name\nAnn\n'], { type: 'text/csv' }), 'people.csv');
    return body;
  };
  const post = async (headers: Record<string, string>) => {
    const response = await fetch(`${url}/admin/v1/sheets`, {
      method: 'POST',
      body: form(),
      headers,
    });
    return { status: response.status, body: (await response.json()) as { code?: string } };
  };
  // What a plain HTML form on another site sends: no preflight, and so no CORS check.
  const crossSite: Record<string, string>[] = [
    { origin: 'https://evil.example' },
    { origin: 'null' },
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site', origin: 'http://localhost:5173' },
  ];
  for (const headers of crossSite) {
    const refused = await post(headers);
    assert.deepEqual(
      [refused.status, refused.body.code],
      [403, 'cross-site-refused'],
      headers.origin,
    );
  }
  assert.equal(await sheetCount(url), 0, 'nothing was created');
  // The console, same-origin, and clients that are not browsers go on.
  const own = new URL(url).origin;
  assert.equal((await post({ origin: own, 'sec-fetch-site': 'same-origin' })).status, 201);
  assert.equal((await post({})).status, 201);
  const [sheet] = (await call(`${url}/admin/v1/sheets`)).body as { id: string }[];
  const id = sheet?.id ?? '';
  const removed = await call(`${url}/admin/v1/sheets/${id}`, {
    method: 'DELETE',
    headers: { origin: 'https://evil.example' },
  });
  assert.equal(removed.status, 403);
  // Reading is no change, and a cross-site page cannot read the answer anyway (no CORS).
  const listed = await call(`${url}/admin/v1/sheets`, {
    headers: { origin: 'https://evil.example' },
  });
  assert.equal(listed.status, 200);
  assert.equal(listed.headers.get('access-control-allow-origin'), null);
  assert.equal(await sheetCount(url), 2);
});

test('a cross-site write is refused however its path is spelt: percent-escapes, a trailing slash', async (t) => {
  const { url } = await build(t);
  // A browser sends an action's escapes as written; the router decodes them and finds the route.
  for (const path of ['/%61dmin/v1/sheets', '/admin/v1/%73heets', '/admin/v1/sheets/']) {
    const body = new FormData();
    body.append('file', new Blob(['name\nAnn\n'], { type: 'text/csv' }), 'people.csv');
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      body,
      headers: { origin: 'https://evil.example' },
    });
    const answer = (await response.json()) as { code?: string };
    assert.deepEqual([response.status, answer.code], [403, 'cross-site-refused'], path);
  }
  assert.equal(await sheetCount(url), 0, 'nothing was created');
});

test('without an admin token, a cross-site form cannot write rows: row bodies are JSON, which needs a preflight', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'rows', columns: ['name'] },
  });
  const { id } = created.body as { id: string };
  for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
    const sent = await call(`${url}/api/v1/${id}`, {
      method: 'POST',
      body: type === 'text/plain' ? '{"name":"Eve"}' : 'name=Eve',
      headers: { 'content-type': type, origin: 'https://evil.example' },
    });
    assert.equal(sent.status, 415, type);
  }
  assert.deepEqual((await call(`${url}/api/v1/${id}`)).body, []);
});

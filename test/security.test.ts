import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { hashSecret, newApiKey, parseApiKey, sameSecret } from '../src/access/api-keys.ts';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';

const adminToken = 'test-admin-token-0123456789';
const admin = { authorization: `Bearer ${adminToken}` };

interface Secured {
  url: string;
  /** Calls the management API as the administrator. */
  manage: (path: string, init?: { method?: string; body?: unknown }) => ReturnType<typeof call>;
  store: Awaited<ReturnType<typeof build>>['store'];
}

async function secured(t: TestContext, options: Partial<AppOptions> = {}): Promise<Secured> {
  const { url, store } = await build(t, { adminToken, ...options });
  return {
    url,
    store,
    manage: (path, init = {}) => call(`${url}/admin/v1${path}`, { ...init, headers: admin }),
  };
}

async function sheet(s: Secured, settings: Record<string, unknown> = {}): Promise<string> {
  const created = await s.manage('/sheets', {
    method: 'POST',
    body: { name: 'secret', columns: ['name'], rows: [{ name: 'Ann' }] },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  if (Object.keys(settings).length > 0) {
    const patched = await s.manage(`/sheets/${id}`, { method: 'PATCH', body: settings });
    assert.equal(patched.status, 200, patched.text);
  }
  return id;
}

async function key(s: Secured, id: string, scopes: string[]): Promise<{ id: string; key: string }> {
  const created = await s.manage(`/sheets/${id}/keys`, { method: 'POST', body: { scopes } });
  assert.equal(created.status, 201, created.text);
  return created.body as { id: string; key: string };
}

function assertProblem(reply: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(reply.status, status, reply.text);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/);
  assert.equal((reply.body as { code: string }).code, code);
}

test('with an administrator token, the management API answers 401 without it', async (t) => {
  const s = await secured(t);
  const attempts: Record<string, string>[] = [
    {},
    { authorization: 'Bearer wrong-token-wrong-token' },
    { 'x-api-key': 'nope' },
  ];
  for (const headers of attempts) {
    const reply = await call(`${s.url}/admin/v1/sheets`, { headers });
    assertProblem(reply, 401, 'unauthorized');
    assert.match(reply.headers.get('www-authenticate') ?? '', /^Bearer/);
  }
  assert.equal((await s.manage('/sheets')).status, 200);
});

test('new sheets start private when a token is set; keys open them within their scopes', async (t) => {
  const s = await secured(t);
  const id = await sheet(s);
  const described = await s.manage(`/sheets/${id}`);
  assert.deepEqual((described.body as { settings: unknown }).settings, {
    deleteEnabled: true,
    access: 'private',
    allowedOrigins: [],
  });
  const rows = `${s.url}/api/v1/${id}`;
  assertProblem(await call(rows), 401, 'unauthorized');
  const reader = await key(s, id, ['read']);
  assert.match(reader.key, /^sp_/);
  assert.deepEqual(
    (await call(rows, { headers: { authorization: `Bearer ${reader.key}` } })).body,
    [{ name: 'Ann' }],
  );
  assert.equal((await call(rows, { headers: { 'x-api-key': reader.key } })).status, 200);
  const post = await call(rows, {
    method: 'POST',
    body: { name: 'Bob' },
    headers: { 'x-api-key': reader.key },
  });
  assertProblem(post, 403, 'forbidden');
  const writer = await key(s, id, ['create']);
  const posted = await call(rows, {
    method: 'POST',
    body: { name: 'Bob' },
    headers: { 'x-api-key': writer.key },
  });
  assert.equal(posted.status, 201, posted.text);
  const listed = await s.manage(`/sheets/${id}/keys`);
  assert.deepEqual(
    (listed.body as { id: string; key?: string }[]).map((k) => [k.id, k.key]),
    [
      [reader.id, undefined],
      [writer.id, undefined],
    ],
    'keys are listed without their secrets',
  );
});

test('a revoked key stops working at once, and a key of one sheet never opens another', async (t) => {
  const s = await secured(t);
  const [a, b] = [await sheet(s), await sheet(s)];
  const keyA = await key(s, a, ['read', 'create', 'update', 'delete']);
  const withKey = { 'x-api-key': keyA.key };
  assert.equal((await call(`${s.url}/api/v1/${a}`, { headers: withKey })).status, 200);
  for (const method of ['GET', 'POST', 'PATCH', 'DELETE']) {
    const query = method === 'GET' || method === 'POST' ? '' : '?_id=0';
    const body = method === 'POST' || method === 'PATCH' ? { name: 'x' } : undefined;
    const reply = await call(`${s.url}/api/v1/${b}${query}`, { method, body, headers: withKey });
    assertProblem(reply, 401, 'unauthorized');
  }
  assert.equal((await s.manage(`/sheets/${a}/keys/${keyA.id}`, { method: 'DELETE' })).status, 204);
  assertProblem(await call(`${s.url}/api/v1/${a}`, { headers: withKey }), 401, 'unauthorized');
  assertProblem(
    await s.manage(`/sheets/${a}/keys/${keyA.id}`, { method: 'DELETE' }),
    404,
    'key-not-found',
  );
});

test('without rights, an unknown sheet id answers exactly like a private sheet', async (t) => {
  const s = await secured(t);
  const id = await sheet(s);
  const other = await key(s, id, ['read']);
  const attempts: Record<string, string>[] = [{}, { 'x-api-key': other.key }];
  for (const headers of attempts) {
    const known = await call(`${s.url}/api/v1/${await sheet(s)}`, { headers });
    const unknown = await call(`${s.url}/api/v1/AAAAAAAAAAAAAAAAAAAAAA`, { headers });
    assert.equal(known.status, 401);
    assert.equal(unknown.status, known.status);
    const strip = (body: unknown) => ({ ...(body as object), instance: undefined });
    assert.deepEqual(strip(unknown.body), strip(known.body));
  }
  assertProblem(
    await call(`${s.url}/api/v1/AAAAAAAAAAAAAAAAAAAAAA`, { headers: admin }),
    404,
    'sheet-not-found',
  );
});

test('public-read sheets read without a key; writes need one', async (t) => {
  const s = await secured(t);
  const id = await sheet(s, { access: 'public-read' });
  const rows = `${s.url}/api/v1/${id}`;
  assert.equal((await call(rows)).status, 200);
  assertProblem(await call(rows, { method: 'POST', body: { name: 'x' } }), 401, 'unauthorized');
  const writer = await key(s, id, ['create']);
  assert.equal(
    (
      await call(rows, {
        method: 'POST',
        body: { name: 'x' },
        headers: { 'x-api-key': writer.key },
      })
    ).status,
    201,
  );
  const open = await sheet(s, { access: 'open' });
  assert.equal(
    (await call(`${s.url}/api/v1/${open}`, { method: 'POST', body: { name: 'y' } })).status,
    201,
  );
});

test('CORS answers preflights for the origins a sheet allows, and only those', async (t) => {
  const s = await secured(t);
  const preflight = (id: string, origin: string) =>
    fetch(`${s.url}/api/v1/${id}`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-api-key',
      },
    });
  const open = await sheet(s, { access: 'open' });
  const anyOrigin = await preflight(open, 'https://site.example');
  assert.equal(anyOrigin.status, 204);
  assert.equal(anyOrigin.headers.get('access-control-allow-origin'), '*');
  assert.match(anyOrigin.headers.get('access-control-allow-headers') ?? '', /x-api-key/);
  const closed = await sheet(s);
  assert.equal(
    (await preflight(closed, 'https://site.example')).headers.get('access-control-allow-origin'),
    null,
  );
  await s.manage(`/sheets/${closed}`, {
    method: 'PATCH',
    body: { allowedOrigins: ['https://app.example'] },
  });
  const allowed = await preflight(closed, 'https://app.example');
  assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example');
  assert.equal(
    (await preflight(closed, 'https://evil.example')).headers.get('access-control-allow-origin'),
    null,
  );
  const get = await fetch(`${s.url}/api/v1/${open}`, {
    headers: { origin: 'https://site.example' },
  });
  assert.equal(get.headers.get('access-control-allow-origin'), '*');
  assert.match(get.headers.get('access-control-expose-headers') ?? '', /etag/);
  // The answer depends on the origin and on the format asked for, and says so to caches.
  assert.match(get.headers.get('vary') ?? '', /^origin, accept$/i);
  // Without an Origin header a request is not a cross-origin one: no CORS headers, but caches
  // are told that the answer depends on the header.
  const plain = await fetch(`${s.url}/api/v1/${open}`);
  assert.equal(plain.status, 200);
  assert.equal(plain.headers.get('access-control-allow-origin'), null);
  assert.match(plain.headers.get('vary') ?? '', /^origin, accept$/i);
  const bad = await s.manage(`/sheets/${closed}`, {
    method: 'PATCH',
    body: { allowedOrigins: ['not an origin'] },
  });
  assertProblem(bad, 400, 'invalid-body');
});

test('too many requests from one address answer 429 with Retry-After and RateLimit headers', async (t) => {
  const s = await secured(t, { rateLimits: { perAddress: 5, perKey: 0 } });
  const id = await sheet(s, { access: 'open' });
  // Creating and opening the sheet took two of the five requests this minute.
  const replies = [];
  for (let i = 0; i < 4; i++) replies.push(await call(`${s.url}/api/v1/${id}`));
  assert.deepEqual(
    replies.map((r) => r.status),
    [200, 200, 200, 429],
  );
  const limited = replies[3] as Awaited<ReturnType<typeof call>>;
  assertProblem(limited, 429, 'rate-limited');
  assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(limited.headers.get('ratelimit-limit'), '5');
  assert.equal(limited.headers.get('ratelimit-remaining'), '0');
  assert.equal(replies[0]?.headers.get('ratelimit-remaining'), '2');
});

test('a key over its rate limit answers 429 while other callers go on', async (t) => {
  const s = await secured(t, { rateLimits: { perAddress: 0, perKey: 3 } });
  const id = await sheet(s);
  const reader = await key(s, id, ['read']);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push(
      (await call(`${s.url}/api/v1/${id}`, { headers: { 'x-api-key': reader.key } })).status,
    );
  }
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  const limited = await call(`${s.url}/api/v1/${id}`, { headers: { 'x-api-key': reader.key } });
  assertProblem(limited, 429, 'rate-limited');
  assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
  assert.equal(limited.headers.get('ratelimit-limit'), '3');
  assert.equal((await call(`${s.url}/api/v1/${id}`, { headers: admin })).status, 200);
});

test('each API key has a budget of its own: spending one leaves keys of this and other sheets alone', async (t) => {
  const s = await secured(t, { rateLimits: { perAddress: 1000, perKey: 3 } });
  const [a, b] = [await sheet(s), await sheet(s)];
  const [spent, sameSheet, otherSheet] = [
    await key(s, a, ['read']),
    await key(s, a, ['read']),
    await key(s, b, ['read']),
  ];
  const read = (id: string, k: { key: string }) =>
    call(`${s.url}/api/v1/${id}`, { headers: { 'x-api-key': k.key } });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await read(a, spent)).status);
  assert.deepEqual(statuses, [200, 200, 200, 429]);
  for (const [id, other, what] of [
    [b, otherSheet, 'a key of another sheet'],
    [a, sameSheet, 'another key of the same sheet'],
  ] as const) {
    const first = await read(id, other);
    assert.equal(first.status, 200, `${what}: ${first.text}`);
    assert.equal(first.headers.get('ratelimit-limit'), '3', what);
    assert.equal(first.headers.get('ratelimit-remaining'), '2', `${what} counts on its own`);
    assert.equal((await read(id, other)).headers.get('ratelimit-remaining'), '1', what);
  }
  assertProblem(await read(a, spent), 429, 'rate-limited');
});

test('the per-address limit still holds for requests that each carry a different key', async (t) => {
  const s = await secured(t, { rateLimits: { perAddress: 8, perKey: 100 } });
  const id = await sheet(s);
  const keys = [await key(s, id, ['read']), await key(s, id, ['read']), await key(s, id, ['read'])];
  // Four of the eight requests this minute went on the sheet and its keys.
  const replies = [];
  for (let i = 0; i < 5; i++) {
    const k = keys[i % keys.length] as { key: string };
    replies.push(await call(`${s.url}/api/v1/${id}`, { headers: { 'x-api-key': k.key } }));
  }
  assert.deepEqual(
    replies.map((r) => r.status),
    [200, 200, 200, 200, 429],
  );
  const last = replies[3] as Awaited<ReturnType<typeof call>>;
  assert.equal(last.headers.get('ratelimit-limit'), '8', 'the limit nearer to running out');
  assert.equal(last.headers.get('ratelimit-remaining'), '0');
  assertProblem(replies[4] as Awaited<ReturnType<typeof call>>, 429, 'rate-limited');
});

test('wrong administrator tokens count against the per-address limit on every route', async (t) => {
  for (const path of ['/admin/v1/sheets', '/metrics', '/api/v1/no-such-sheet']) {
    const s = await secured(t, { rateLimits: { perAddress: 50, perKey: 0 }, metrics: true });
    const wrong = { authorization: 'Bearer wrong-token-wrong-token' };
    const statuses = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await call(`${s.url}${path}`, { headers: wrong })).status);
    assert.deepEqual(
      [statuses.slice(0, 50).every((status) => status === 401), statuses[50]],
      [true, 429],
      `${path}: the 51st wrong guess meets the limit`,
    );
    assert.ok(
      statuses.slice(50).every((status) => status === 429),
      path,
    );
    // The right token, once the budget is spent, is refused the same way: the limit runs first.
    assertProblem(await call(`${s.url}${path}`, { headers: admin }), 429, 'rate-limited');
    // Health probes are never limited.
    assert.equal((await call(`${s.url}/healthz`)).status, 200);
  }
});

test('requests over a limit are refused whole with a problem document naming the limit', async (t) => {
  const s = await secured(t, {
    limits: { rowsPerRequest: 2, columnsPerSheet: 3, cellLength: 10, filtersPerRequest: 2 },
  });
  const id = await sheet(s, { access: 'open' });
  const rows = `${s.url}/api/v1/${id}`;
  const cases: [Promise<Awaited<ReturnType<typeof call>>>, string][] = [
    [
      call(rows, { method: 'POST', body: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
      'rowsPerRequest',
    ],
    [call(rows, { method: 'POST', body: { name: 'x'.repeat(11) } }), 'cellLength'],
    [call(`${rows}?_id=0`, { method: 'PATCH', body: { name: 'x'.repeat(11) } }), 'cellLength'],
    [call(`${rows}?name=a&name=b&name=c`), 'filtersPerRequest'],
    [
      s.manage('/sheets', { method: 'POST', body: { name: 'w', columns: ['a', 'b', 'c', 'd'] } }),
      'columnsPerSheet',
    ],
  ];
  for (const [reply, limit] of cases) {
    const answer = await reply;
    assertProblem(answer, 400, 'limit-exceeded');
    assert.equal((answer.body as { limit: string }).limit, limit);
  }
  assert.deepEqual((await call(rows)).body, [{ name: 'Ann' }], 'nothing was written');
  assert.equal(((await s.manage('/sheets')).body as unknown[]).length, 1, 'no sheet was created');
});

test('CSV export neutralises text that a spreadsheet program would run as a formula', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'csv',
      columns: ['v'],
      rows: [{ v: '=HYPERLINK("http://evil")' }, { v: '+1' }, { v: -5 }, { v: '@me' }],
    },
  });
  const { id } = created.body as { id: string };
  const csv = await call(`${url}/api/v1/${id}`, { headers: { accept: 'text/csv' } });
  assert.equal(csv.text, `v\n"'=HYPERLINK(""http://evil"")"\n'+1\n-5\n'@me\n`);
  assert.deepEqual((await call(`${url}/api/v1/${id}?_id=0`)).body, [
    { v: '=HYPERLINK("http://evil")' },
  ]);
});

test('keys are found by a non-secret id and checked by a hash compared in constant time', () => {
  const { id, secret, key, hash } = newApiKey();
  assert.deepEqual(parseApiKey(key), { id, secret });
  assert.equal(hash, hashSecret(secret));
  assert.ok(!key.includes(hash) && hash !== secret, 'only the hash is stored');
  assert.equal(sameSecret(hash, secret), true);
  assert.equal(sameSecret(hash, `${secret.slice(0, -1)}x`), false);
  assert.equal(parseApiKey('sp_short_secret'), null);
  assert.equal(parseApiKey(`${key}x`), null);
});

test('without an administrator token the server refuses to listen beyond loopback', async () => {
  const repoRoot = fileURLToPath(new URL('..', import.meta.url));
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: repoRoot,
    env: { ...env, SHEETPORT_HOST: '0.0.0.0', SHEETPORT_PORT: '0', SHEETPORT_DEMO: 'false' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 1);
  assert.match(stderr, /SHEETPORT_ADMIN_TOKEN/);
});

test('a client that never finishes its headers is cut off after the headers timeout', async (t) => {
  const { url } = await build(t, {
    timeouts: { headersMs: 1000, requestMs: 5000, keepAliveMs: 1000 },
  });
  const { port } = new URL(url);
  const socket = connect(Number(port), '127.0.0.1');
  await once(socket, 'connect');
  socket.write('GET /api/v1/x HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  const started = Date.now();
  await once(socket, 'close');
  const waited = Date.now() - started;
  assert.ok(waited < 4000, `the server held a half-sent request for ${waited} ms`);
  assert.match(answer, /^HTTP\/1\.1 408/);
});

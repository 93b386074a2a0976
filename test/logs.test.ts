import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';

const adminToken = 'log-test-admin-token-0123456789';
const admin = { authorization: `Bearer ${adminToken}` };

interface LogLine {
  msg: string;
  reqId?: string;
  sheetId?: string;
  req?: { method: string; url: string; headers: Record<string, string> };
  res?: { statusCode: number };
  responseTime?: number;
}

/** A real app logging JSON lines into memory, at info level as a server does by default. */
async function logged(t: Parameters<typeof build>[0]) {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const server = await build(t, { adminToken, logger: { level: 'info', stream } });
  /** Every line so far, once each request sent has been answered and logged. */
  const read = async (requests: number): Promise<{ text: string; entries: LogLine[] }> => {
    const completed = () => lines.filter((line) => line.includes('"request completed"')).length;
    for (let turn = 0; completed() < requests && turn < 100; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    const text = lines.join('');
    return { text, entries: lines.map((line) => JSON.parse(line) as LogLine) };
  };
  return { ...server, read };
}

test('request logs carry the sheet id and never a key, the admin token or a cookie', async (t) => {
  const { url, read } = await logged(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'logged', columns: ['name', 'note'], rows: [{ name: 'Ann' }] },
  });
  const { id } = created.body as { id: string };
  const minted = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: admin,
    body: { scopes: ['read'] },
  });
  const { key } = minted.body as { key: string };
  const cookie = 'session=cookie-secret-0123456789';
  const requests: [string, Record<string, string>][] = [
    [`/api/v1/${id}`, { 'x-api-key': key }],
    [`/api/v1/${id}?name=Ann`, { authorization: `Bearer ${key}`, cookie }],
    [`/api/v1/${id}?api_key=${key}&name=Ann`, {}],
    [`/api/v1/sheets/${id}?note=${key}`, { 'x-api-key': key }],
    [`/api/v1/${id}`, { 'x-api-key': `${key.slice(0, -1)}x` }],
    [`/admin/v1/sheets/${id}?token=${adminToken}`, { ...admin, cookie }],
    [`/admin/v1/sheets/${id}/keys?access_token=${adminToken}`, admin],
    [`/api/v1/${id}?sig=${adminToken}`, { referer: `http://localhost/page?token=${key}` }],
    [`/api/v1/${id}`, { 'x-forwarded-authorization': `Bearer ${adminToken}`, 'x-note': key }],
  ];
  for (const [path, headers] of requests) {
    const reply = await call(`${url}${path}`, { headers });
    assert.ok(reply.status < 500, `${path}: ${reply.text}`);
  }
  const { text, entries } = await read(requests.length + 2);

  for (const secret of [key, key.slice(-43), adminToken, 'cookie-secret-0123456789']) {
    assert.ok(!text.includes(secret), `the log holds a secret: ${secret.slice(0, 8)}...`);
  }
  const incoming = entries.filter((entry) => entry.msg === 'request completed');
  const aboutRequests = entries.filter((entry) => entry.reqId !== undefined);
  assert.equal(aboutRequests.length, requests.length + 2, 'one line per request, with its answer');
  assert.equal(incoming.length, requests.length + 2);
  assert.equal(new Set(incoming.map((entry) => entry.reqId)).size, incoming.length);
  for (const entry of incoming.slice(2)) {
    const url = entry.req?.url ?? '';
    assert.equal(entry.sheetId, id, `the sheet id is on the line for ${url}`);
    assert.equal(typeof entry.res?.statusCode, 'number', `and its status, ${url}`);
    assert.equal(typeof entry.responseTime, 'number', `and its time, ${url}`);
  }
  assert.deepEqual(
    incoming.map((entry) => [entry.req?.method, entry.res?.statusCode]).slice(0, 2),
    [
      ['POST', 201],
      ['POST', 201],
    ],
  );
  const headers = incoming.map((entry) => entry.req?.headers ?? {});
  assert.equal(headers[2]?.['x-api-key'], '[Redacted]', 'headers are logged, credentials replaced');
  assert.equal(headers[3]?.authorization, '[Redacted]');
  assert.equal(headers[3]?.cookie, '[Redacted]');
  assert.match(incoming[4]?.req?.url ?? '', /\?api_key=\[Redacted\]&name=Ann$/);
  assert.equal(headers[10]?.['x-forwarded-authorization'], '[Redacted]', 'named like a secret');
  assert.equal(headers[10]?.['x-note'], '[Redacted]', 'shaped like a key');
  assert.equal(incoming[0]?.sheetId, undefined, 'a request naming no sheet has no sheet id');
});

test('a key sent where the sheet id goes is redacted in the URL and in the sheetId field', async (t) => {
  const { url, read } = await logged(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'misused', columns: ['name'] },
  });
  const { id } = created.body as { id: string };
  const minted = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: admin,
    body: { scopes: ['read'] },
  });
  const { key } = minted.body as { key: string };
  const escaped = `/api/v1/sp%5F${key.slice(3)}`;
  for (const path of [
    `/api/v1/${key}`,
    `/api/v1/sheets/${key}`,
    `/api/v1/${key.slice(0, 30)}`,
    escaped,
  ]) {
    const reply = await call(`${url}${path}`, { headers: { 'x-api-key': key } });
    assert.equal(reply.status, 401, reply.text);
  }
  const { text, entries } = await read(6);
  for (const secret of [key, key.slice(-43), key.slice(0, 30)]) {
    assert.ok(!text.includes(secret), `the log holds a secret: ${secret.slice(0, 8)}...`);
  }
  const misused = entries.filter((e) => e.msg === 'request completed').slice(2);
  assert.deepEqual(
    misused.map((e) => [e.sheetId, e.req?.url]),
    [
      ['[Redacted]', '/api/v1/[Redacted]'],
      ['[Redacted]', '/api/v1/sheets/[Redacted]'],
      ['[Redacted]', '/api/v1/[Redacted]'],
      ['[Redacted]', '/api/v1/[Redacted]'],
    ],
  );
});

test('at warn no request line is written, and probes are left out at info', async (t) => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const { url } = await build(t, { adminToken, logger: { level: 'warn', stream } });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'quiet', columns: ['name'] },
  });
  assert.equal(created.status, 201);
  assert.equal((await call(`${url}/api/v1/nope`, { headers: admin })).status, 404);
  assert.deepEqual(lines, []);

  const { url: loud, read } = await logged(t);
  assert.equal((await call(`${loud}/healthz`)).status, 200);
  assert.equal((await call(`${loud}/readyz`)).status, 200);
  assert.equal((await call(`${loud}/admin/v1/sheets`, { headers: admin })).status, 200);
  const { entries } = await read(1);
  assert.deepEqual(
    entries.filter((entry) => entry.reqId !== undefined).map((entry) => entry.req?.url),
    ['/admin/v1/sheets'],
  );
});

test('at debug a line is written as each request arrives too, with the same request id', async (t) => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const { url } = await build(t, { adminToken, logger: { level: 'debug', stream } });
  assert.equal((await call(`${url}/admin/v1/sheets`, { headers: admin })).status, 200);
  for (let turn = 0; turn < 100 && !lines.some((l) => l.includes('completed')); turn++) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const entries = lines
    .map((line) => JSON.parse(line) as LogLine)
    .filter((entry) => entry.reqId !== undefined);
  assert.deepEqual(
    entries.map((entry) => [entry.msg, entry.reqId, entry.req?.url]),
    [
      ['incoming request', entries[0]?.reqId, '/admin/v1/sheets'],
      ['request completed', entries[0]?.reqId, '/admin/v1/sheets'],
    ],
  );
});

test('the line of a request answered is the line pino would write: its fields, in its order', async (t) => {
  const lines: string[] = [];
  const stream = { write: (line: string) => void lines.push(line) };
  const { url, app } = await build(t, { adminToken, logger: { level: 'debug', stream } });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'logged', columns: ['a'] },
  });
  const sheetId = (created.body as { id: string }).id;
  assert.equal((await call(`${url}/api/v1/${sheetId}?a=x`, { headers: admin })).status, 200);
  for (
    let turn = 0;
    turn < 100 && lines.filter((l) => l.includes('completed')).length < 2;
    turn++
  ) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  const [arrived, completed] = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((entry) => entry.sheetId === sheetId);
  assert.ok(arrived !== undefined && completed !== undefined);
  // pino wrote the first; the second, joined by hand, must read the same wherever they overlap.
  const asIs = app.log.child({}, { serializers: { req: (req: unknown) => req } });
  asIs.info(
    { reqId: completed.reqId, sheetId, req: completed.req, res: completed.res, responseTime: 1.5 },
    'request completed',
  );
  const byPino = JSON.parse(lines.at(-1) as string) as Record<string, unknown>;
  assert.deepEqual(Object.keys(completed), Object.keys(byPino));
  assert.deepEqual(
    { ...completed, time: 0, responseTime: 0 },
    { ...byPino, time: 0, responseTime: 0 },
  );
  assert.deepEqual(completed.req, arrived.req);
  assert.equal(typeof completed.responseTime, 'number');
  assert.equal(completed.level, 30);
});

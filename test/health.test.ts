import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, call } from './helpers/build.ts';
import { startServer } from './helpers/server-process.ts';

const adminToken = 'health-test-admin-token-0123456789';

function assertNotReady(reply: Awaited<ReturnType<typeof call>>, what: string): void {
  assert.equal(reply.status, 503, `${what}: ${reply.text}`);
  assert.match(reply.headers.get('content-type') ?? '', /^application\/problem\+json/, what);
  assert.equal((reply.body as { code: string }).code, 'not-ready', what);
}

/** Lets a test hold the readiness probe, fail it or let it answer. */
function probe() {
  const state = { failure: null as Error | null, hold: null as Promise<void> | null, calls: 0 };
  const readiness = async () => {
    state.calls++;
    if (state.hold !== null) await state.hold;
    if (state.failure !== null) throw state.failure;
  };
  return { state, readiness };
}

test('/healthz and /readyz answer without credentials, rate limit or a line in the log', async (t) => {
  const lines: string[] = [];
  const { url } = await build(t, {
    adminToken,
    rateLimits: { perAddress: 2, perKey: 0 },
    logger: { level: 'info', stream: { write: (line) => void lines.push(line) } },
  });
  for (let i = 0; i < 4; i++) {
    const health = await call(`${url}/healthz`);
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    assert.equal(health.headers.get('ratelimit-limit'), null);
    const ready = await call(`${url}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: 'ready' });
  }
  const counted = await call(`${url}/admin/v1/sheets`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  assert.equal(counted.status, 200);
  assert.equal(counted.headers.get('ratelimit-remaining'), '1', 'the probes spent no budget');
  assert.ok(lines.length > 0, 'other requests are logged');
  assert.deepEqual(
    lines.filter((line) => /healthz|readyz/.test(line)),
    [],
    'probes are not logged at info',
  );
  const listed = await call(`${url}/api/v1/healthz`);
  assert.equal(listed.status, 401, 'under the row API, healthz is a sheet id like any other');
});

test('/readyz answers 503 not-ready while the store probe fails or hangs, and 200 once it answers', async (t) => {
  const { state, readiness } = probe();
  const { url } = await build(t, {}, {}, { readiness });
  state.failure = new Error('connect ECONNREFUSED 10.0.0.5:5432');
  const failed = await call(`${url}/readyz`);
  assertNotReady(failed, 'a probe that throws');
  assert.doesNotMatch(failed.text, /ECONNREFUSED|10\.0\.0\.5/, 'the cause stays in the log');
  assert.equal((await call(`${url}/healthz`)).status, 200, 'the process still runs');
  state.failure = null;
  assert.equal((await call(`${url}/readyz`)).status, 200);
  state.hold = new Promise(() => undefined);
  assertNotReady(await call(`${url}/readyz`), 'a probe that never answers');
  assert.equal(state.calls, 3);
});

test('once the server is shutting down, /readyz answers 503 while requests are still served', async (t) => {
  const shutdown = new AbortController();
  const { url } = await build(t, {}, {}, { shutdown: shutdown.signal });
  assert.equal((await call(`${url}/readyz`)).status, 200);
  shutdown.abort();
  assertNotReady(await call(`${url}/readyz`), 'shutting down');
  assert.equal((await call(`${url}/healthz`)).status, 200);
  assert.equal((await call(`${url}/admin/v1/sheets`)).status, 200, 'requests are still served');
});

/** A connection with one request in flight, to send another once the app is closing. */
async function busyConnection(url: string) {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  let answers = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answers += chunk));
  const closed = once(socket, 'close');
  socket.write('GET /readyz HTTP/1.1\r\nHost: localhost\r\n\r\n');
  return {
    send: (path: string) => socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`),
    answers: async () => {
      await closed;
      return answers.split(/(?=HTTP\/1\.1 )/);
    },
  };
}

test('while the app closes, requests are refused with a problem document; /healthz answers', async (t: TestContext) => {
  const { state, readiness } = probe();
  let release = () => {};
  state.hold = new Promise((resolve) => (release = resolve));
  const { app, url } = await build(t, {}, {}, { readiness });
  const [refused, healthy] = [await busyConnection(url), await busyConnection(url)];
  while (state.calls < 2) await new Promise((resolve) => setImmediate(resolve));
  const closed = app.close();
  while (app.server.listening) await new Promise((resolve) => setImmediate(resolve));
  refused.send('/admin/v1/sheets');
  healthy.send('/healthz');
  release();
  const [, refusal] = await refused.answers();
  assert.match(refusal ?? '', /^HTTP\/1\.1 503 /);
  assert.match(refusal ?? '', /content-type: application\/problem\+json/i);
  assert.match(refusal ?? '', /"code":"not-ready"/);
  const [, health] = await healthy.answers();
  assert.match(health ?? '', /^HTTP\/1\.1 200 /);
  await closed;
});

test('SIGTERM turns /readyz to 503 for SHEETPORT_SHUTDOWN_DELAY_MS while serving, then exits', async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-health-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  let kill = async () => {};
  t.after(() => kill());
  const server = await startServer(
    { SHEETPORT_DATA_DIR: dataDir, SHEETPORT_SHUTDOWN_DELAY_MS: '3000' },
    (stop) => (kill = stop),
  );
  const exited = once(server.child, 'exit');
  assert.equal((await call(`${server.url}/readyz`)).status, 200);
  server.child.kill('SIGTERM');
  let ready = await call(`${server.url}/readyz`);
  for (let i = 0; ready.status === 200 && i < 50; i++) ready = await call(`${server.url}/readyz`);
  assertNotReady(ready, 'after SIGTERM');
  assert.equal((await call(`${server.url}/admin/v1/sheets`)).status, 200, 'still serving');
  assert.equal((await call(`${server.url}/healthz`)).status, 200);
  const [code] = (await exited) as [number | null];
  assert.equal(code, 0, 'the server closes by itself once the delay is over');
});

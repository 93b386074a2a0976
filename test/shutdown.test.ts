import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { startGoogleSheetsEmulator, type GoogleSheetsEmulator } from './google-emulator/index.ts';
import { call } from './helpers/build.ts';
import { runCli } from './helpers/cli.ts';
import { until } from './helpers/until.ts';
import { startServer, type RunningServer } from './helpers/server-process.ts';
import { storeSettings } from './helpers/stores.ts';

/**
 * A `sheetport serve` process over a fresh store (see stores.ts), mirroring a tab of the Google Sheets
 * emulator, with the given settings; the test ends it if it still runs.
 */
async function googleServer(t: TestContext, settings: Record<string, string>) {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const account = emulator.serviceAccount();
  const spreadsheetId = emulator.createSpreadsheet({
    tabs: [{ title: 'Log', rows: [['key']] }],
    sharedWith: [account.client_email],
  });
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-shutdown-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const kills: (() => Promise<void>)[] = [];
  t.after(() => Promise.all(kills.map((kill) => kill())));
  const server = await startServer(
    {
      ...(await storeSettings(t, dir)),
      // A line as each request arrives, so that a test can wait until writes reached the server.
      SHEETPORT_LOG_LEVEL: 'debug',
      SHEETPORT_GOOGLE_CREDENTIALS: JSON.stringify(account),
      SHEETPORT_GOOGLE_API_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_DRIVE_URL: `${emulator.url}/`,
      SHEETPORT_GOOGLE_TOKEN_URL: emulator.tokenUrl,
      ...settings,
    },
    (kill) => kills.push(kill),
  );
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'log', source: { provider: 'google', spreadsheetId }, freshnessSeconds: 3600 },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  return { emulator, spreadsheetId, server, rows: `${server.url}/api/v1/${id}` };
}

/** POSTs one row; answers its status, or null when no answer came (connection refused or cut). */
async function post(rows: string, key: string): Promise<number | null> {
  try {
    return (await call(rows, { method: 'POST', body: { key } })).status;
  } catch {
    return null;
  }
}

function spreadsheetKeys(emulator: GoogleSheetsEmulator, spreadsheetId: string): string[] {
  const [, ...rows] = emulator.rows(spreadsheetId, 'Log');
  return rows.map((row) => String(row[0]));
}

async function exited(server: RunningServer): Promise<{ code: number | null; ms: number }> {
  const started = Date.now();
  const [code] = (await once(server.child, 'exit')) as [number | null];
  return { code, ms: Date.now() - started };
}

test('SIGTERM during a burst of writes to a Google sheet: every answered write is in the spreadsheet once, every refused one is not, and the process exits 0 within the timeout', async (t) => {
  const { emulator, spreadsheetId, server, rows } = await googleServer(t, {
    SHEETPORT_SHUTDOWN_TIMEOUT: '10',
    SHEETPORT_GOOGLE_WRITES_PER_MINUTE: '100000',
  });
  emulator.latencyMs = 40;
  const answers = new Map<string, number | null>();
  let stopping: Promise<{ code: number | null; ms: number }> | null = null;
  await Promise.all(
    Array.from({ length: 12 }, async (_, writer) => {
      for (let n = 0; ; n++) {
        const key = `w${writer}-${n}`;
        const status = await post(rows, key);
        answers.set(key, status);
        if ([...answers.values()].filter((s) => s === 201).length >= 40 && stopping === null) {
          stopping = exited(server);
          server.child.kill('SIGTERM');
        }
        if (status !== 201) return;
      }
    }),
  );
  const { code, ms } = await (stopping as unknown as Promise<{ code: number | null; ms: number }>);
  assert.equal(code, 0);
  assert.ok(ms < 10_000, `exited after ${ms} ms`);

  const inSpreadsheet = spreadsheetKeys(emulator, spreadsheetId);
  const counts = new Map<string, number>();
  for (const key of inSpreadsheet) counts.set(key, (counts.get(key) ?? 0) + 1);
  for (const [key, status] of answers) {
    if (status === 201) assert.equal(counts.get(key), 1, `${key} was acknowledged`);
    else if (status !== null) {
      assert.equal(status, 503, `${key} answered ${status}`);
      assert.equal(counts.get(key), undefined, `${key} was refused`);
    }
  }
  assert.ok([...answers.values()].filter((s) => s === 201).length >= 40);
  assert.ok(
    [...answers.values()].every((s) => s === 201 || s === 503 || s === null),
    JSON.stringify([...answers]),
  );
});

test('writes still queued when the shutdown timeout runs out are refused with 503 and never reach the spreadsheet', async (t) => {
  // One Google write every 10 s: the second push waits for its turn, the writes after it queue.
  const { emulator, spreadsheetId, server, rows } = await googleServer(t, {
    SHEETPORT_SHUTDOWN_TIMEOUT: '2',
    SHEETPORT_GOOGLE_WRITES_PER_MINUTE: '6',
  });
  assert.equal(await post(rows, 'first'), 201);
  // The second write waits for its write slot; the ones after it queue behind it.
  const waiting = post(rows, 'second');
  await new Promise((resolve) => setTimeout(resolve, 200));
  const queued = ['third', 'fourth', 'fifth'].map((key) => post(rows, key));
  await new Promise((resolve) => setTimeout(resolve, 200));
  const stopping = exited(server);
  server.child.kill('SIGTERM');

  assert.deepEqual(await Promise.all([waiting, ...queued]), [503, 503, 503, 503]);
  const { code, ms } = await stopping;
  assert.equal(code, 0);
  assert.ok(ms < 3000, `exited after ${ms} ms`);
  assert.deepEqual(spreadsheetKeys(emulator, spreadsheetId), ['first']);
});

test('writes waiting behind a slow Google push, before they reach the queue, are refused with 503 before the shutdown timeout', async (t) => {
  const { emulator, spreadsheetId, server, rows } = await googleServer(t, {
    SHEETPORT_SHUTDOWN_TIMEOUT: '2',
    SHEETPORT_GOOGLE_WRITES_PER_MINUTE: '100000',
  });
  assert.equal(await post(rows, 'first'), 201);
  // The next push applies at once but its answer takes 6 s; meanwhile the sheet is marked as
  // pushing, so each write after it waits for a re-read that waits for the push.
  emulator.faultRates = { slowMs: { probability: 1, ms: 6000 }, seed: 1 };
  const slow = post(rows, 'slow');
  await until(() => emulator.stats().writes === 2, 'the slow push is applied');
  const incoming = () => server.output().split('\n').filter(isIncomingPost).length;
  const waiting = ['a', 'b', 'c', 'd', 'e'].map((key) => post(rows, key));
  await until(() => incoming() === 7, 'the five writes reached the server');
  const stopping = exited(server);
  server.child.kill('SIGTERM');

  assert.deepEqual(await Promise.all(waiting), [503, 503, 503, 503, 503]);
  const { code, ms } = await stopping;
  assert.equal(code, 0);
  assert.ok(ms < 3000, `exited after ${ms} ms`);
  // The slow push was cut off by the timeout, unanswered; it had landed.
  assert.equal(await slow, null);
  assert.deepEqual(spreadsheetKeys(emulator, spreadsheetId), ['first', 'slow']);
});

/** A log line of a row POST coming in. */
function isIncomingPost(line: string): boolean {
  return (
    line.includes('"msg":"incoming request"') && line.includes('"method":"POST","url":"/api/v1/')
  );
}

// A server that stayed up would hang the suite: the test gives up after a minute instead.
test(
  'a server that cannot listen, its port taken, ends with the error instead of hanging on its open store',
  { timeout: 60_000 },
  async (t) => {
    const taken = createNetServer();
    taken.listen(0, '127.0.0.1');
    await once(taken, 'listening');
    t.after(() => taken.close());
    const { port } = taken.address() as AddressInfo;
    const dir = await mkdtemp(join(tmpdir(), 'sheetport-taken-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const answer = await runCli(['serve'], {
      ...(await storeSettings(t, dir)),
      SHEETPORT_HOST: '127.0.0.1',
      SHEETPORT_PORT: String(port),
    });
    assert.equal(answer.code, 1);
    assert.match(answer.stderr, /EADDRINUSE/);
  },
);

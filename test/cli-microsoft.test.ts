import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { openSqliteStore } from '../src/store/open-store.ts';
import { startGraphEmulator, type GraphEmulator } from './graph-emulator/index.ts';
import { runCli } from './helpers/cli.ts';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

interface Setup {
  emulator: GraphEmulator;
  dataDir: string;
  settings: Record<string, string>;
}

async function setup(t: TestContext): Promise<Setup> {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  emulator.deviceCodeIntervalSeconds = 1;
  const app = emulator.registerApp();
  const dataDir = await mkdtemp(join(tmpdir(), 'sheetport-cli-microsoft-'));
  t.after(() => rm(dataDir, { recursive: true, force: true }));
  const settings = {
    SHEETPORT_DATA_DIR: dataDir,
    SHEETPORT_MICROSOFT_CLIENT_ID: app.clientId,
    SHEETPORT_MICROSOFT_TENANT_ID: app.tenant,
    SHEETPORT_MICROSOFT_LOGIN_URL: emulator.loginUrl,
    SHEETPORT_MICROSOFT_GRAPH_URL: emulator.graphUrl,
  };
  return { emulator, dataDir, settings };
}

/**
 * Runs `sheetport sign-in excel` and, once it printed its code, plays the person at
 * Microsoft's page: `settle` approves or declines that code.
 */
function signIn(s: Setup, settle: (userCode: string) => void) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_')),
  );
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'sign-in', 'excel'], {
    cwd: repoRoot,
    env: { ...env, SHEETPORT_DEMO: 'false', ...s.settings },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let settled = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    const code = /enter the code (\w+)/.exec(stderr)?.[1];
    if (code !== undefined && !settled) {
      settled = true;
      settle(code);
    }
  });
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

async function keptToken(dataDir: string): Promise<string | null> {
  const store = openSqliteStore({ path: join(dataDir, 'sheetport.db'), synchronous: 'normal' });
  try {
    return (await store.credentials.get('microsoft'))?.refreshToken ?? null;
  } finally {
    await store.database.close();
  }
}

test('`sheetport sign-in excel` prints the code, waits for the person, and keeps the sign-in', async (t) => {
  const s = await setup(t);
  const done = await signIn(s, (userCode) => s.emulator.approveDeviceCode(userCode));
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.stderr, /https:\/\/microsoft\.com\/devicelogin/);
  assert.equal((JSON.parse(done.stdout) as { state: string }).state, 'signed-in');
  const token = await keptToken(s.dataDir);
  assert.ok(token !== null);
  assert.ok(!done.stdout.includes(token) && !done.stderr.includes(token), 'never printed');

  const status = await runCli(['sign-in-status', 'excel'], s.settings);
  assert.equal(status.code, 0, status.stderr);
  assert.equal((JSON.parse(status.stdout) as { state: string }).state, 'signed-in');

  const out = await runCli(['sign-out', 'excel'], s.settings);
  assert.equal(out.code, 0, out.stderr);
  assert.match(out.stderr, /signed out/);
  assert.deepEqual(JSON.parse(out.stdout), { state: 'signed-out' });
  assert.equal(await keptToken(s.dataDir), null);
});

test('`sheetport sign-in excel` exits 1 when the person declines, keeping nothing', async (t) => {
  const s = await setup(t);
  const done = await signIn(s, (userCode) => s.emulator.declineDeviceCode(userCode));
  assert.equal(done.code, 1);
  assert.match(done.stderr, /sign-in failed: The sign-in was declined/);
  assert.equal(await keptToken(s.dataDir), null);
});

test('`sheetport sign-in excel` without an application id says which setting is missing', async (t) => {
  const s = await setup(t);
  const settings = { ...s.settings };
  delete (settings as Partial<typeof settings>).SHEETPORT_MICROSOFT_CLIENT_ID;
  const done = await runCli(['sign-in', 'excel'], settings);
  assert.equal(done.code, 1);
  assert.match(done.stderr, /SHEETPORT_MICROSOFT_CLIENT_ID/);
  const unknown = await runCli(['sign-in'], s.settings);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /Usage/);
});

test('`sheetport sign-in` of a provider offering no sign-in, or unknown, names those that do', async (t) => {
  const s = await setup(t);
  for (const provider of ['google', 'dropbox']) {
    const done = await runCli(['sign-in', provider], s.settings);
    assert.equal(done.code, 1);
    assert.match(done.stderr, /the providers one signs in to are "excel"/);
  }
});

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, type Config } from '../src/config/config.ts';
import { ConfigError } from '../src/errors/config-error.ts';
import { prettifierFor, type LogFormatSetting } from '../src/logs/log-format.ts';

const repoRoot = new URL('..', import.meta.url).pathname;

/** The settings named in `expected`, so that a setting added later does not break these tests. */
function settings(config: Config, expected: Partial<Config>): Partial<Config> {
  return Object.fromEntries(
    Object.keys(expected).map((key) => [key, config[key as keyof Config]]),
  ) as Partial<Config>;
}

test('with no SHEETPORT_ variables set every setting takes its documented default', () => {
  const defaults: Partial<Config> = {
    host: '127.0.0.1',
    port: 8080,
    dataDir: './data',
    bodyLimit: 1_048_576,
    uploadLimit: 104_857_600,
    cacheSize: 67_108_864,
    sync: 'full',
    demo: true,
    logLevel: 'info',
    logFormat: 'auto',
    shutdownDelayMs: 0,
    shutdownTimeoutMs: 30_000,
    metrics: false,
    webhookAllowPrivate: false,
    databaseConnectTimeoutMs: 5000,
    allowedHosts: [],
  };
  assert.deepEqual(settings(loadConfig({}), defaults), defaults);
});

test('every SHEETPORT_ variable is read and converted to its type', () => {
  const expected: Partial<Config> = {
    host: '0.0.0.0',
    port: 9000,
    dataDir: '/var/lib/sheetport',
    bodyLimit: 2048,
    uploadLimit: 4096,
    cacheSize: 0,
    sync: 'normal',
    demo: false,
    logLevel: 'warn',
    logFormat: 'json',
    shutdownDelayMs: 15_000,
    shutdownTimeoutMs: 2500,
    metrics: true,
    webhookAllowPrivate: true,
    allowedHosts: ['sheets.lan', 'box.local', '[fd00::1]'],
  };
  const config = loadConfig({
    SHEETPORT_HOST: '0.0.0.0',
    SHEETPORT_PORT: '9000',
    SHEETPORT_DATA_DIR: '/var/lib/sheetport',
    SHEETPORT_BODY_LIMIT: '2048',
    SHEETPORT_UPLOAD_LIMIT: '4096',
    SHEETPORT_CACHE_SIZE: '0',
    SHEETPORT_SYNC: 'normal',
    SHEETPORT_DEMO: 'false',
    SHEETPORT_LOG_LEVEL: 'warn',
    SHEETPORT_LOG_FORMAT: 'json',
    SHEETPORT_SHUTDOWN_DELAY_MS: '15000',
    SHEETPORT_SHUTDOWN_TIMEOUT: '2.5',
    SHEETPORT_METRICS: 'true',
    SHEETPORT_WEBHOOK_ALLOW_PRIVATE: 'true',
    SHEETPORT_ALLOWED_HOSTS: 'Sheets.LAN, box.local:8080,[fd00::1]:9000,',
  });
  assert.deepEqual(settings(config, expected), expected);
});

test("SHEETPORT_GOOGLE_DRIVE_URL is Drive's own root by default, and any root given ends in a slash", () => {
  assert.equal(loadConfig({}).google.driveUrl, 'https://www.googleapis.com/');
  const config = loadConfig({ SHEETPORT_GOOGLE_DRIVE_URL: 'http://127.0.0.1:9100' });
  assert.equal(config.google.driveUrl, 'http://127.0.0.1:9100/');
});

test("the Microsoft settings: unset credentials, Microsoft's own roots by default, any root given ends in a slash", () => {
  assert.deepEqual(loadConfig({}).microsoft, {
    tenantId: undefined,
    clientId: undefined,
    clientSecret: undefined,
    loginUrl: 'https://login.microsoftonline.com/',
    graphUrl: 'https://graph.microsoft.com/v1.0/',
    deadlineMs: 30_000,
    writesPerMinute: 120,
  });
  const config = loadConfig({
    SHEETPORT_MICROSOFT_TENANT_ID: 'contoso.onmicrosoft.com',
    SHEETPORT_MICROSOFT_CLIENT_ID: '00000000-0000-0000-0000-000000000001',
    SHEETPORT_MICROSOFT_CLIENT_SECRET: 'secret~value',
    SHEETPORT_MICROSOFT_LOGIN_URL: 'http://127.0.0.1:9200',
    SHEETPORT_MICROSOFT_GRAPH_URL: 'http://127.0.0.1:9200/v1.0',
    SHEETPORT_MICROSOFT_DEADLINE_MS: '5000',
    SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: '30',
  });
  assert.deepEqual(config.microsoft, {
    tenantId: 'contoso.onmicrosoft.com',
    clientId: '00000000-0000-0000-0000-000000000001',
    clientSecret: 'secret~value',
    loginUrl: 'http://127.0.0.1:9200/',
    graphUrl: 'http://127.0.0.1:9200/v1.0/',
    deadlineMs: 5000,
    writesPerMinute: 30,
  });
});

test('watching is on every 10 s by default; SHEETPORT_WATCH_INTERVAL_SECONDS=0 turns it off', () => {
  assert.deepEqual(loadConfig({}).watch, { intervalMs: 10_000 });
  assert.equal(loadConfig({}).google.readsPerMinute, 60);
  const config = loadConfig({
    SHEETPORT_WATCH_INTERVAL_SECONDS: '30',
    SHEETPORT_GOOGLE_READS_PER_MINUTE: '300',
  });
  assert.deepEqual(config.watch, { intervalMs: 30_000 });
  assert.equal(config.google.readsPerMinute, 300);
  assert.equal(loadConfig({ SHEETPORT_WATCH_INTERVAL_SECONDS: '0' }).watch, null);
});

test('variables without the SHEETPORT_ prefix are ignored', () => {
  const config = loadConfig({ PORT: '1234', HOST: '10.0.0.1', SYNC: 'maybe' });
  assert.equal(config.port, 8080);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.sync, 'full');
});

test('a bad value is refused with a ConfigError naming the variable', () => {
  const cases: [string, string][] = [
    ['SHEETPORT_PORT', 'abc'],
    ['SHEETPORT_PORT', '70000'],
    ['SHEETPORT_PORT', '-1'],
    ['SHEETPORT_PORT', '80.5'],
    ['SHEETPORT_SYNC', 'maybe'],
    ['SHEETPORT_DEMO', 'nope'],
    ['SHEETPORT_BODY_LIMIT', '10'],
    ['SHEETPORT_BODY_LIMIT', 'lots'],
    ['SHEETPORT_UPLOAD_LIMIT', '1023'],
    ['SHEETPORT_CACHE_SIZE', '-1'],
    ['SHEETPORT_LOG_LEVEL', 'loud'],
    ['SHEETPORT_LOG_FORMAT', 'yaml'],
    ['SHEETPORT_LOG_FORMAT', 'PRETTY'],
    ['SHEETPORT_SHUTDOWN_DELAY_MS', '-1'],
    ['SHEETPORT_SHUTDOWN_DELAY_MS', '600000'],
    ['SHEETPORT_SHUTDOWN_TIMEOUT', '-1'],
    ['SHEETPORT_SHUTDOWN_TIMEOUT', 'soon'],
    ['SHEETPORT_METRICS', 'yes please'],
    ['SHEETPORT_WEBHOOK_ALLOW_PRIVATE', 'maybe'],
    ['SHEETPORT_HOST', ''],
    ['SHEETPORT_ALLOWED_HOSTS', 'https://sheets.lan/'],
    ['SHEETPORT_ALLOWED_HOSTS', 'a b;c'],
    ['SHEETPORT_ALLOWED_HOSTS', 'sheets.lan, a b'],
    ['SHEETPORT_ALLOWED_HOSTS', 'localhost:80:80'],
    ['SHEETPORT_DATABASE_CONNECT_TIMEOUT_MS', '0'],
    ['SHEETPORT_DATABASE_CONNECT_TIMEOUT_MS', 'soon'],
    ['SHEETPORT_GOOGLE_DRIVE_URL', 'www.googleapis.com'],
    ['SHEETPORT_WATCH_INTERVAL_SECONDS', '2'],
    ['SHEETPORT_WATCH_INTERVAL_SECONDS', '-1'],
    ['SHEETPORT_WATCH_INTERVAL_SECONDS', 'often'],
    ['SHEETPORT_GOOGLE_READS_PER_MINUTE', '0'],
    ['SHEETPORT_MICROSOFT_TENANT_ID', 'contoso/../x'],
    ['SHEETPORT_MICROSOFT_LOGIN_URL', 'login.microsoftonline.com'],
    ['SHEETPORT_MICROSOFT_GRAPH_URL', 'graph.microsoft.com'],
    ['SHEETPORT_MICROSOFT_DEADLINE_MS', '10'],
    ['SHEETPORT_MICROSOFT_WRITES_PER_MINUTE', '0'],
  ];
  for (const [name, value] of cases) {
    assert.throws(
      () => loadConfig({ [name]: value }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError, `${name}=${value} throws a ConfigError`);
        assert.match(error.message, new RegExp(`\\b${name}\\b`), `${name}=${value}`);
        return true;
      },
      `${name}=${JSON.stringify(value)} is refused`,
    );
  }
});

test('the event settings: seven days of history, 1 MiB unsent, 10 streams per address and 2000 per server by default; each read and checked', () => {
  assert.deepEqual(loadConfig({}).events, {
    retentionMs: 604_800_000,
    pruneIntervalMs: 60_000,
    heartbeatMs: 15_000,
    recheckMs: 5000,
    maxUnsentBytes: 1_048_576,
    streamsPerAddress: 10,
    streamsPerServer: 2000,
  });
  const set = loadConfig({
    SHEETPORT_EVENT_RETENTION_SECONDS: '30',
    SHEETPORT_EVENT_PRUNE_INTERVAL_SECONDS: '5',
    SHEETPORT_EVENT_STREAM_RECHECK_SECONDS: '2',
    SHEETPORT_EVENT_STREAM_MAX_UNSENT: '65536',
    SHEETPORT_EVENT_STREAMS_PER_ADDRESS: '3',
    SHEETPORT_EVENT_STREAMS_MAX: '50',
  }).events;
  assert.deepEqual(set, {
    retentionMs: 30_000,
    pruneIntervalMs: 5000,
    heartbeatMs: 15_000,
    recheckMs: 2000,
    maxUnsentBytes: 65_536,
    streamsPerAddress: 3,
    streamsPerServer: 50,
  });
  for (const [name, value] of [
    ['SHEETPORT_EVENT_RETENTION_SECONDS', '0'],
    ['SHEETPORT_EVENT_RETENTION_SECONDS', 'a week'],
    ['SHEETPORT_EVENT_PRUNE_INTERVAL_SECONDS', '0'],
    ['SHEETPORT_EVENT_STREAM_RECHECK_SECONDS', '0'],
    ['SHEETPORT_EVENT_STREAM_MAX_UNSENT', '100'],
    ['SHEETPORT_EVENT_STREAMS_PER_ADDRESS', '0'],
    ['SHEETPORT_EVENT_STREAMS_MAX', '-5'],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), new RegExp(`\\b${name}\\b`));
  }
});

test('the Idempotency-Key bounds: 10,000 live keys per credential, 1,000 per address, 4 KiB problems, pruned 500 at a time; each read and checked', () => {
  assert.deepEqual(loadConfig({}).idempotency, {
    keysPerCredential: 10_000,
    keysPerAddress: 1000,
    maxProblemBytes: 4096,
    pruneBatch: 500,
  });
  assert.deepEqual(
    loadConfig({
      SHEETPORT_IDEMPOTENCY_KEYS_PER_CREDENTIAL: '0',
      SHEETPORT_IDEMPOTENCY_KEYS_PER_ADDRESS: '20',
      SHEETPORT_IDEMPOTENCY_MAX_PROBLEM_BYTES: '1024',
      SHEETPORT_IDEMPOTENCY_PRUNE_BATCH: '50',
    }).idempotency,
    { keysPerCredential: 0, keysPerAddress: 20, maxProblemBytes: 1024, pruneBatch: 50 },
  );
  for (const [name, value] of [
    ['SHEETPORT_IDEMPOTENCY_KEYS_PER_CREDENTIAL', '-1'],
    ['SHEETPORT_IDEMPOTENCY_KEYS_PER_ADDRESS', 'many'],
    ['SHEETPORT_IDEMPOTENCY_MAX_PROBLEM_BYTES', '100'],
    ['SHEETPORT_IDEMPOTENCY_PRUNE_BATCH', '0'],
  ] as const) {
    assert.throws(() => loadConfig({ [name]: value }), new RegExp(`\\b${name}\\b`));
  }
});

test('a provider endpoint over plain HTTP is refused, saying why, unless on loopback or explicitly allowed', () => {
  const names = [
    'SHEETPORT_GOOGLE_API_URL',
    'SHEETPORT_GOOGLE_DRIVE_URL',
    'SHEETPORT_GOOGLE_TOKEN_URL',
    'SHEETPORT_MICROSOFT_LOGIN_URL',
    'SHEETPORT_MICROSOFT_GRAPH_URL',
  ];
  for (const name of names) {
    assert.throws(
      () => loadConfig({ [name]: 'http://graph.internal:8080/v1.0/' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes(name) &&
        /plain HTTP/.test(error.message) &&
        error.message.includes('SHEETPORT_ALLOW_PLAIN_HTTP_ENDPOINTS'),
      name,
    );
    for (const local of [
      'http://127.0.0.1:9200/',
      'http://localhost:9200/',
      'http://[::1]:9200/',
    ]) {
      assert.doesNotThrow(() => loadConfig({ [name]: local }), `${name}=${local}`);
    }
    assert.doesNotThrow(() => loadConfig({ [name]: 'https://proxy.internal/' }));
    const allowed = loadConfig({
      [name]: 'http://emulator.lan:9200/',
      SHEETPORT_ALLOW_PLAIN_HTTP_ENDPOINTS: 'true',
    });
    assert.ok(JSON.stringify(allowed).includes('http://emulator.lan:9200/'));
  }
});

test('the message for a value outside a fixed list names the values allowed', () => {
  assert.throws(() => loadConfig({ SHEETPORT_SYNC: 'maybe' }), /full.*normal/);
});

test('SHEETPORT_LOG_FORMAT: pretty on a terminal by default, JSON lines otherwise or when asked', () => {
  const prettifier = '/modules/pino-pretty/index.js';
  const cases: [LogFormatSetting, boolean, string | null, string | undefined][] = [
    ['auto', true, prettifier, prettifier],
    ['auto', false, prettifier, undefined],
    ['auto', true, null, undefined],
    ['pretty', false, prettifier, prettifier],
    ['json', true, prettifier, undefined],
  ];
  for (const [setting, terminal, installed, expected] of cases) {
    assert.equal(prettifierFor(setting, terminal, installed), expected, `${setting} ${terminal}`);
  }
});

test('SHEETPORT_LOG_FORMAT=pretty without pino-pretty installed is refused with a message saying so', () => {
  assert.throws(
    () => prettifierFor('pretty', true, null),
    (error: unknown) =>
      error instanceof ConfigError &&
      /SHEETPORT_LOG_FORMAT/.test(error.message) &&
      /pino-pretty/.test(error.message),
  );
});

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child CLI: this process's, minus any SHEETPORT_ settings, plus `env`. */
function cliEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !name.startsWith('SHEETPORT_'));
  return { ...Object.fromEntries(inherited), ...env };
}

function runCli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: repoRoot,
      env: cliEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

async function tempDir(t: TestContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-cli-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('`sheetport serve` with SHEETPORT_PORT=abc exits non-zero, naming the variable on stderr', async (t) => {
  const dataDir = await tempDir(t);
  const run = await runCli(['serve'], { SHEETPORT_PORT: 'abc', SHEETPORT_DATA_DIR: dataDir });
  assert.notEqual(run.code, 0, run.stderr);
  assert.notEqual(run.code, null, 'the process exits by itself rather than being killed');
  assert.match(run.stderr, /SHEETPORT_PORT must be integer/);
  assert.doesNotMatch(run.stdout, /Server listening/);
});

/**
 * Starts `sheetport serve` on a free port and resolves with its address once it logs that it
 * listens; the process is stopped with SIGTERM when the test ends.
 */
async function serveCli(t: TestContext, env: Record<string, string>): Promise<string> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
    cwd: repoRoot,
    env: cliEnv({ SHEETPORT_PORT: '0', SHEETPORT_LOG_LEVEL: 'info', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  });
  const lines = createInterface({ input: child.stdout });
  const address = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match?.[1] !== undefined) resolve(match[1]);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  return address;
}

test('`sheetport import` prints the new sheet as one JSON line, and `sheetport serve` on that data directory serves it', async (t) => {
  const dataDir = await tempDir(t);
  const run = await runCli(['import', 'test/fixtures/people.csv', '--name', 'ppl'], {
    SHEETPORT_DATA_DIR: dataDir,
  });
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 1, run.stdout);
  const printed = JSON.parse(lines[0] ?? '') as { id: string; name: string; rowCount: number };
  // people.csv is read with the decimal point, and its `code` column holds codes (007).
  assert.deepEqual(Object.keys(printed).sort(), [
    'decimal',
    'id',
    'name',
    'rowCount',
    'textColumns',
  ]);
  assert.equal(printed.name, 'ppl');
  assert.equal(printed.rowCount, 4);
  assert.match(printed.id, /^[A-Za-z0-9_-]{16,}$/);
  assert.match(run.stderr, /imported 4 rows/);

  const url = await serveCli(t, { SHEETPORT_DATA_DIR: dataDir, SHEETPORT_DEMO: 'false' });
  const sheets = (await (await fetch(`${url}/admin/v1/sheets`)).json()) as {
    id: string;
    name: string;
    rowCount: number;
    source: unknown;
  }[];
  assert.equal(sheets.length, 1);
  assert.equal(sheets[0]?.id, printed.id);
  assert.equal(sheets[0]?.name, 'ppl');
  assert.equal(sheets[0]?.rowCount, 4);
  assert.deepEqual(sheets[0]?.source, {
    provider: 'upload',
    fileName: 'people.csv',
    format: 'csv',
    delimiter: ',',
    encoding: 'utf-8',
    decimal: '.',
  });
  const rows = (await (await fetch(`${url}/api/v1/${printed.id}?_id=0`)).json()) as unknown[];
  assert.deepEqual(rows, [
    {
      name: 'Ann',
      age: 31,
      code: '007',
      price: 1.5,
      plus: '+5',
      sci: '1e3',
      amount: '1,000',
      phone: '+1 555 0100',
      note: 'Lisbon, Portugal',
      Straße: 'Rua Augusta',
    },
  ]);
});

test('`sheetport import` of a workbook with --tab imports that worksheet, named after the file', async (t) => {
  const dataDir = await tempDir(t);
  const run = await runCli(['import', 'test/fixtures/workbook.xlsx', '--tab', 'Budget'], {
    SHEETPORT_DATA_DIR: dataDir,
  });
  assert.equal(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as { name: string; rowCount: number };
  assert.equal(printed.name, 'workbook');
  assert.equal(printed.rowCount, 2);
});

test('`sheetport import` of a file with a bad header exits 1 naming the cell, and creates no sheet', async (t) => {
  const dataDir = await tempDir(t);
  const run = await runCli(['import', 'test/fixtures/bad-header-duplicate.csv'], {
    SHEETPORT_DATA_DIR: dataDir,
  });
  assert.equal(run.code, 1);
  assert.match(run.stderr, /C1/);
  assert.equal(run.stdout, '');

  const url = await serveCli(t, { SHEETPORT_DATA_DIR: dataDir, SHEETPORT_DEMO: 'false' });
  assert.deepEqual(await (await fetch(`${url}/admin/v1/sheets`)).json(), []);
});

test('`sheetport serve` with SHEETPORT_DEMO=true starts with the demo sheet "people"', async (t) => {
  const dataDir = await tempDir(t);
  const url = await serveCli(t, { SHEETPORT_DATA_DIR: dataDir, SHEETPORT_DEMO: 'true' });
  const sheets = (await (await fetch(`${url}/admin/v1/sheets`)).json()) as {
    name: string;
    columns: string[];
    rowCount: number;
  }[];
  assert.deepEqual(
    sheets.map((s) => [s.name, s.columns, s.rowCount]),
    [['people', ['name', 'email', 'age', 'city', 'member'], 5]],
  );
});

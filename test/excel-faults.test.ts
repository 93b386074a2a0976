/**
 * Graph failing: throttled, unavailable, answers lost before or after the write applied, writes
 * held and applied late; and connecting what cannot be connected. The checks are on what the
 * client heard and on the worksheet and the copy afterwards.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from './helpers/build.ts';
import { bothSides, connectPeople, excelApp, patchKimWhileInserting } from './helpers/excel.ts';

/** A range PATCH: at an address, or (an append) at one of its names. */
const patch = { method: 'PATCH', path: '/range' };

test('429 and 503 with Retry-After are absorbed: the write waits, is sent again and lands once', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  excel.emulator.resetRequests();
  excel.emulator.failNext(2, { status: 429, retryAfterSeconds: 1, match: patch });
  excel.emulator.failNext(1, { status: 503, retryAfterSeconds: 1, match: patch });
  const answer = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Eve' } });
  assert.equal(answer.status, 201, answer.text);
  const writes = excel.emulator.requests().filter((r) => r.method === 'PATCH');
  assert.deepEqual(
    writes.map((r) => r.status),
    [429, 429, 503, 200],
  );
  for (let i = 1; i < writes.length; i++) {
    const gap = (writes[i]?.at ?? 0) - (writes[i - 1]?.at ?? 0);
    assert.ok(gap >= 1000, `attempt ${i} came ${gap} ms after the one before`);
  }
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => row.name),
    ['Ann', 'Bob', 'Kim', 'Lee', 'Max', 'Eve'],
  );
});

test('when Graph keeps refusing past the deadline, the client gets 429 or 503 and nothing changes', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 1500 } });
  const id = await connectPeople(excel);
  const before = await bothSides(excel, id);
  for (const [status, code] of [
    [429, 'provider-rate-limited'],
    [503, 'upstream-unavailable'],
  ] as const) {
    excel.emulator.failNext(1000, { status, retryAfterSeconds: 1, match: patch });
    const answer = await call(`${excel.url}/api/v1/${id}`, {
      method: 'POST',
      body: [{ name: 'Lost?' }, { name: 'Lost too?' }],
    });
    assert.equal(answer.status, status, answer.text);
    assert.equal((answer.body as { code: string }).code, code);
    assert.match(answer.headers.get('retry-after') ?? '', /^[1-9][0-9]*$/);
    excel.emulator.clearFaults();
    assert.deepEqual(await bothSides(excel, id), before);
  }
});

test('a fault before the write applied, and one after it (answer lost): each write is in the worksheet once', async (t) => {
  const excel = await excelApp(t);
  const id = await connectPeople(excel);
  // An append is one `$batch`: its rows inserted, then written.
  excel.emulator.failNext(1, {
    when: 'before',
    mode: 'reset',
    match: { only: 'batch', holding: '/insert' },
  });
  const first = await call(`${excel.url}/api/v1/${id}`, { method: 'POST', body: { name: 'Ivy' } });
  assert.equal(first.status, 201, first.text);
  excel.emulator.failNext(1, { when: 'after', mode: 'reset', match: patch });
  const second = await call(`${excel.url}/api/v1/${id}?name=Bob`, { method: 'DELETE' });
  assert.equal(second.status, 200, second.text);
  excel.emulator.failNext(1, {
    when: 'after',
    mode: 'reset',
    match: { method: 'POST', path: '/delete' },
  });
  const third = await call(`${excel.url}/api/v1/${id}?name=Kim`, { method: 'DELETE' });
  assert.deepEqual(third.body, { deleted: 1 }, third.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => row.name),
    ['Ann', 'Lee', 'Max', 'Ivy'],
  );
});

test('a write Graph holds and applies after Sheetport gave up on it cannot land a second time', async (t) => {
  const excel = await excelApp(t, { settings: { deadlineMs: 6000 } });
  const id = await connectPeople(excel);
  excel.emulator.failNext(1, { mode: 'late', match: { method: 'POST', path: '/delete' } });
  const answer = await call(`${excel.url}/api/v1/${id}?_id=0`, { method: 'DELETE' });
  assert.deepEqual(answer.body, { deleted: 1 }, answer.text);
  assert.equal(excel.emulator.applyHeld(), 1);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => row.name),
    ['Bob', 'Kim', 'Lee', 'Max'],
    'the held delete of row 2 did not remove Bob',
  );
});

test('connecting what cannot be connected answers a problem naming what was wrong, and makes no sheet', async (t) => {
  const excel = await excelApp(t);
  const text = excel.emulator.createFile({
    tenant: excel.app.tenant,
    name: 'notes.txt',
    mimeType: 'text/plain',
  });
  const ids = { drive: excel.ref.driveId, item: excel.ref.itemId };
  const cases: [Record<string, unknown>, number, string, RegExp][] = [
    [{ ...ids, item: '01NOPE' }, 404, 'spreadsheet-not-found', /01NOPE/],
    [
      { drive: text.driveId, item: text.itemId },
      400,
      'not-a-spreadsheet',
      /notes\.txt.*not an Excel workbook/,
    ],
    [{ ...ids, tab: 'Nope' }, 404, 'tab-not-found', /no worksheet "Nope".*"People", "Other"/],
    [
      { link: 'https://contoso.sharepoint.com/:x:/s/team/unknown' },
      404,
      'spreadsheet-not-found',
      /unknown/,
    ],
    [{ link: 'http://insecure.example/x' }, 400, 'invalid-body', /sharing link/],
    [{ ...ids, link: 'https://contoso.sharepoint.com/x' }, 400, 'invalid-body', /not both/],
    [{ drive: ids.drive }, 400, 'invalid-body', /"drive" and "item"/],
  ];
  for (const [source, status, code, detail] of cases) {
    const answer = await call(`${excel.url}/admin/v1/sheets`, {
      method: 'POST',
      body: { source: { provider: 'excel', ...source } },
    });
    assert.equal(answer.status, status, `${JSON.stringify(source)}: ${answer.text}`);
    const problem = answer.body as { code: string; detail: string };
    assert.equal(problem.code, code, JSON.stringify(source));
    assert.match(problem.detail, detail);
  }
  assert.deepEqual((await call(`${excel.url}/admin/v1/sheets`)).body, []);
});

for (const wrong of ['tenant', 'client id', 'client secret'] as const) {
  test(`a wrong ${wrong} is reported as rejected credentials naming the ${wrong}`, async (t) => {
    const excel = await excelApp(t, {
      settings: {
        ...(wrong === 'tenant' && { tenantId: 'nowhere.onmicrosoft.com' }),
        ...(wrong === 'client id' && { clientId: '00000000-0000-0000-0000-00000000dead' }),
        ...(wrong === 'client secret' && { clientSecret: 'not-the-secret' }),
      },
    });
    const answer = await call(`${excel.url}/admin/v1/sheets`, {
      method: 'POST',
      body: { source: { provider: 'excel', drive: excel.ref.driveId, item: excel.ref.itemId } },
    });
    assert.equal(answer.status, 502, answer.text);
    const problem = answer.body as { code: string; detail: string };
    assert.equal(problem.code, 'provider-credentials-rejected');
    const variable = {
      tenant: 'TENANT_ID',
      'client id': 'CLIENT_ID',
      'client secret': 'CLIENT_SECRET',
    }[wrong];
    assert.match(problem.detail, new RegExp(`SHEETPORT_MICROSOFT_${variable}`));
  });
}

test('a tenant that refuses app-only tokens on the workbook API answers 403 spreadsheet-forbidden saying what to grant', async (t) => {
  const excel = await excelApp(t);
  excel.emulator.appTokensOpenWorkbooks = false;
  const answer = await call(`${excel.url}/admin/v1/sheets`, {
    method: 'POST',
    body: { source: { provider: 'excel', drive: excel.ref.driveId, item: excel.ref.itemId } },
  });
  assert.equal(answer.status, 403, answer.text);
  const problem = answer.body as { code: string; detail: string };
  assert.equal(problem.code, 'spreadsheet-forbidden');
  assert.match(problem.detail, /Files\.ReadWrite\.All.*sign in as a user/);
});

test('a person inserts a row right after the check before the write: the push sees it and the update lands on the row it chose', async (t) => {
  // The check's cTag probe answers "unchanged"; then, before the push, a row goes in above Kim.
  const { excel, id, answer } = await patchKimWhileInserting(t, (excel, insert) =>
    excel.emulator.afterNext('read', insert),
  );
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  const { api, sheet } = await bothSides(excel, id);
  assert.deepEqual(api, sheet);
  assert.deepEqual(
    sheet.map((row) => [row.name, row.age]),
    [
      ['Ann', 31],
      ['New', 1],
      ['Bob', 27],
      ['Kim', 41],
      ['Lee', 22],
      ['Max', 50],
    ],
  );
});

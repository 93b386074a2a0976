import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp } from '../src/app.ts';
import { registryOf } from '../src/providers/providers.ts';
import { openPostgresStore } from '../src/store/open-store.ts';
import { guardAnswers } from './helpers/answer-guard.ts';
import { call } from './helpers/build.ts';
import { connect, setup, type Setup } from './helpers/google.ts';
import { backend } from './helpers/stores.ts';

type Problem = { code: string; sheet?: { id: string; name: string }; sheets?: unknown[] };

function connectBody(google: Setup, tab: string, name = 'again') {
  return { name, source: { provider: 'google', spreadsheetId: google.spreadsheetId, tab } };
}

async function sheetCount(url: string): Promise<number> {
  return ((await call(`${url}/admin/v1/sheets`)).body as unknown[]).length;
}

test('connecting a tab a sheet already mirrors answers 409 already-connected naming that sheet', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const again = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: connectBody(google, 'People'),
  });
  assert.equal(again.status, 409, again.text);
  const problem = again.body as Problem;
  assert.equal(problem.code, 'already-connected');
  assert.deepEqual(problem.sheet, { id, name: 'crm' });
  assert.equal(await sheetCount(google.url), 1);
  // Another tab of the same spreadsheet is still free.
  const other = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: connectBody(google, 'Other'),
  });
  assert.equal(other.status, 201, other.text);
});

test('tab "*" skips the tabs already connected, naming their sheets, and answers 409 when every tab is', async (t) => {
  const google = await setup(t);
  const id = await connect(google);
  const every = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: connectBody(google, '*', 'crm'),
  });
  assert.equal(every.status, 201, every.text);
  const made = every.body as { sheets: { name: string }[]; skipped: unknown[] };
  assert.deepEqual(
    made.sheets.map((sheet) => sheet.name),
    ['crm / Other'],
  );
  assert.deepEqual(made.skipped, [
    {
      tab: 'People',
      reason: `Already connected as sheet "crm" (${id}).`,
      sheet: { id, name: 'crm' },
    },
  ]);
  const again = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: connectBody(google, '*', 'crm'),
  });
  assert.equal(again.status, 409, again.text);
  assert.equal((again.body as Problem).code, 'already-connected');
  assert.equal((again.body as Problem).sheets?.length, 2);
  assert.equal(await sheetCount(google.url), 2);
});

test('concurrent connects of one tab: one 201, the others 409', async (t) => {
  const google = await setup(t);
  const answers = await Promise.all(
    Array.from({ length: 4 }, (_, i) =>
      call(`${google.url}/admin/v1/sheets`, {
        method: 'POST',
        body: connectBody(google, 'People', `crm${i}`),
      }),
    ),
  );
  assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409, 409, 409]);
  assert.equal(await sheetCount(google.url), 1);
});

test(
  'two servers on one PostgreSQL connecting one tab at once: one 201, one 409',
  { skip: backend !== 'postgres' && 'one server per SQLite file' },
  async (t) => {
    const google = await setup(t);
    const connectionString = google.env.SHEETPORT_DATABASE_URL ?? '';
    const store = await openPostgresStore({ connectionString, poolSize: 3 });
    const second = await createApp(
      { store, providers: registryOf({ google: google.google }) },
      { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
    );
    guardAnswers(t, second);
    const secondUrl = await second.listen({ host: '127.0.0.1', port: 0 });
    t.after(async () => {
      await second.close();
      await store.database.close();
    });
    for (let round = 0; round < 3; round++) {
      const tab = round === 0 ? 'People' : 'Other';
      if (round === 2) {
        for (const sheet of (await call(`${google.url}/admin/v1/sheets`)).body as { id: string }[])
          await call(`${google.url}/admin/v1/sheets/${sheet.id}`, { method: 'DELETE' });
      }
      const answers = await Promise.all(
        [google.url, secondUrl].map((url) =>
          call(`${url}/admin/v1/sheets`, { method: 'POST', body: connectBody(google, tab) }),
        ),
      );
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409], `round ${round}`);
    }
  },
);

/**
 * More Google sheets than the PostgreSQL pool has connections, all writing and re-reading at
 * once: each push holds its sheet's lock for as long as Google takes to answer, and none of that
 * may starve the connections the pushes themselves need. Everything finishes.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createApp } from '../../src/app.ts';
import { registryOf } from '../../src/providers/providers.ts';
import { googleIdentity } from '../../src/providers/google/google-auth.ts';
import type { GoogleSettings } from '../../src/providers/google/google-settings.ts';
import { GoogleProvider } from '../../src/providers/google/google-provider.ts';
import { openPostgresStore } from '../../src/store/open-store.ts';
import { startGoogleSheetsEmulator } from '../google-emulator/index.ts';
import { guardAnswers } from '../helpers/answer-guard.ts';
import { call } from '../helpers/build.ts';
import { openTestStore } from '../helpers/stores.ts';

const sheetCount = 6;
const poolSize = 2;

test(
  `${sheetCount} Google sheets on a pool of ${poolSize} connections, all writing and refreshing at once, all finish`,
  { timeout: 60_000 },
  async (t) => {
    const emulator = await startGoogleSheetsEmulator();
    t.after(() => emulator.close());
    // Every upstream call takes a while, so that locks are held while others want connections.
    emulator.latencyMs = 150;
    const account = emulator.serviceAccount();
    const settings: GoogleSettings = {
      credentials: JSON.stringify(account),
      apiKey: undefined,
      apiUrl: `${emulator.url}/`,
      tokenUrl: emulator.tokenUrl,
      deadlineMs: 30_000,
      writesPerMinute: 100_000,
    };
    const identity = googleIdentity(settings);
    assert.ok(identity !== null);
    const google = new GoogleProvider(identity, settings, { baseMs: 20, maxMs: 200 });
    // A database of its own, opened with a pool smaller than the number of sheets.
    const { env, dispose } = await openTestStore();
    t.after(dispose);
    const store = await openPostgresStore({
      connectionString: env.SHEETPORT_DATABASE_URL as string,
      poolSize,
    });
    const app = await createApp(
      { store, providers: registryOf({ google }) },
      { bodyLimit: 1_048_576, uploadLimit: 1_048_576, cacheSize: 0 },
    );
    t.after(async () => {
      await app.close();
      await store.database.close();
    });
    guardAnswers(t, app);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });

    const ids: string[] = [];
    for (let n = 0; n < sheetCount; n++) {
      const spreadsheetId = emulator.createSpreadsheet({
        tabs: [{ title: 'T', rows: [['key']] }],
        sharedWith: [account.client_email],
      });
      const created = await call(`${url}/admin/v1/sheets`, {
        method: 'POST',
        body: { source: { provider: 'google', spreadsheetId }, freshnessSeconds: 0 },
      });
      assert.equal(created.status, 201, created.text);
      ids.push((created.body as { id: string }).id);
    }
    const answers = await Promise.all(
      ids.flatMap((id) => [
        ...[1, 2, 3].map((n) =>
          call(`${url}/api/v1/${id}`, { method: 'POST', body: { key: `${id}-${n}` } }),
        ),
        call(`${url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' }),
        call(`${url}/api/v1/${id}`),
        call(`${url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' }),
      ]),
    );
    for (const answer of answers) assert.ok(answer.status < 300, answer.text);
    for (const id of ids) {
      const rows = await call(`${url}/api/v1/${id}`);
      assert.deepEqual(
        (rows.body as { key: string }[]).map((row) => row.key).sort(),
        [1, 2, 3].map((n) => `${id}-${n}`),
      );
    }
  },
);

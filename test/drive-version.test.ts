import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { googleIdentity } from '../src/providers/google/google-auth.ts';
import type { GoogleSettings } from '../src/providers/google/google-settings.ts';
import { createDriveVersionProbe } from '../src/providers/google/drive-version.ts';
import { startGoogleSheetsEmulator, type GoogleSheetsEmulator } from './google-emulator/index.ts';

const SHEETS = 'https://www.googleapis.com/auth/spreadsheets';
const DRIVE_METADATA = 'https://www.googleapis.com/auth/drive.metadata.readonly';

/** A probe signed in as Sheetport would be, with a spreadsheet shared with it. */
async function probeOf(
  t: TestContext,
  as: 'service-account' | 'user-consented' | 'user-not-consented' = 'service-account',
) {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const account = emulator.serviceAccount();
  const user = emulator.oauthClient(
    'ann@example.com',
    as === 'user-consented' ? [SHEETS, DRIVE_METADATA] : [SHEETS],
  );
  const credentials =
    as === 'service-account'
      ? JSON.stringify(account)
      : JSON.stringify({
          type: 'authorized_user',
          client_id: user.clientId,
          client_secret: user.clientSecret,
          refresh_token: user.refreshToken,
        });
  const spreadsheetId = emulator.createSpreadsheet({
    tabs: [{ title: 'People', rows: [['name'], ['Ann']] }],
    sharedWith: [account.client_email, 'ann@example.com'],
  });
  const settings: GoogleSettings = {
    credentials,
    apiKey: undefined,
    apiUrl: `${emulator.url}/`,
    driveUrl: `${emulator.url}/`,
    tokenUrl: emulator.tokenUrl,
    deadlineMs: 10_000,
    writesPerMinute: 60,
  };
  const identity = googleIdentity(settings);
  assert.ok(identity !== null);
  return { emulator, spreadsheetId, probe: createDriveVersionProbe(identity, settings) };
}

const driveRequests = (emulator: GoogleSheetsEmulator) =>
  emulator.stats().requests.filter((request) => request.path.startsWith('/drive/')).length;

test('the probe reads the spreadsheet version through Drive, and sees it move on a change', async (t) => {
  const { emulator, spreadsheetId, probe } = await probeOf(t);
  const before = await probe(spreadsheetId);
  assert.equal(before, emulator.driveVersion(spreadsheetId));
  assert.equal(await probe(spreadsheetId), before);
  emulator.editCell(spreadsheetId, 'People', 'A3', 'Bob');
  const after = await probe(spreadsheetId);
  assert.notEqual(after, before);
  assert.equal(after, emulator.driveVersion(spreadsheetId));
});

test('with the Drive API off in the project the probe answers unknown, and stops asking for a while', async (t) => {
  const { emulator, spreadsheetId, probe } = await probeOf(t);
  emulator.driveApiEnabled = false;
  assert.equal(await probe(spreadsheetId), null);
  assert.equal(driveRequests(emulator), 1);
  assert.equal(await probe(spreadsheetId), null);
  assert.equal(driveRequests(emulator), 1);
});

test('a user who consented to the Drive scope gets the version; one who did not gets unknown', async (t) => {
  const consented = await probeOf(t, 'user-consented');
  assert.equal(
    await consented.probe(consented.spreadsheetId),
    consented.emulator.driveVersion(consented.spreadsheetId),
  );
  const notConsented = await probeOf(t, 'user-not-consented');
  assert.equal(await notConsented.probe(notConsented.spreadsheetId), null);
});

test('an unknown spreadsheet, or Drive unreachable, is unknown, never an error', async (t) => {
  const { emulator, spreadsheetId, probe } = await probeOf(t);
  assert.equal(await probe('1NoSuchSpreadsheet'), null);
  await emulator.stop();
  assert.equal(await probe(spreadsheetId), null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drive } from '@googleapis/drive';
import { refreshTokenClient, serviceAccountClient, SHEETS_SCOPE } from './clients.ts';
import { failure, useEmulator } from './test-support.ts';

const DRIVE_METADATA = 'https://www.googleapis.com/auth/drive.metadata.readonly';

const fixture = useEmulator();

/** The Drive v3 client, signed in as the fixture's service account with these scopes. */
function driveAs(scopes: string[]) {
  const { emulator, key } = fixture;
  const auth = serviceAccountClient(emulator, key, { scopes });
  return drive({ version: 'v3', auth, rootUrl: `${emulator.url}/` });
}

async function versionOf(spreadsheetId: string): Promise<string | null | undefined> {
  const api = driveAs([SHEETS_SCOPE, DRIVE_METADATA]);
  const file = await api.files.get({
    fileId: spreadsheetId,
    fields: 'version',
    supportsAllDrives: true,
  });
  return file.data.version;
}

test('files.get answers the spreadsheet version, and only the fields asked for', async () => {
  const id = fixture.create({ title: 'Plan', tabs: [{ title: 'A', rows: [['x']] }] });
  const api = driveAs([DRIVE_METADATA]);
  const asked = await api.files.get({ fileId: id, fields: 'version', supportsAllDrives: true });
  assert.deepEqual(asked.data, { version: '1' });
  const plain = await api.files.get({ fileId: id });
  assert.deepEqual(plain.data, {
    kind: 'drive#file',
    id,
    name: 'Plan',
    mimeType: 'application/vnd.google-apps.spreadsheet',
  });
});

test('the version moves on every change: values, rows, metadata, a person typing; not on reads or refused writes', async () => {
  const { api, emulator } = fixture;
  const id = fixture.create({ tabs: [{ title: 'A', rows: [['x'], [1]] }] });
  const seen = [await versionOf(id)];
  await api.spreadsheets.values.update({
    spreadsheetId: id,
    range: 'A!A2',
    valueInputOption: 'RAW',
    requestBody: { values: [[2]] },
  });
  seen.push(await versionOf(id));
  await api.spreadsheets.batchUpdate({
    spreadsheetId: id,
    requestBody: {
      requests: [
        {
          createDeveloperMetadata: {
            developerMetadata: {
              metadataKey: 'k',
              metadataValue: 'v',
              location: { spreadsheet: true },
              visibility: 'DOCUMENT',
            },
          },
        },
      ],
    },
  });
  seen.push(await versionOf(id));
  await api.spreadsheets.values.get({ spreadsheetId: id, range: 'A' });
  const refused = await failure(
    api.spreadsheets.values.update({
      spreadsheetId: id,
      range: 'Nope!A1',
      valueInputOption: 'RAW',
      requestBody: { values: [[1]] },
    }),
  );
  assert.equal(refused.status, 400);
  seen.push(await versionOf(id));
  emulator.editCell(id, 'A', 'A3', 'typed');
  seen.push(await versionOf(id));
  assert.deepEqual(seen, ['1', '2', '3', '3', '4']);
  assert.equal(emulator.driveVersion(id), '4');
});

test('an unknown file, or one not shared with the caller, is 404 File not found', async () => {
  const { emulator } = fixture;
  const hidden = emulator.createSpreadsheet({ tabs: [{ title: 'A', rows: [] }] });
  for (const fileId of ['1NoSuchFile', hidden]) {
    const answer = await failure(
      driveAs([DRIVE_METADATA]).files.get({ fileId, fields: 'version' }),
    );
    assert.equal(answer.status, 404);
    const body = answer.body as { error: { message: string; errors: { reason: string }[] } };
    assert.equal(body.error.message, `File not found: ${fileId}.`);
    assert.equal(body.error.errors[0]?.reason, 'notFound');
  }
});

test('a token without a Drive scope is refused 403 insufficient scopes', async () => {
  const id = fixture.create({ tabs: [{ title: 'A', rows: [] }] });
  const answer = await failure(
    driveAs([SHEETS_SCOPE]).files.get({ fileId: id, fields: 'version' }),
  );
  assert.equal(answer.status, 403);
  assert.match(JSON.stringify(answer.body), /ACCESS_TOKEN_SCOPE_INSUFFICIENT/);
});

test('an OAuth user token carries the scopes consented to', async () => {
  const { emulator } = fixture;
  const id = emulator.createSpreadsheet({
    tabs: [{ title: 'A', rows: [] }],
    sharedWith: ['ann@example.com'],
  });
  const asUser = (scopes: string[]) =>
    drive({
      version: 'v3',
      auth: refreshTokenClient(emulator, emulator.oauthClient('ann@example.com', scopes)),
      rootUrl: `${emulator.url}/`,
    });
  const sheetsOnly = await failure(
    asUser([SHEETS_SCOPE]).files.get({ fileId: id, fields: 'version' }),
  );
  assert.equal(sheetsOnly.status, 403);
  const consented = await asUser([SHEETS_SCOPE, DRIVE_METADATA]).files.get({
    fileId: id,
    fields: 'version',
  });
  assert.deepEqual(consented.data, { version: '1' });
});

test('with the Drive API off in the project, Drive answers 403 accessNotConfigured', async (t) => {
  const { emulator } = fixture;
  const id = fixture.create({ tabs: [{ title: 'A', rows: [] }] });
  emulator.driveApiEnabled = false;
  t.after(() => (emulator.driveApiEnabled = true));
  const answer = await failure(
    driveAs([DRIVE_METADATA]).files.get({ fileId: id, fields: 'version' }),
  );
  assert.equal(answer.status, 403);
  const body = answer.body as { error: { status: string; errors: { reason: string }[] } };
  assert.equal(body.error.status, 'PERMISSION_DENIED');
  assert.equal(body.error.errors[0]?.reason, 'accessNotConfigured');
});

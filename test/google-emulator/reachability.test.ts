/** An emulator that cannot be reached, comes back, and closes with requests still held open. */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { serviceAccountClient, sheetsClient } from './clients.ts';
import { startGoogleSheetsEmulator, type GoogleSheetsEmulator } from './index.ts';
import { networkFailure } from './test-support.ts';

/** An emulator of its own (these tests stop it), one spreadsheet and a signed-in client. */
async function isolated(t: { after: (fn: () => Promise<void>) => void }) {
  const emulator = await startGoogleSheetsEmulator();
  t.after(() => emulator.close());
  const key = emulator.serviceAccount();
  const id = emulator.createSpreadsheet({
    tabs: [{ title: 'Sheet1', rows: [['a']] }],
    sharedWith: [key.client_email],
  });
  const api = sheetsClient(emulator, serviceAccountClient(emulator, key));
  const append = (value: string) =>
    api.spreadsheets.values.append(
      {
        spreadsheetId: id,
        range: 'Sheet1',
        valueInputOption: 'RAW',
        requestBody: { values: [[value]] },
      },
      { retry: false },
    );
  return { emulator, id, api, append };
}

/** Resolves once the emulator has logged `count` write requests. */
async function writesLogged(emulator: GoogleSheetsEmulator, count: number): Promise<void> {
  while (emulator.stats().requests.filter((r) => r.kind === 'write').length < count) {
    await nextTurn();
  }
}

it('a stopped emulator refuses connections; restarted on the same port it serves the same spreadsheets and tokens', async (t) => {
  const { emulator, id, api, append } = await isolated(t);
  await append('before');
  const url = emulator.url;
  await emulator.stop();
  const first = await networkFailure(append('lost'));
  // The client's kept-alive connection may be reused before it notices the close: a reset.
  assert.ok(['ECONNRESET', 'ECONNREFUSED'].includes(first.code ?? ''), first.code);
  assert.equal((await networkFailure(append('lost'))).code, 'ECONNREFUSED');
  await emulator.restart();
  assert.equal(emulator.url, url);
  await append('after');
  const { data } = await api.spreadsheets.values.get({ spreadsheetId: id, range: 'Sheet1' });
  assert.deepEqual(data.values, [['a'], ['before'], ['after']]);
  const tokens = emulator.stats().requests.filter((r) => r.kind === 'token');
  assert.equal(tokens.length, 1, 'the token from before the stop is still accepted');
});

it(
  'close ends promptly with a request held by a timeout fault, whose client sees its socket closed',
  { timeout: 5000 },
  async (t) => {
    const { emulator, id, append } = await isolated(t);
    emulator.failNext(1, { mode: 'timeout', when: 'after', only: 'writes' });
    const held = networkFailure(append('held'));
    await writesLogged(emulator, 1);
    await emulator.close();
    assert.equal((await held).code, 'ECONNRESET');
    assert.deepEqual(emulator.rows(id, 'Sheet1'), [['a'], ['held']], 'applied before it was held');
  },
);

it(
  'stop drops a held request too, and the emulator answers again after restart',
  { timeout: 5000 },
  async (t) => {
    const { emulator, id, append } = await isolated(t);
    emulator.failNext(1, { mode: 'timeout', only: 'writes' });
    const held = networkFailure(append('held'));
    await writesLogged(emulator, 1);
    await emulator.stop();
    assert.equal((await held).code, 'ECONNRESET');
    await emulator.restart();
    await append('answered');
    assert.deepEqual(emulator.rows(id, 'Sheet1'), [['a'], ['answered']], 'held before applying');
  },
);

/**
 * The store failing around a push to Google. Once the spreadsheet has the write, a store failure
 * never becomes "nothing changed": the client hears success, the sheet stays marked, and the copy
 * is re-read when the store answers again. A failure before anything was sent is "nothing
 * changed", and it is true. Checked on the spreadsheet and the copy afterwards.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { Problem } from '../src/errors/problem.ts';
import { storeUnavailable } from '../src/store/dialect.ts';
import type { SheetStore } from '../src/store/store.ts';
import { call } from './helpers/build.ts';
import { anchorEveryRow, bothSides, connect, setup, type Setup } from './helpers/google.ts';

/** Which store step fails next, and how. */
interface Cue {
  step: keyof SheetStore | null;
  error: () => unknown;
}

/** The store, with the step named by the cue failing once. */
function failingOnCue(cue: Cue): (store: SheetStore) => SheetStore {
  return (store) =>
    new Proxy(store, {
      get(target, name: keyof SheetStore) {
        const value = target[name];
        if (typeof value !== 'function') return value;
        if (name === cue.step) {
          return async () => {
            cue.step = null;
            throw cue.error();
          };
        }
        return (value as (...args: unknown[]) => unknown).bind(target);
      },
    });
}

async function storeSetup(t: TestContext): Promise<{ google: Setup; id: string; cue: Cue }> {
  const cue: Cue = { step: null, error: storeUnavailable };
  const google = await setup(t, { wrapStore: failingOnCue(cue), app: { cacheSize: 0 } });
  const id = await connect(google, { freshnessSeconds: 3600 });
  return { google, id, cue };
}

const outcomeUnknown = () =>
  new Problem('store-outcome-unknown', 'The database went away during the commit.');

for (const [name, error] of [
  ['unavailable', storeUnavailable],
  ['cut off during the commit', outcomeUnknown],
] as const) {
  test(`the store ${name} after Google applied: the client hears success, and the next read shows the row once`, async (t) => {
    const { google, id, cue } = await storeSetup(t);
    Object.assign(cue, { step: 'applyPlanned', error });
    const answer = await call(`${google.url}/api/v1/${id}`, {
      method: 'POST',
      body: { name: 'Zed' },
    });
    assert.equal(answer.status, 201, answer.text);
    // The key was chosen before the push: the answer names it though the store failed.
    assert.deepEqual(answer.body, { created: 1, keys: ['3'] });
    assert.equal(cue.step, null, 'the store step did not fail');
    assert.notEqual(await google.store.pushingMarker(id), null, 'the sheet is no longer marked');
    const { api, sheet } = await bothSides(google, id);
    assert.deepEqual(api, sheet);
    // The read that settled the push gave the row that landed the key the write answered.
    const zed = await call(`${google.url}/api/v1/${id}/rows/3`);
    assert.equal(zed.status, 200, zed.text);
    assert.equal((zed.body as { name: string }).name, 'Zed');
    assert.equal(sheet.filter((row) => row.name === 'Zed').length, 1);
    assert.equal(await google.store.pushingMarker(id), null);
  });
}

test('the store unavailable before the push: 503 "nothing changed", and nothing was sent', async (t) => {
  const { google, id, cue } = await storeSetup(t);
  const before = (await bothSides(google, id)).sheet;
  // Bob anchored already: no write of anchors comes before the push.
  anchorEveryRow(google);
  google.emulator.resetStats();
  cue.step = 'markPushing';
  const answer = await call(`${google.url}/api/v1/${id}?name=Bob`, {
    method: 'PATCH',
    body: { age: 1 },
  });
  assert.equal(answer.status, 503, answer.text);
  assert.equal((answer.body as { code: string }).code, 'store-unavailable');
  assert.equal(google.emulator.stats().writes, 0);
  assert.deepEqual(await bothSides(google, id), { api: before, sheet: before });
});

test('the sheet deleted while Google applied its write: the write that landed answers success, not a failure', async (t) => {
  const { google, id } = await storeSetup(t);
  let deleted!: Promise<boolean>;
  google.emulator.afterNext('write', () => {
    // Google has the row; before its answer arrives, an administrator deletes the sheet.
    google.emulator.latencyMs = 300;
    setImmediate(() => (google.emulator.latencyMs = 0));
    deleted = google.store.deleteSheet(id);
  });
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Zed' },
  });
  assert.equal(await deleted, true);
  assert.equal(answer.status, 201, answer.text);
  assert.deepEqual(answer.body, { created: 1, keys: ['3'] });
  const rows = google.emulator.rows(google.spreadsheetId, 'People');
  assert.equal(rows.filter((row) => row[0] === 'Zed').length, 1);
});

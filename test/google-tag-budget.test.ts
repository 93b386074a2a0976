/**
 * Push tags are bounded per spreadsheet: the tabs of one spreadsheet share a budget of
 * characters, counted in the store. A tag that may still refuse a late attempt of its push is
 * never removed; when such tags fill the budget, the next push waits for room, and any push to
 * any tab of the spreadsheet removes the tags that guard nothing any more.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { call } from './helpers/build.ts';
import { connect, setup } from './helpers/google.ts';
import { backend } from './helpers/stores.ts';

/** About 39 characters a tag: three fit, a fourth does not. */
const budget = 120;

test(`${backend}: tabs of one spreadsheet share its tag budget: a push waits while guarding tags fill it, never removing one, and the spreadsheet's cap is never passed`, async (t) => {
  const google = await setup(t, {
    settings: { deadlineMs: 4000, tagBudgetChars: budget, tagRetentionMs: 500 },
  });
  const { emulator, spreadsheetId } = google;
  const people = await connect(google, { freshnessSeconds: 3600 });
  const created = await call(`${google.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'other',
      source: { provider: 'google', spreadsheetId, tab: 'Other' },
      freshnessSeconds: 3600,
    },
  });
  assert.equal(created.status, 201, created.text);
  const other = (created.body as { id: string }).id;
  emulator.capDeveloperMetadata(spreadsheetId, budget);
  const post = (id: string, body: object) =>
    call(`${google.url}/api/v1/${id}`, { method: 'POST', body });
  // Three pushes whose first answer is lost once applied: their tags guard past the deadline,
  // each at least 0.6 s past the one before.
  const started = Date.now();
  for (const [i, [id, body]] of (
    [
      [people, { name: 'A1' }],
      [other, { x: 2 }],
      [people, { name: 'A2' }],
    ] as const
  ).entries()) {
    await sleep(Math.max(0, started + 600 * i - Date.now()));
    emulator.failNext(1, { when: 'after', status: 500, only: 'writes' });
    const answer = await post(id, body);
    assert.equal(answer.status, 201, answer.text);
  }
  const tags = () => emulator.developerMetadata(spreadsheetId).map((m) => m.metadataId);
  const [first, ...guarding] = tags();
  assert.equal(guarding.length, 2);
  // Past the first tag's guard, not the others': the next push waits for it, then removes it.
  await sleep(Math.max(0, started + 1800 - Date.now()));
  const fourth = await post(other, { x: 3 });
  assert.equal(fourth.status, 201, fourth.text);
  const after = tags();
  assert.ok(!after.includes(first), 'the tag past its guard was not removed');
  for (const tag of guarding)
    assert.ok(after.includes(tag), `tag ${tag} still guarding was removed`);
  assert.equal(after.length, 3);
  assert.ok(emulator.developerMetadataChars(spreadsheetId) <= budget);
  assert.deepEqual(
    emulator.rows(spreadsheetId, 'People').map((row) => row[0]),
    ['name', 'Ann', 'Bob', 'Joan', 'A1', 'A2'],
  );
  assert.deepEqual(emulator.rows(spreadsheetId, 'Other'), [['x'], [1], [2], [3]]);
});

test(`${backend}: a push whose attempts were all answered leaves a tag that guards nothing: it takes no room from the budget`, async (t) => {
  const google = await setup(t, { settings: { tagBudgetChars: budget } });
  const { emulator, spreadsheetId } = google;
  const id = await connect(google, { freshnessSeconds: 3600 });
  emulator.capDeveloperMetadata(spreadsheetId, budget);
  for (let i = 0; i < 8; i++) {
    const answer = await call(`${google.url}/api/v1/${id}`, {
      method: 'POST',
      body: { name: `N${i}` },
    });
    assert.equal(answer.status, 201, answer.text);
    assert.ok(emulator.developerMetadataChars(spreadsheetId) <= budget);
  }
  assert.equal(emulator.rows(spreadsheetId, 'People').length, 4 + 8);
});

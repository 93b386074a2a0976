/**
 * A person edits the tab between Sheetport's read of it and its write: inserts a row, deletes
 * one, renames one, or does so while a write waits to be retried after a 429. A write that
 * chooses rows (by filter or `_id`) changes the rows that match on the tab as it is just before
 * the push, not on a copy read up to the freshness window earlier. The checks are on the
 * spreadsheet and the copy afterwards, and on what the client heard.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { editedPeople, inStep } from './helpers/google.ts';

const people = (t: TestContext) => editedPeople(t, { deadlineMs: 5000 });

test('a person inserts a row above Joan: PUT ?name=Joan replaces Joan, not the inserted row', async (t) => {
  const { google, id } = await people(t);
  google.emulator.insertRows(google.spreadsheetId, 'People', 4, [['New', 1]]);
  const answer = await call(`${google.url}/api/v1/${id}?name=Joan`, {
    method: 'PUT',
    body: { name: 'Joan', age: 46 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 1 });
  assert.deepEqual(await inStep(google, id), [
    ['Ann', 31],
    ['Kim', 40],
    ['Lee', 22],
    ['New', 1],
    ['Joan', 46],
    ['Max', 50],
  ]);
});

test('a person deletes Ann: DELETE ?name=Kim removes Kim, not Lee', async (t) => {
  const { google, id } = await people(t);
  google.emulator.deleteRows(google.spreadsheetId, 'People', 1);
  const answer = await call(`${google.url}/api/v1/${id}?name=Kim`, { method: 'DELETE' });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { deleted: 1 });
  assert.deepEqual(await inStep(google, id), [
    ['Lee', 22],
    ['Joan', 45],
    ['Max', 50],
  ]);
});

test('a person moves Lee to the top while the write waits after a 429: PATCH ?name=Lee changes Lee, not Kim', async (t) => {
  const { google, id } = await people(t);
  google.emulator.failNext(1, { status: 429, only: 'writes' });
  // Right after Google refuses the first attempt, before Sheetport tries again.
  google.emulator.afterNext('write', () => {
    google.emulator.insertRows(google.spreadsheetId, 'People', 1, [['Top', 0]]);
    google.emulator.moveRow(google.spreadsheetId, 'People', 4, 1);
  });
  const answer = await call(`${google.url}/api/v1/${id}?name=Lee`, {
    method: 'PATCH',
    body: { age: 99 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 1 });
  assert.deepEqual(await inStep(google, id), [
    ['Lee', 99],
    ['Top', 0],
    ['Ann', 31],
    ['Kim', 40],
    ['Joan', 45],
    ['Max', 50],
  ]);
});

test('a person renames Max to Joan: PATCH ?name=Joan changes both Joans', async (t) => {
  const { google, id } = await people(t);
  google.emulator.editCell(google.spreadsheetId, 'People', 'A6', 'Joan');
  const answer = await call(`${google.url}/api/v1/${id}?name=Joan`, {
    method: 'PATCH',
    body: { age: 60 },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.deepEqual(answer.body, { updated: 2 });
  assert.deepEqual(await inStep(google, id), [
    ['Ann', 31],
    ['Kim', 40],
    ['Lee', 22],
    ['Joan', 60],
    ['Joan', 60],
  ]);
});

test('a write by _id is planned on the tab as it is: _id=1 is the second row there', async (t) => {
  const { google, id } = await people(t);
  google.emulator.deleteRows(google.spreadsheetId, 'People', 1);
  const answer = await call(`${google.url}/api/v1/${id}?_id=1`, { method: 'DELETE' });
  assert.deepEqual(answer.body, { deleted: 1 }, answer.text);
  assert.deepEqual(await inStep(google, id), [
    ['Kim', 40],
    ['Joan', 45],
    ['Max', 50],
  ]);
});

test('If-Match still pins a version: a person’s edit since the read makes the write 412, and nothing changes', async (t) => {
  const { google, id } = await people(t);
  const read = await call(`${google.url}/api/v1/${id}`);
  const etag = read.headers.get('etag') ?? '';
  google.emulator.editCell(google.spreadsheetId, 'People', 'B2', 32);
  const answer = await call(`${google.url}/api/v1/${id}?name=Ann`, {
    method: 'PATCH',
    body: { age: 33 },
    headers: { 'if-match': etag },
  });
  assert.equal(answer.status, 412, answer.text);
  assert.equal((await inStep(google, id))[0]?.[1], 32);
});

test('one read of the tab per batch: a write to anchored rows checks the tab once, then pushes once', async (t) => {
  const { google, id } = await people(t);
  const patchKim = () =>
    call(`${google.url}/api/v1/${id}?name=Kim`, { method: 'PATCH', body: { age: 41 } });
  const kinds = () =>
    google.emulator
      .stats()
      .requests.map((request) => request.kind)
      .filter((kind) => kind !== 'token');
  google.emulator.resetStats();
  // Kim's first targeted write anchors Kim and the row after: one write, verified by one read.
  assert.equal((await patchKim()).status, 200);
  assert.deepEqual(kinds(), ['read', 'write', 'read', 'write']);
  google.emulator.resetStats();
  assert.equal((await patchKim()).status, 200);
  assert.deepEqual(kinds(), ['read', 'write']);
});

test('appends alone do not depend on positions: no read before their push', async (t) => {
  const { google, id } = await people(t);
  google.emulator.resetStats();
  const answer = await call(`${google.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Eve' },
  });
  assert.equal(answer.status, 201, answer.text);
  const kinds = google.emulator.stats().requests.map((request) => request.kind);
  assert.deepEqual(
    kinds.filter((kind) => kind !== 'token'),
    ['write'],
  );
});

test('the window Sheets leaves is closed: an edit between the check and the push, and the write still lands on the row meant', async (t) => {
  const { google, id } = await people(t);
  // Right after Sheetport's check of the tab, before its write: a row inserted on top.
  google.emulator.afterNext('read', () =>
    google.emulator.insertRows(google.spreadsheetId, 'People', 1, [['Top', 0]]),
  );
  const answer = await call(`${google.url}/api/v1/${id}?name=Lee`, {
    method: 'PATCH',
    body: { age: 99 },
  });
  assert.deepEqual(answer.body, { updated: 1 }, answer.text);
  assert.deepEqual(await inStep(google, id), [
    ['Top', 0],
    ['Ann', 31],
    ['Kim', 40],
    ['Lee', 99],
    ['Joan', 45],
    ['Max', 50],
  ]);
});

/**
 * Writes that choose rows land on the row meant while a person inserts, deletes and moves rows
 * while Google holds the batch (after Sheetport's last read of the tab): the rows the write
 * targets carry anchors (developer metadata on the row), the batch asserts each is still where
 * the plan put it, and a batch refused for a moved anchor is planned again on a fresh read. Each
 * case runs under both answers to what Google does not document: a delete of developer metadata
 * whose filter matches nothing either does nothing or refuses the batch.
 */
import assert from 'node:assert/strict';
import { describe, it, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides, connect, editedPeople, inStep, setup, type Setup } from './helpers/google.ts';

const people = (t: TestContext, emptyDeleteFails: boolean) =>
  editedPeople(t, { deadlineMs: 8000 }, emptyDeleteFails);

/** Runs `edit` while Google holds the next batch that writes cells (past any anchor creation). */
function whileHeld(google: Setup, edit: () => void, writesBefore = 0): void {
  const hold = (left: number): void =>
    google.emulator.beforeNext('write', left === 0 ? edit : () => hold(left - 1));
  hold(writesBefore);
}

const person = (google: Setup) => ({
  insertAbove: (at: number) =>
    google.emulator.insertRows(google.spreadsheetId, 'People', at, [['Top', 0]]),
  delete: (at: number) => google.emulator.deleteRows(google.spreadsheetId, 'People', at),
  move: (from: number, to: number) =>
    google.emulator.moveRow(google.spreadsheetId, 'People', from, to),
});

/** An upsert's counts, without the keys of its rows. */
const counts = (body: unknown) => {
  const { created, updated } = body as { created: number; updated: number };
  return { created, updated };
};

const anchorsIn = (google: Setup) =>
  google.emulator
    .developerMetadata(google.spreadsheetId)
    .filter((entry) => entry.metadataKey === 'sheetport.row');

for (const emptyDeleteFails of [false, true]) {
  describe(`row anchors, when a delete matching nothing ${emptyDeleteFails ? 'fails its batch' : 'does nothing'}`, () => {
    it('a PATCH by filter of an anchored row lands on it though a person inserts a row above while Google holds the batch', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      const lee = (age: number) =>
        call(`${google.url}/api/v1/${id}?name=Lee`, { method: 'PATCH', body: { age } });
      assert.deepEqual((await lee(23)).body, { updated: 1 });
      whileHeld(google, () => person(google).insertAbove(1));
      const answer = await lee(99);
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

    it('a PUT by filter of a row written for the first time lands on it though a person moves a row above it while Google holds the batch', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      // The anchors are created first (one write, then a read): the edit waits for the batch.
      whileHeld(google, () => person(google).move(5, 1), 1);
      const answer = await call(`${google.url}/api/v1/${id}?name=Joan`, {
        method: 'PUT',
        body: { name: 'Joan', age: 46 },
      });
      assert.deepEqual(answer.body, { updated: 1 }, answer.text);
      assert.deepEqual(await inStep(google, id), [
        ['Max', 50],
        ['Ann', 31],
        ['Kim', 40],
        ['Lee', 22],
        ['Joan', 46],
      ]);
    });

    it('a PATCH and a DELETE by key land on their rows though a person moves and inserts rows above them while Google holds each batch', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      const keyed = (await call(`${google.url}/api/v1/${id}?_with_key=true`)).body as {
        _key: string;
        name: string;
      }[];
      const keyOf = (name: string) => keyed.find((row) => row.name === name)?._key ?? '';
      // Joan's first targeted write: her anchors are created first (one write, then a read).
      whileHeld(google, () => person(google).move(5, 1), 1);
      const patched = await call(`${google.url}/api/v1/${id}/rows/${keyOf('Joan')}`, {
        method: 'PATCH',
        body: { age: 46 },
      });
      assert.deepEqual(patched.body, { updated: 1 }, patched.text);
      await call(`${google.url}/api/v1/${id}/rows/${keyOf('Kim')}`, {
        method: 'PATCH',
        body: { age: 41 },
      });
      whileHeld(google, () => person(google).insertAbove(1));
      const deleted = await call(`${google.url}/api/v1/${id}/rows/${keyOf('Kim')}`, {
        method: 'DELETE',
      });
      assert.deepEqual(deleted.body, { deleted: 1 }, deleted.text);
      assert.deepEqual(await inStep(google, id), [
        ['Top', 0],
        ['Max', 50],
        ['Ann', 31],
        ['Lee', 22],
        ['Joan', 46],
      ]);
    });

    it('a DELETE by filter removes the row meant though a person deletes a row above it while Google holds the batch', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      await call(`${google.url}/api/v1/${id}?name=Kim`, { method: 'PATCH', body: { age: 41 } });
      whileHeld(google, () => person(google).delete(1));
      const answer = await call(`${google.url}/api/v1/${id}?name=Kim`, { method: 'DELETE' });
      assert.deepEqual(answer.body, { deleted: 1 }, answer.text);
      assert.deepEqual(await inStep(google, id), [
        ['Lee', 22],
        ['Joan', 45],
        ['Max', 50],
      ]);
    });

    it('an upsert updates the row meant though a person moves it while Google holds the batch', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      await call(`${google.url}/api/v1/${id}?name=Lee`, { method: 'PATCH', body: { age: 23 } });
      whileHeld(google, () => person(google).move(3, 5));
      const answer = await call(`${google.url}/api/v1/${id}?_upsert=name`, {
        method: 'POST',
        body: [
          { name: 'Lee', age: 77 },
          { name: 'Zoe', age: 5 },
        ],
      });
      assert.deepEqual(counts(answer.body), { created: 1, updated: 1 }, answer.text);
      assert.deepEqual(await inStep(google, id), [
        ['Ann', 31],
        ['Kim', 40],
        ['Joan', 45],
        ['Max', 50],
        ['Lee', 77],
        ['Zoe', 5],
      ]);
    });

    it('a write by _id is planned again on the tab as Google applies it, never on a row the plan did not choose', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      await call(`${google.url}/api/v1/${id}?_id=2`, { method: 'PATCH', body: { age: 23 } });
      whileHeld(google, () => person(google).insertAbove(1));
      const answer = await call(`${google.url}/api/v1/${id}?_id=2`, {
        method: 'PATCH',
        body: { age: 99 },
      });
      assert.deepEqual(answer.body, { updated: 1 }, answer.text);
      // Planned again on the tab with Top: _id=2 is Kim there, and the copy knows it.
      assert.deepEqual(await inStep(google, id), [
        ['Top', 0],
        ['Ann', 31],
        ['Kim', 99],
        ['Lee', 23],
        ['Joan', 45],
        ['Max', 50],
      ]);
    });

    it('a target a person deletes while Google holds the batch: no write lands on another row', async (t) => {
      const { google, id } = await people(t, emptyDeleteFails);
      await call(`${google.url}/api/v1/${id}?name=Lee`, { method: 'PATCH', body: { age: 23 } });
      whileHeld(google, () => person(google).delete(3));
      const answer = await call(`${google.url}/api/v1/${id}?name=Lee`, {
        method: 'PATCH',
        body: { age: 99 },
      });
      assert.deepEqual(answer.body, { updated: 0 }, answer.text);
      assert.deepEqual(await inStep(google, id), [
        ['Ann', 31],
        ['Kim', 40],
        ['Joan', 45],
        ['Max', 50],
      ]);
    });
  });
}

describe('rows appended beside writes that choose rows', () => {
  it('are anchored in the same batch: a later write to them is one read and one write, and lands on them though a person inserts a row above', async (t) => {
    const { google, id } = await people(t, false);
    const upsert = await call(`${google.url}/api/v1/${id}?_upsert=name`, {
      method: 'POST',
      body: [
        { name: 'Lee', age: 23 },
        { name: 'Zoe', age: 5 },
      ],
    });
    assert.deepEqual(counts(upsert.body), { created: 1, updated: 1 }, upsert.text);
    // Zoe is grid row 6, under the header and five rows.
    const rowsAnchored = anchorsIn(google).map(
      (entry) => entry.location?.dimensionRange?.startIndex,
    );
    assert.ok(rowsAnchored.includes(6), String(rowsAnchored));
    google.emulator.resetStats();
    whileHeld(google, () => person(google).insertAbove(1));
    const answer = await call(`${google.url}/api/v1/${id}?name=Zoe`, {
      method: 'PATCH',
      body: { age: 6 },
    });
    assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    const kinds = google.emulator
      .stats()
      .requests.map((request) => request.kind)
      .filter((kind) => kind !== 'token');
    // The check, the batch refused for the moved anchor, the read, the batch planned again.
    assert.deepEqual(kinds, ['read', 'write', 'read', 'write']);
    assert.deepEqual(await inStep(google, id), [
      ['Top', 0],
      ['Ann', 31],
      ['Kim', 40],
      ['Lee', 23],
      ['Joan', 45],
      ['Max', 50],
      ['Zoe', 6],
    ]);
  });
});

describe('row anchors in the budget', () => {
  it('keep to half of the per-spreadsheet budget, the least recently used removed from the spreadsheet', async (t) => {
    const many = [['name', 'age'], ...Array.from({ length: 12 }, (_, i) => [`p${i}`, i])];
    const google = await setup(t, {
      rows: many,
      // Room for 7 anchors of 13 characters in half of it.
      settings: { deadlineMs: 8000, tagBudgetChars: 200, tagRetentionMs: 0 },
    });
    const id = await connect(google, { freshnessSeconds: 3600 });
    for (const name of ['p0', 'p3', 'p6', 'p9', 'p11']) {
      const answer = await call(`${google.url}/api/v1/${id}?name=${name}`, {
        method: 'PATCH',
        body: { age: 100 },
      });
      assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    }
    const anchors = anchorsIn(google);
    assert.ok(anchors.length <= 7, `${anchors.length} anchors in the spreadsheet`);
    // The last write's anchors are there: p11 (grid row 12), and the grid row after it.
    const rowsAnchored = anchors.map((entry) => entry.location?.dimensionRange?.startIndex);
    assert.ok(rowsAnchored.includes(12) && rowsAnchored.includes(13), String(rowsAnchored));
    // Anchored again from scratch, a pruned row still takes writes on the row meant.
    whileHeld(google, () => person(google).insertAbove(1), 1);
    const answer = await call(`${google.url}/api/v1/${id}?name=p0`, {
      method: 'PATCH',
      body: { age: 7 },
    });
    assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    assert.deepEqual((await inStep(google, id)).slice(0, 2), [
      ['Top', 0],
      ['p0', 7],
    ]);
  });
  it('a batch refused because another server removed an anchor it prunes is planned again, not failed', async (t) => {
    const many = [['name', 'age'], ...Array.from({ length: 12 }, (_, i) => [`p${i}`, i])];
    const google = await setup(t, {
      rows: many,
      settings: { deadlineMs: 8000, tagBudgetChars: 200, tagRetentionMs: 0 },
    });
    google.emulator.rules.emptyDeleteFails = true;
    const id = await connect(google, { freshnessSeconds: 3600 });
    for (const name of ['p0', 'p3', 'p6', 'p9']) {
      const answer = await call(`${google.url}/api/v1/${id}?name=${name}`, {
        method: 'PATCH',
        body: { age: 100 },
      });
      assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    }
    // While Google holds the next write's batch (which prunes the oldest anchors to make room),
    // another server prunes every anchor first: the batch's deletes match nothing.
    const before = anchorsIn(google).map((entry) => entry.metadataId as number);
    whileHeld(
      google,
      () => {
        for (const metadataId of before) {
          google.emulator.removeDeveloperMetadata(google.spreadsheetId, metadataId);
        }
      },
      1,
    );
    const answer = await call(`${google.url}/api/v1/${id}?name=p11`, {
      method: 'PATCH',
      body: { age: 7 },
    });
    assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    assert.deepEqual((await inStep(google, id))[11], ['p11', 7]);
  });
});

describe('a sort, which Google does not document for row metadata', () => {
  const byNameDescending = (a: unknown[], b: unknown[]) => String(b[0]).localeCompare(String(a[0]));

  it('when a sort moves row metadata with the rows: the write lands on the row meant', async (t) => {
    const { google, id } = await people(t, false);
    await call(`${google.url}/api/v1/${id}?name=Lee`, { method: 'PATCH', body: { age: 23 } });
    whileHeld(google, () =>
      google.emulator.sortRows(google.spreadsheetId, 'People', byNameDescending),
    );
    const answer = await call(`${google.url}/api/v1/${id}?name=Lee`, {
      method: 'PATCH',
      body: { age: 99 },
    });
    assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    assert.deepEqual(await inStep(google, id), [
      ['Max', 50],
      ['Lee', 99],
      ['Kim', 40],
      ['Joan', 45],
      ['Ann', 31],
    ]);
  });

  it('when a sort leaves row metadata in place: the sort is not seen, and the write lands on the row sorted into its place (as the docs say)', async (t) => {
    const { google, id } = await people(t, false);
    google.emulator.rules.sortMovesRowMetadata = false;
    await call(`${google.url}/api/v1/${id}?name=Lee`, { method: 'PATCH', body: { age: 23 } });
    whileHeld(google, () =>
      google.emulator.sortRows(google.spreadsheetId, 'People', byNameDescending),
    );
    const answer = await call(`${google.url}/api/v1/${id}?name=Lee`, {
      method: 'PATCH',
      body: { age: 99 },
    });
    assert.deepEqual(answer.body, { updated: 1 }, answer.text);
    await call(`${google.url}/admin/v1/sheets/${id}/refresh`, { method: 'POST' });
    const { sheet } = await bothSides(google, id);
    // Lee was the third row when planned; Kim was sorted there.
    assert.deepEqual(
      sheet.map((row) => [row.name, row.age]),
      [
        ['Max', 50],
        ['Lee', 23],
        ['Kim', 99],
        ['Joan', 45],
        ['Ann', 31],
      ],
    );
  });
});

/**
 * Row keys on sheets mirrored from Google Sheets and Excel, against their emulators: keys given
 * by API writes, kept through a person's inserts and deletes and a new column, found by refresh
 * and by the check before a write; writes by key landing on the row meant; a row's own ETag.
 * One suite, run once per provider.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { call } from './helpers/build.ts';
import { bothSides as googleSides, connect, setup } from './helpers/google.ts';
import { bothSides as excelSides, connectPeople, excelApp, secondServer } from './helpers/excel.ts';
import { createApp } from '../src/app.ts';
import { registryOf } from '../src/providers/providers.ts';
import type { SheetStore } from '../src/store/store.ts';

type Row = Record<string, unknown>;
type Value = string | number;

const rows: Value[][] = [
  ['name', 'age'],
  ['Ann', 31],
  ['Bob', 27],
  ['Kim', 40],
];

/** A mirrored sheet of `rows`, and a person at its spreadsheet. */
interface Mirrored {
  url: string;
  id: string;
  store: SheetStore;
  /** Inserts rows above data row `at` (0: the first under the header). */
  insertAt(at: number, added: Value[][]): void;
  /** Deletes data row `at`. */
  deleteAt(at: number): void;
  /** Sets the whole tab, header included. */
  setAll(all: Value[][]): void;
  /** The rows the spreadsheet holds and those the API serves: they must be the same. */
  inStep(): Promise<void>;
  /** Another server on the same store, with a provider of its own: it takes the sheet over. */
  second(): Promise<string>;
}

const providers: Record<string, (t: TestContext) => Promise<Mirrored>> = {
  google: async (t) => {
    const google = await setup(t, { rows, settings: { deadlineMs: 5000 } });
    // Trusted for an hour: only a refresh, or the check before a write, sees a person's edits.
    const id = await connect(google, { freshnessSeconds: 3600 });
    const { emulator, spreadsheetId } = google;
    return {
      url: google.url,
      id,
      store: google.store,
      insertAt: (at, added) => emulator.insertRows(spreadsheetId, 'People', at + 1, added),
      deleteAt: (at) => emulator.deleteRows(spreadsheetId, 'People', at + 1),
      setAll: (all) => emulator.setRows(spreadsheetId, 'People', all),
      inStep: async () => {
        const { api, sheet } = await googleSides(google, id);
        assert.deepEqual(api, sheet);
      },
      second: async () => {
        const other = await createApp(
          { store: google.store, providers: registryOf({ google: google.newProvider() }) },
          { bodyLimit: 1_048_576, uploadLimit: 10_485_760, cacheSize: 0 },
        );
        t.after(() => other.close());
        return other.listen({ host: '127.0.0.1', port: 0 });
      },
    };
  },
  excel: async (t) => {
    const excel = await excelApp(t, { rows, settings: { deadlineMs: 5000 } });
    const id = await connectPeople(excel, { freshnessSeconds: 3600 });
    const { emulator, ref } = excel;
    return {
      url: excel.url,
      id,
      store: excel.store,
      insertAt: (at, added) => emulator.insertRows(ref, 'People', at + 2, added),
      deleteAt: (at) => emulator.deleteRows(ref, 'People', at + 2),
      setAll: (all) => {
        emulator.deleteRows(ref, 'People', 1, 100);
        emulator.insertRows(ref, 'People', 1, all);
      },
      inStep: async () => {
        const { api, sheet } = await excelSides(excel, id);
        assert.deepEqual(api, sheet);
      },
      second: () => secondServer(t, excel),
    };
  },
};

const keyed = async (url: string) => (await call(`${url}?_with_key=true`)).body as Row[];
const keyOf = (list: Row[], name: string) => list.find((row) => row.name === name)?._key as string;
const refresh = async (m: Mirrored) => {
  const answer = await call(`${m.url}/admin/v1/sheets/${m.id}/refresh`, { method: 'POST' });
  assert.equal(answer.status, 200, answer.text);
};

for (const [provider, open] of Object.entries(providers)) {
  describe(`row keys on a ${provider} sheet`, () => {
    test('POST answers the keys of the rows it appended, and reads and writes by key find them', async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      assert.equal(new Set(before.map((row) => row._key)).size, 3);
      const posted = await call(rowsUrl, {
        method: 'POST',
        body: [{ name: 'Lee' }, { name: 'Max' }],
      });
      assert.equal(posted.status, 201, posted.text);
      const { keys } = posted.body as { keys: string[] };
      const after = await keyed(rowsUrl);
      assert.deepEqual(keys, [keyOf(after, 'Lee'), keyOf(after, 'Max')]);
      assert.ok(keys.every((key) => !before.some((row) => row._key === key)));
      // The write's event names its rows by the keys it answered.
      const events = (await m.store.eventsAfter(m.id, null, 100)).map(
        (event) => JSON.parse(event.body) as { type: string; data: { rows: Row[] } },
      );
      const created = events.find((event) => event.type === 'rows.created')?.data.rows;
      assert.deepEqual(
        created?.map((row) => [row._key, row.name]),
        [
          [keys[0], 'Lee'],
          [keys[1], 'Max'],
        ],
      );
      const one = await call(`${rowsUrl}/rows/${keys[1]}`);
      assert.deepEqual(one.body, { _key: keys[1], name: 'Max', age: null });
      const patched = await call(`${rowsUrl}/rows/${keys[0]}`, {
        method: 'PATCH',
        body: { age: 22 },
      });
      assert.deepEqual(patched.body, { updated: 1 });
      await m.inStep();
      assert.deepEqual(await keyed(rowsUrl), [
        ...before,
        { _key: keys[0], name: 'Lee', age: 22 },
        { _key: keys[1], name: 'Max', age: null },
      ]);
    });

    test('a write by key lands on its row after a person inserted and deleted rows above it', async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      // The copy has not seen these: the check before the write finds them.
      m.deleteAt(0);
      m.insertAt(1, [['New', 1]]);
      const patched = await call(`${rowsUrl}/rows/${keyOf(before, 'Bob')}`, {
        method: 'PATCH',
        body: { age: 28 },
      });
      assert.equal(patched.status, 200, patched.text);
      const gone = await call(`${rowsUrl}/rows/${keyOf(before, 'Ann')}`, {
        method: 'PATCH',
        body: { age: 1 },
      });
      assert.equal(gone.status, 404, gone.text);
      assert.equal((gone.body as { code: string }).code, 'row-not-found');
      await m.inStep();
      const after = await keyed(rowsUrl);
      assert.deepEqual(
        after.map((row) => [row.name, row.age]),
        [
          ['Bob', 28],
          ['New', 1],
          ['Kim', 40],
        ],
      );
      assert.equal(keyOf(after, 'Kim'), keyOf(before, 'Kim'));
      assert.equal(keyOf(after, 'Bob'), keyOf(before, 'Bob'));
      assert.ok(!before.some((row) => row._key === keyOf(after, 'New')));
    });

    test('an upsert that updates a row a person just added answers the key that row then has', async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      // The copy has not seen Nia: the check before the write finds her.
      m.insertAt(1, [['Nia', 20]]);
      const upserted = await call(`${rowsUrl}?_upsert=name`, {
        method: 'POST',
        body: [
          { name: 'Nia', age: 21 },
          { name: 'Oz', age: 9 },
        ],
      });
      assert.equal(upserted.status, 201, upserted.text);
      const { keys } = upserted.body as { keys: string[] };
      await m.inStep();
      const after = await keyed(rowsUrl);
      assert.deepEqual(keys, [keyOf(after, 'Nia'), keyOf(after, 'Oz')]);
      assert.equal(new Set([...before.map((row) => row._key), ...keys]).size, 5);
      assert.equal(((await call(`${rowsUrl}/rows/${keys[0]}`)).body as Row).age, 21);
    });

    test('a refresh keeps the keys of rows that stayed, gives a new key to a row a person added, and 404s a deleted one', async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      m.insertAt(1, [['New', 1]]);
      m.deleteAt(3);
      await refresh(m);
      const after = await keyed(rowsUrl);
      assert.deepEqual(
        after.map((row) => row.name),
        ['Ann', 'New', 'Bob'],
      );
      assert.equal(keyOf(after, 'Ann'), keyOf(before, 'Ann'));
      assert.equal(keyOf(after, 'Bob'), keyOf(before, 'Bob'));
      assert.ok(!before.some((row) => row._key === keyOf(after, 'New')));
      const kim = await call(`${rowsUrl}/rows/${keyOf(before, 'Kim')}`);
      assert.equal(kim.status, 404, kim.text);
      const events = (await m.store.eventsAfter(m.id, null, 100)).map(
        (event) => JSON.parse(event.body) as { type: string; data: { rows: Row[] } },
      );
      const created = events.find((event) => event.type === 'rows.created')?.data.rows;
      assert.deepEqual(created, [{ _id: 1, _key: keyOf(after, 'New'), name: 'New', age: 1 }]);
    });

    test("a column a person adds keeps every row's key", async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      m.setAll([
        ['name', 'age', 'team'],
        ['Ann', 31, 'red'],
        ['Bob', 27, 'red'],
        ['Kim', 40, 'blue'],
      ]);
      await refresh(m);
      const after = await keyed(rowsUrl);
      assert.deepEqual(
        after.map((row) => [row._key, row.team]),
        before.map((row, i) => [row._key, ['red', 'red', 'blue'][i]]),
      );
    });

    test('another server on the same store answers the same keys, writes by them, and gives out none twice', async (t) => {
      const m = await open(t);
      const first = `${m.url}/api/v1/${m.id}`;
      const posted = await call(first, { method: 'POST', body: { name: 'Lee' } });
      const [lee] = (posted.body as { keys: string[] }).keys;
      const before = await keyed(first);
      const otherUrl = await m.second();
      const other = `${otherUrl}/api/v1/${m.id}`;
      // The other server re-reads the tab (its copy was never read by it): keys stay.
      await call(`${otherUrl}/admin/v1/sheets/${m.id}/refresh`, { method: 'POST' });
      assert.deepEqual(await keyed(other), before);
      m.insertAt(0, [['Top', 0]]);
      const patched = await call(`${other}/rows/${lee}`, { method: 'PATCH', body: { age: 22 } });
      assert.equal(patched.status, 200, patched.text);
      const again = await call(other, { method: 'POST', body: { name: 'Max' } });
      const [max] = (again.body as { keys: string[] }).keys;
      assert.ok(!before.some((row) => row._key === max), `${max} was given before`);
      await m.inStep();
      const after = await keyed(first);
      assert.equal(keyOf(after, 'Lee'), lee);
      assert.equal(after.find((row) => row._key === lee)?.age, 22);
      assert.equal(keyOf(after, 'Max'), max);
    });

    test("If-Match with a row's ETag holds against a person's edit of another row, not of that row", async (t) => {
      const m = await open(t);
      const rowsUrl = `${m.url}/api/v1/${m.id}`;
      const before = await keyed(rowsUrl);
      const [bob, kim] = [keyOf(before, 'Bob'), keyOf(before, 'Kim')];
      const bobTag = (await call(`${rowsUrl}/rows/${bob}`)).headers.get('etag') as string;
      const kimTag = (await call(`${rowsUrl}/rows/${kim}`)).headers.get('etag') as string;
      // A person changes Kim's age; the copy learns it only by the check before the write.
      m.deleteAt(2);
      m.insertAt(2, [['Kim', 44]]);
      m.insertAt(0, [['Top', 0]]);
      const stale = await call(`${rowsUrl}/rows/${kim}`, {
        method: 'PATCH',
        headers: { 'if-match': kimTag },
        body: { age: 1 },
      });
      assert.equal(stale.status, 412, stale.text);
      const fine = await call(`${rowsUrl}/rows/${bob}`, {
        method: 'PATCH',
        headers: { 'if-match': bobTag },
        body: { age: 28 },
      });
      assert.equal(fine.status, 200, fine.text);
      await m.inStep();
      const after = await keyed(rowsUrl);
      assert.deepEqual(
        after.map((row) => [row.name, row.age]),
        [
          ['Top', 0],
          ['Ann', 31],
          ['Bob', 28],
          ['Kim', 44],
        ],
      );
      assert.equal(keyOf(after, 'Bob'), bob);
    });
  });
}

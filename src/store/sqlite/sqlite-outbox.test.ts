import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SqliteDialect } from './sqlite-dialect.ts';
import type { Database as Db } from 'better-sqlite3';
import { newEventId } from '../event-id.ts';
import { driverCall } from '../db-work.ts';

/** A store with events made a minute apart, at minutes `minutes` past 10:00. */
async function outboxAt(minutes: number[]) {
  const dialect = new SqliteDialect({ path: ':memory:', synchronous: 'full', indexThreshold: 64 });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 10, minute)).toISOString();
  const events = minutes.map((minute) => ({
    id: newEventId(Date.parse(at(minute))),
    sheetId: 'sheet',
    type: 'rows.created',
    body: '{}',
    createdAt: at(minute),
  }));
  await dialect.write(() => dialect.outbox.insertEvents(events));
  const kept = async () =>
    (await dialect.read(() => dialect.outbox.eventsAfter('sheet', null, 1000))).map((event) =>
      new Date(event.createdAt).getUTCMinutes(),
    );
  const prune = (minute: number, limit = 1000) =>
    dialect.write(() => dialect.outbox.pruneEvents(at(minute), at(0), limit));
  return { dialect, kept, prune };
}

test('the pruner removes exactly the events made before the cutoff, however many there are', async () => {
  for (const count of [1, 2, 3, 10, 33]) {
    const minutes = Array.from({ length: count }, (_, i) => i + 1);
    for (const cutoff of [0, 1, 2, Math.ceil(count / 2), count, count + 1, count + 5]) {
      const { dialect, kept, prune } = await outboxAt(minutes);
      const gone = await prune(cutoff);
      const expected = minutes.filter((minute) => minute >= cutoff);
      assert.deepEqual(await kept(), expected, `${count} events, cutoff at minute ${cutoff}`);
      assert.equal(gone, count - expected.length);
      await dialect.close();
    }
  }
});

test('the pruner finds the cutoff across positions left empty by events removed before', async () => {
  const { dialect, kept, prune } = await outboxAt(Array.from({ length: 40 }, (_, i) => i + 1));
  // A sheet's events removed with it leave gaps in the positions, at the cutoff too.
  await dialect.write(() =>
    driverCall((db: Db) => db.prepare('DELETE FROM events WHERE seq BETWEEN 12 AND 30').run()),
  );
  assert.equal(await prune(25), 11);
  assert.deepEqual(
    await kept(),
    Array.from({ length: 10 }, (_, i) => i + 31),
  );
  assert.equal(await prune(41), 10);
  assert.deepEqual(await kept(), []);
  assert.equal(await prune(50), 0);
  await dialect.close();
});

test('the pruner removes at most its batch at a time, oldest first', async () => {
  const { dialect, kept, prune } = await outboxAt(Array.from({ length: 20 }, (_, i) => i + 1));
  assert.equal(await prune(15, 4), 4);
  assert.deepEqual(
    await kept(),
    Array.from({ length: 16 }, (_, i) => i + 5),
  );
  await dialect.close();
});

test('a SQLite store keeps no index on the events’ time, which every commit would write', async () => {
  const dialect = new SqliteDialect({ path: ':memory:', synchronous: 'full', indexThreshold: 64 });
  const indexes = await dialect.read(() =>
    driverCall((db: Db) =>
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
        .pluck()
        .all(),
    ),
  );
  assert.deepEqual((indexes as string[]).sort(), ['events_by_sheet', 'sqlite_autoindex_events_1']);
  await dialect.close();
});

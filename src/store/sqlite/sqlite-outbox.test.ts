import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SqliteDialect } from './sqlite-dialect.ts';
import Database, { type Database as Db } from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** The names of the indexes on the events table. */
function eventIndexes(dialect: SqliteDialect): Promise<unknown[]> {
  return dialect.read(() =>
    driverCall((db: Db) =>
      db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'events'")
        .pluck()
        .all(),
    ),
  );
}

test('a SQLite store keeps no index on the events’ time or ids, which every commit would write', async () => {
  const dialect = new SqliteDialect({ path: ':memory:', synchronous: 'full', indexThreshold: 64 });
  assert.deepEqual(await eventIndexes(dialect), ['events_by_sheet']);
  await dialect.close();
});

/** The position the next event takes: one event more, made now. */
async function nextPosition(dialect: SqliteDialect, sheetId = 'sheet'): Promise<number> {
  const now = Date.now();
  const event = {
    sheetId,
    type: 'rows.created',
    body: '{}',
    createdAt: new Date(now).toISOString(),
  };
  await dialect.write(() => dialect.outbox.insertEvents([{ ...event, id: newEventId(now) }]));
  const [latest] = await dialect.read(() => dialect.outbox.latestEventSeqs([sheetId]));
  return latest?.seq ?? 0;
}

test('positions only grow: the pruned newest event keeps its place, hidden from every sheet', async () => {
  const { dialect, kept, prune } = await outboxAt([1, 2, 3]);
  assert.equal(await prune(10), 3);
  assert.deepEqual(await kept(), []);
  assert.equal(await prune(10), 0, 'the emptied event is not counted again');
  assert.equal(await nextPosition(dialect), 4);
  // A newer event lets the emptied one go.
  assert.equal(await prune(10), 1);
  const left = await dialect.read(() => dialect.outbox.eventsAfter('sheet', null, 10));
  assert.deepEqual(
    left.map((event) => event.seq),
    [4],
  );
  await dialect.close();
});

test('an event is found by its id among many made in the same millisecond, and no other is', async () => {
  const dialect = new SqliteDialect({ path: ':memory:', synchronous: 'full', indexThreshold: 64 });
  const times = [Date.UTC(2026, 0, 1, 10), Date.UTC(2026, 0, 1, 10, 0, 0, 1)];
  // 150 events in each of two milliseconds, more than one read's worth each, two sheets mixed.
  const events = times.flatMap((ms) =>
    Array.from({ length: 150 }, (_, i) => ({
      id: newEventId(ms),
      sheetId: i % 2 === 0 ? 'even' : 'odd',
      type: 'rows.created',
      body: `{"i":${i}}`,
      createdAt: new Date(ms).toISOString(),
    })),
  );
  await dialect.write(() => dialect.outbox.insertEvents(events));
  const positions = await dialect.read(() => dialect.outbox.eventsAfter('even', null, 1000));
  for (const [i, event] of events.entries()) {
    if (i % 37 !== 0 && i !== events.length - 1) continue;
    const position = await dialect.read(() =>
      dialect.outbox.eventSeq(event.sheetId, event.id, '2026-01-01T00:00:00.000Z'),
    );
    assert.equal(position, i + 1, `event ${i}`);
    const after = await dialect.read(() => dialect.outbox.eventsAfter('even', event.id, 1000));
    assert.deepEqual(
      after.map((e) => e.id),
      positions.filter((e) => e.seq > i + 1).map((e) => e.id),
    );
  }
  const missing = [newEventId(times[0]), newEventId(Date.UTC(2027, 0, 1)), 'evt_zz', 'not-an-id'];
  for (const id of missing) {
    assert.equal(await dialect.read(() => dialect.outbox.eventSeq('even', id, '2026-01-01')), null);
    assert.equal(
      (await dialect.read(() => dialect.outbox.eventsAfter('even', id, 1000))).length,
      positions.length,
      `${id}: all of the sheet's events`,
    );
  }
  assert.equal(
    await dialect.read(() => dialect.outbox.eventsExist([missing[0] as string, events[3]!.id])),
    true,
  );
  assert.equal(
    await dialect.read(() => dialect.outbox.eventsExist(missing.slice(0, 2) as string[])),
    false,
  );
  await dialect.close();
});

test('an event with an id that carries no time is found among its sheet’s events', async () => {
  const dialect = new SqliteDialect({ path: ':memory:', synchronous: 'full', indexThreshold: 64 });
  const createdAt = new Date().toISOString();
  const old = ['legacy-1', 'legacy-2'].map((id) => ({
    id,
    sheetId: 'sheet',
    type: 'rows.created',
    body: '{}',
    createdAt,
  }));
  await dialect.write(() => dialect.outbox.insertEvents(old));
  assert.equal(
    await dialect.read(() => dialect.outbox.eventSeq('sheet', 'legacy-1', createdAt)),
    1,
  );
  assert.deepEqual(
    (await dialect.read(() => dialect.outbox.eventsAfter('sheet', 'legacy-1', 10))).map(
      (e) => e.id,
    ),
    ['legacy-2'],
  );
  assert.equal(
    await dialect.read(() => dialect.outbox.eventSeq('other', 'legacy-1', createdAt)),
    null,
  );
  await dialect.close();
});

test('a store whose events had AUTOINCREMENT keeps their positions, and gives none again', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'sheetport-events-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'store.db');
  const options = { path, synchronous: 'full', indexThreshold: 64 } as const;
  await new SqliteDialect(options).close();
  // The events table as migration 20 left it, with five events of which the last two are gone.
  const raw = new Database(path);
  raw.exec(`
    DROP TABLE events;
    CREATE TABLE events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      sheet_id TEXT NOT NULL,
      type TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at TEXT NOT NULL
    );
    CREATE INDEX events_by_sheet ON events (sheet_id, seq);
    DELETE FROM schema_migrations WHERE version = 21;
  `);
  // One clock reading for the ids and their events' time, as a commit takes it.
  const now = Date.now();
  const createdAt = new Date(now).toISOString();
  const ids = [1, 2, 3, 4, 5].map(() => newEventId(now));
  for (const id of ids) {
    raw
      .prepare(
        "INSERT INTO events (id, sheet_id, type, body, created_at) VALUES (?, 's', 't', '{}', ?)",
      )
      .run(id, createdAt);
  }
  raw.exec('DELETE FROM events WHERE seq > 3');
  raw.close();

  const dialect = new SqliteDialect(options);
  t.after(() => dialect.close());
  const kept = await dialect.read(() => dialect.outbox.eventsAfter('s', null, 10));
  assert.deepEqual(
    kept.map((event) => [event.seq, event.id]),
    ids.slice(0, 3).map((id, i) => [i + 1, id]),
  );
  assert.equal(
    await dialect.read(() => dialect.outbox.eventSeq('s', ids[1] as string, createdAt)),
    2,
  );
  const next = { id: newEventId(now), sheetId: 's', type: 't', body: '{}', createdAt };
  await dialect.write(() => dialect.outbox.insertEvents([next]));
  assert.equal(await dialect.read(() => dialect.outbox.maxEventSeq('s')), 6);
  assert.deepEqual(await eventIndexes(dialect), ['events_by_sheet']);
});

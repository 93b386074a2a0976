import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eventTime, rowEvents } from './row-events.ts';
import type { SheetRecord } from './store-records.ts';

const sheet = { id: 'sheet-1', version: 7 } as SheetRecord;
const ann = '{"_id":0,"_key":"1","name":"Ann"}';
const bob = '{"_id":1,"_key":"2","name":"Bob"}';

test("a write's events take the time they are given: id, timestamp and createdAt alike", () => {
  const at = eventTime(1_700_000_000_123);
  const [event] = rowEvents(sheet, [{ type: 'rows.created', rows: [ann] }], 'api', undefined, at);
  assert.ok(event !== undefined);
  assert.equal(parseInt(event.id.slice(4, 13), 36), 1_700_000_000_123);
  assert.equal(event.createdAt, '2023-11-14T22:13:20.123Z');
  assert.equal((JSON.parse(event.body) as { timestamp: string }).timestamp, event.createdAt);
});

test('one change makes the same event as the changes of one kind merged', () => {
  const at = eventTime(1_700_000_000_000);
  const actor = { type: 'key' as const, id: 'k1' };
  const body = (changes: Parameters<typeof rowEvents>[1]) =>
    rowEvents(sheet, changes, 'api', actor, at).map((event) => {
      const parsed = JSON.parse(event.body) as Record<string, unknown>;
      // Ids are random past their time: the rest of the event is compared.
      delete parsed.id;
      return { ...parsed, type: event.type } as Record<string, unknown>;
    });
  assert.deepEqual(body([{ type: 'rows.created', rows: [ann, bob] }]), [
    {
      type: 'rows.created',
      timestamp: at.iso,
      data: {
        sheetId: 'sheet-1',
        version: 7,
        source: 'api',
        actor: { type: 'key', id: 'k1' },
        rows: [JSON.parse(ann), JSON.parse(bob)],
      },
    },
  ]);
  assert.deepEqual(
    body([{ type: 'rows.created', rows: [ann, bob] }]),
    body([
      { type: 'rows.created', rows: [ann] },
      { type: 'rows.created', rows: [bob] },
    ]),
  );
  const updated = body([{ type: 'rows.updated', rows: [bob], previous: [ann] }]);
  assert.deepEqual((updated[0]?.data as { previous: unknown }).previous, [JSON.parse(ann)]);
});

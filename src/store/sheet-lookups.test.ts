import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SheetRecord } from './dialect.ts';
import { SheetLookups } from './sheet-lookups.ts';

/** A database whose answers the test releases by hand, and whose contents it changes. */
function database() {
  const stored = new Map<string, number>();
  const asked: { ids: string[]; answer: () => void; fail: (error: Error) => void }[] = [];
  const fetch = (ids: string[]) =>
    new Promise<SheetRecord[]>((resolve, reject) => {
      // What the statement sees is what was stored when it started.
      const seen = ids
        .filter((id) => stored.has(id))
        .map((id) => ({ id, version: stored.get(id) }) as SheetRecord);
      asked.push({ ids, answer: () => resolve(seen), fail: reject });
    });
  return { stored, asked, fetch };
}

/** Lets the lookups of this turn go out. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('lookups made while a statement is out go together in the next, each seeing writes made before it began', async () => {
  const db = database();
  const lookups = new SheetLookups(db.fetch);
  db.stored.set('a', 1);
  const first = lookups.get('a');
  assert.equal(db.asked.length, 0, 'lookups that arrive together are gathered first');
  await turn();
  assert.deepEqual(
    db.asked.map((each) => each.ids),
    [['a']],
    'an idle server asks once the lookups of the turn are in',
  );

  // A write lands after the first statement started; lookups that begin now must see it.
  db.stored.set('a', 2);
  db.stored.set('b', 1);
  const later = [lookups.get('a'), lookups.get('b'), lookups.get('a'), lookups.get('missing')];
  assert.equal(db.asked.length, 1, 'nothing more is sent while a statement is out');

  db.asked[0]!.answer();
  assert.equal((await first)?.version, 1);
  await turn();
  assert.deepEqual(db.asked[1]!.ids, ['a', 'b', 'missing'], 'one statement, each id once');
  db.asked[1]!.answer();
  const answers = await Promise.all(later);
  assert.deepEqual(
    answers.map((sheet) => sheet?.version ?? null),
    [2, 1, 2, null],
  );
  assert.equal(db.asked.length, 2);
});

test('a failed statement fails the lookup it carried, not those waiting for the next', async () => {
  const db = database();
  const lookups = new SheetLookups(db.fetch);
  db.stored.set('a', 1);
  const carried = lookups.get('a');
  await turn();
  const waiting = lookups.get('a');
  db.asked[0]!.fail(new Error('connection lost'));
  await assert.rejects(carried, /connection lost/);
  await turn();
  assert.equal(db.asked.length, 2);
  db.asked[1]!.answer();
  assert.equal((await waiting)?.version, 1);
});

test('lookups that arrive in one turn share one statement', async () => {
  const db = database();
  const lookups = new SheetLookups(db.fetch);
  db.stored.set('a', 1);
  const together = [lookups.get('a'), lookups.get('b'), lookups.get('a')];
  await turn();
  assert.deepEqual(
    db.asked.map((each) => each.ids),
    [['a', 'b']],
  );
  db.asked[0]!.answer();
  assert.deepEqual(
    (await Promise.all(together)).map((sheet) => sheet?.version ?? null),
    [1, null, 1],
  );
});

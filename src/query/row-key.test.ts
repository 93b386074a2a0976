import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { parseRowQuery, type QueryString } from './parse-row-query.ts';
import { parseKey, parseKeyList, ridOfKey, ridOfRowEtag, rowEtag, withKey } from './row-key.ts';

test('a key is 1 to 64 of A-Z, a-z, 0-9, _ and -: anything else is invalid-key', () => {
  for (const good of ['0', '17', 'abc', 'A_b-9', 'x'.repeat(64)]) {
    assert.equal(parseKey(good, 'key'), good);
  }
  for (const bad of ['', 'x'.repeat(65), 'a.b', 'a b', 'é', '1,2', '/', '%41']) {
    assert.throws(
      () => parseKey(bad, 'key'),
      (error) => error instanceof Problem && error.code === 'invalid-key',
      JSON.stringify(bad),
    );
  }
});

test('_key lists keys separated by commas, repeats collapsed, an empty one refused', () => {
  assert.deepEqual(parseKeyList('3,1,3'), ['3', '1']);
  assert.throws(() => parseKeyList('1,,2'), /row key/);
});

test('a key names a row id only as the store writes ids: decimal, no leading zero, 32-bit', () => {
  const table: [string, number | null][] = [
    ['0', 0],
    ['17', 17],
    ['2147483647', 2147483647],
    ['2147483648', null],
    ['017', null],
    ['abc', null],
    ['1e3', null],
    ['99999999999', null],
  ];
  for (const [key, rid] of table) assert.equal(ridOfKey(key), rid, key);
});

test("a row's ETag changes with its cells and its id, and names the row it is of", () => {
  const tag = rowEtag(7, '{"name":"Ann"}', null);
  assert.match(tag, /^"k7\.[A-Za-z0-9_-]{22}"$/);
  assert.equal(rowEtag(7, '{"name":"Ann"}', null), tag);
  assert.notEqual(rowEtag(7, '{"name":"Ann "}', null), tag);
  assert.notEqual(rowEtag(8, '{"name":"Ann"}', null), tag);
  // The same text, once a date: another cell.
  assert.notEqual(
    rowEtag(7, '{"name":"2024-01-01"}', '0'),
    rowEtag(7, '{"name":"2024-01-01"}', null),
  );
  assert.equal(ridOfRowEtag(tag), 7);
  assert.equal(ridOfRowEtag(` ${tag} `), 7);
  for (const other of ['W/"12"', '"12"', '"12-csv"', '"k7"', '*']) {
    assert.equal(ridOfRowEtag(other), null, other);
  }
});

test('a row with its key: first, or after its position', () => {
  assert.equal(withKey('{"a":1}', 5), '{"_key":"5","a":1}');
  assert.equal(withKey('{"a":1}', 5, 2), '{"_id":2,"_key":"5","a":1}');
  assert.equal(withKey('{}', 5), '{"_key":"5"}');
});

test('_key and _with_key in a query: parsed, and _key alone chooses rows', () => {
  const query = parseRowQuery({ _key: '4,2', _with_key: 'true' });
  assert.deepEqual(query.keys, ['4', '2']);
  assert.equal(query.withKeys, true);
  const refused: QueryString[] = [
    { _key: '1', _id: '0' },
    { _key: '1', name: 'Ann' },
    { _key: '1', _or: 'name=Ann|name=Bob' },
    { _key: '1', _q: 'ann' },
    { _with_key: 'yes' },
    { _with_key: 'true', _group: 'name' },
    { _key: ['1', '2'] },
  ];
  for (const given of refused) {
    assert.throws(
      () => parseRowQuery(given),
      (error) => error instanceof Problem && error.code === 'invalid-parameter',
      JSON.stringify(given),
    );
  }
});

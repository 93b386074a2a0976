import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requiredScopes } from './required-scopes.ts';

test('each row request needs the scopes of what it does and of how it chooses rows', () => {
  const cases: [string, Record<string, string>, string[]][] = [
    ['GET', {}, ['read']],
    ['GET', { name: 'Ann' }, ['read']],
    ['HEAD', {}, ['read']],
    ['POST', {}, ['create']],
    ['POST', { _upsert: 'name' }, ['create', 'update', 'read']],
    ['PUT', { _id: '0' }, ['update']],
    ['PUT', { name: 'Ann' }, ['update', 'read']],
    ['PATCH', { _id: '0,1' }, ['update']],
    ['PATCH', { secret: '__ilike(b*)' }, ['update', 'read']],
    ['PATCH', { _or: 'name=a|name=b' }, ['update', 'read']],
    ['PATCH', { _q: 'ann' }, ['update', 'read']],
    ['DELETE', { _id: '3' }, ['delete']],
    // A key names a row as a position does, by what it is, not by what it holds.
    ['PATCH', { _key: '17,18' }, ['update']],
    ['DELETE', { _key: '17' }, ['delete']],
    ['DELETE', { name: 'Ann' }, ['delete', 'read']],
    ['DELETE', { _or: 'name=a' }, ['delete', 'read']],
    // A parameter not known to choose by position counts as choosing by value.
    ['DELETE', { _later: 'x' }, ['delete', 'read']],
  ];
  for (const [method, query, scopes] of cases) {
    assert.deepEqual(requiredScopes(method, query), scopes, `${method} ${JSON.stringify(query)}`);
  }
});

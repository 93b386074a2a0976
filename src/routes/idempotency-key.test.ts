import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Problem } from '../errors/problem.ts';
import { canonicalJson, parseIdempotencyKey, requestFingerprint } from './idempotency-key.ts';

describe('parseIdempotencyKey', () => {
  const accepted: [string | undefined, string | null][] = [
    [undefined, null],
    ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['8e03978e-40d5-43e8-bc93-6894a57f9324', '8e03978e-40d5-43e8-bc93-6894a57f9324'],
    ['  "padded"\t', 'padded'],
    ['"with space and , comma"', 'with space and , comma'],
    ['"quote \\" and backslash \\\\"', 'quote " and backslash \\'],
    ['"~!#"', '~!#'],
    ["token:with/slash_and.dots-and'*", "token:with/slash_and.dots-and'*"],
    [`"${'k'.repeat(255)}"`, 'k'.repeat(255)],
  ];
  for (const [header, key] of accepted) {
    test(`${JSON.stringify(header)} is the key ${JSON.stringify(key)}`, () => {
      assert.equal(parseIdempotencyKey(header), key);
    });
  }

  const refused: [string | string[], string][] = [
    ['', 'is empty'],
    ['   ', 'is empty'],
    ['""', 'is empty'],
    ['"open', 'does not close'],
    ['"a" "b"', 'text after'],
    ['"a";p=1', 'text after'],
    ['"a\\n"', 'escapes'],
    ['"tab\there"', 'printable ASCII'],
    ['"caf\u00e9"', 'printable ASCII'],
    ['two words', 'bare token'],
    ['a,b', 'bare token'],
    ['caf\u00e9', 'bare token'],
    [`"${'k'.repeat(256)}"`, 'too long'],
    ['k'.repeat(256), 'too long'],
    [['"a"', '"b"'], 'more than once'],
  ];
  for (const [header, why] of refused) {
    test(`${JSON.stringify(header)} is refused: ${why}`, () => {
      assert.throws(
        () => parseIdempotencyKey(header),
        (error: unknown) =>
          error instanceof Problem &&
          error.code === 'invalid-idempotency-key' &&
          error.status === 400 &&
          error.detail.includes(why),
      );
    });
  }
});

describe('requestFingerprint', () => {
  const base = { method: 'POST', sheetId: 's1', query: '', body: { name: 'a', age: 3 } };
  const same: [string, Partial<typeof base>][] = [
    ['members in another order', { body: { age: 3, name: 'a' } as typeof base.body }],
  ];
  for (const [what, change] of same) {
    test(`the same with ${what}`, () => {
      assert.equal(requestFingerprint({ ...base, ...change }), requestFingerprint(base));
    });
  }
  test('query parameters in another order, and encoded otherwise, are the same', () => {
    const a = { ...base, method: 'PATCH', query: 'name=Jo%20Ann&_id=1' };
    const b = { ...base, method: 'PATCH', query: '_id=1&name=Jo+Ann' };
    assert.equal(requestFingerprint(a), requestFingerprint(b));
  });
  const different: [string, Partial<typeof base>][] = [
    ['another method', { method: 'PUT' }],
    ['another sheet', { sheetId: 's2' }],
    ['a query', { query: '_upsert=name' }],
    ['another value', { body: { name: 'b', age: 3 } }],
    ['a number as text', { body: { name: 'a', age: '3' } as unknown as typeof base.body }],
    ['an array of it', { body: [{ name: 'a', age: 3 }] as unknown as typeof base.body }],
    ['no body', { body: undefined as unknown as typeof base.body }],
  ];
  for (const [what, change] of different) {
    test(`another request with ${what}`, () => {
      assert.notEqual(requestFingerprint({ ...base, ...change }), requestFingerprint(base));
    });
  }
  test('repeated parameters keep their order: _or=a&_or=b is not _or=b&_or=a', () => {
    assert.notEqual(
      requestFingerprint({ ...base, query: '_or=a&_or=b' }),
      requestFingerprint({ ...base, query: '_or=b&_or=a' }),
    );
  });
});

describe('canonicalJson', () => {
  const cases: [unknown, string][] = [
    [null, 'null'],
    [{ b: 1, a: [true, { d: null, c: 'x' }] }, '{"a":[true,{"c":"x","d":null}],"b":1}'],
    [[], '[]'],
    ['é"', '"é\\""'],
  ];
  for (const [value, text] of cases) {
    test(`${JSON.stringify(value)} is ${text}`, () => assert.equal(canonicalJson(value), text));
  }
});

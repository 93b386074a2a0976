import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import { expired, expiryOf, overlapEnd, type AskedExpiry } from './key-expiry.ts';

const now = Date.parse('2026-06-01T12:00:00.000Z');

test('an expiry is a future RFC 3339 date-time or a lifetime, answered as UTC ISO text', () => {
  const table: [AskedExpiry, string | null][] = [
    [{}, null],
    [{ expiresInSeconds: 1 }, '2026-06-01T12:00:01.000Z'],
    [{ expiresInSeconds: 86_400 }, '2026-06-02T12:00:00.000Z'],
    [{ expiresAt: '2026-06-01T12:00:00.001Z' }, '2026-06-01T12:00:00.001Z'],
    [{ expiresAt: '2026-06-01T14:30:00+02:00' }, '2026-06-01T12:30:00.000Z'],
    [{ expiresAt: '2026-06-01t12:30:00z' }, '2026-06-01T12:30:00.000Z'],
    [{ expiresAt: '2028-02-29T00:00:00Z' }, '2028-02-29T00:00:00.000Z'],
    [{ expiresAt: '2036-05-29T12:00:00Z' }, '2036-05-29T12:00:00.000Z'],
  ];
  for (const [asked, answer] of table) {
    assert.equal(expiryOf(asked, now), answer, JSON.stringify(asked));
  }
});

test('an expiry that is past, now, malformed, too far or given both ways is refused', () => {
  const table: AskedExpiry[] = [
    { expiresAt: '2026-06-01T12:00:00Z' },
    { expiresAt: '2026-05-01T12:00:00Z' },
    { expiresAt: '2027-02-29T00:00:00Z' },
    { expiresAt: '2027-13-01T00:00:00Z' },
    { expiresAt: '2027-01-01' },
    { expiresAt: '2027-01-01 10:00:00Z' },
    { expiresAt: '2027-01-01T10:00:00' },
    { expiresAt: 'next week' },
    { expiresAt: '2036-05-29T12:00:00.001Z' },
    { expiresInSeconds: 0 },
    { expiresInSeconds: -1 },
    { expiresInSeconds: 0.5 },
    { expiresInSeconds: 10 * 365 * 86_400 + 1 },
    { expiresInSeconds: 60, expiresAt: '2027-01-01T00:00:00Z' },
  ];
  for (const asked of table) {
    assert.throws(
      () => expiryOf(asked, now),
      (error: unknown) => error instanceof Problem && error.code === 'invalid-body',
      JSON.stringify(asked),
    );
  }
});

test('a rotation overlap defaults to a day, may be 0, and is refused out of range', () => {
  assert.equal(overlapEnd(undefined, now), '2026-06-02T12:00:00.000Z');
  assert.equal(overlapEnd(0, now), '2026-06-01T12:00:00.000Z');
  assert.equal(overlapEnd(30 * 86_400, now), '2026-07-01T12:00:00.000Z');
  for (const bad of [-1, 1.5, 30 * 86_400 + 1]) {
    assert.throws(() => overlapEnd(bad, now), Problem, String(bad));
  }
});

test('a key expires at its expiry, not a moment after', () => {
  assert.equal(expired(null, now), false);
  assert.equal(expired('2026-06-01T12:00:00.001Z', now), false);
  assert.equal(expired('2026-06-01T12:00:00.000Z', now), true);
  assert.equal(expired('2026-06-01T11:00:00.000Z', now), true);
});

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideClaim, type ClaimDecision, type IdempotencyRecord } from './idempotency-records.ts';

const now = new Date('2026-11-26T12:00:00.000Z');
const at = (seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

const record = (changes: Partial<IdempotencyRecord>): IdempotencyRecord => ({
  sheetId: 's',
  scope: 'admin',
  key: 'k',
  fingerprint: 'f',
  state: 'running',
  token: 't',
  leaseUntil: at(20),
  push: null,
  outcome: null,
  createdAt: at(-10),
  expiresAt: at(86_000),
  client: null,
  ...changes,
});

describe('decideClaim', () => {
  const cases: [string, IdempotencyRecord | null, string, ClaimDecision][] = [
    ['no key yet', null, 'f', 'insert'],
    [
      'a key past its day, whatever it held',
      record({ expiresAt: at(-1), fingerprint: 'g' }),
      'f',
      'renew',
    ],
    ['a done key', record({ state: 'done', outcome: '{}' }), 'f', 'replay'],
    ['a done key of another request', record({ state: 'done' }), 'g', 'mismatch'],
    ['a running key of another request', record({}), 'g', 'mismatch'],
    ['a running key within its lease', record({}), 'f', 'in-use'],
    ['a running key whose lease passed', record({ leaseUntil: at(-1) }), 'f', 'take-over'],
    ['a running key at the very end of its lease', record({ leaseUntil: at(0) }), 'f', 'take-over'],
    ['a pushed key whose lease passed', record({ leaseUntil: at(-1), push: 'p' }), 'f', 'in-use'],
    [
      'an unknown outcome whose lease passed',
      record({ state: 'unknown', leaseUntil: at(-1) }),
      'f',
      'in-use',
    ],
  ];
  for (const [what, stored, fingerprint, decision] of cases) {
    test(`${what}: ${decision}`, () => {
      assert.equal(decideClaim(stored, fingerprint, now), decision);
    });
  }
});

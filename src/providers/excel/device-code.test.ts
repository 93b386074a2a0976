import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextStep, type PollStep } from './device-code.ts';
import type { TokenAnswer } from './graph-tokens.ts';

const tokens = { access_token: 'at', refresh_token: 'rt', expires_in: 3599 };

/** [what, status, answer, interval before, the step it leads to] */
const cases: [string, number, TokenAnswer, number, PollStep][] = [
  [
    'pending: poll again after the same interval',
    400,
    { error: 'authorization_pending' },
    5,
    { kind: 'wait', intervalSeconds: 5 },
  ],
  [
    'slow_down: five seconds more',
    400,
    { error: 'slow_down' },
    5,
    { kind: 'wait', intervalSeconds: 10 },
  ],
  [
    'slow_down again: five more on top',
    400,
    { error: 'slow_down' },
    10,
    { kind: 'wait', intervalSeconds: 15 },
  ],
  [
    'declined, as Microsoft names it',
    400,
    { error: 'authorization_declined' },
    5,
    { kind: 'failed', reason: 'declined', detail: 'The sign-in was declined.' },
  ],
  [
    'declined, as RFC 8628 names it',
    400,
    { error: 'access_denied' },
    5,
    { kind: 'failed', reason: 'declined', detail: 'The sign-in was declined.' },
  ],
  [
    'expired code',
    400,
    { error: 'expired_token' },
    5,
    {
      kind: 'failed',
      reason: 'expired',
      detail: 'The code expired before the sign-in was completed.',
    },
  ],
  [
    'another refusal: its first line',
    400,
    { error: 'invalid_grant', error_description: 'AADSTS70000: Provided grant is invalid.\nTrace' },
    5,
    { kind: 'failed', reason: 'refused', detail: 'AADSTS70000: Provided grant is invalid.' },
  ],
  [
    'throttled: waited out',
    429,
    { error: 'temporarily_unavailable' },
    5,
    { kind: 'wait', intervalSeconds: 5 },
  ],
  ['identity platform failing: waited out', 503, {}, 5, { kind: 'wait', intervalSeconds: 5 }],
  [
    'signed in',
    200,
    tokens,
    5,
    {
      kind: 'signed-in',
      tokens: { accessToken: 'at', refreshToken: 'rt', expiresInMs: 3_599_000 },
    },
  ],
  [
    'signed in, expires_in as text',
    200,
    { ...tokens, expires_in: '60' },
    5,
    { kind: 'signed-in', tokens: { accessToken: 'at', refreshToken: 'rt', expiresInMs: 60_000 } },
  ],
  [
    'signed in without a refresh token: nothing to keep',
    200,
    { access_token: 'at', expires_in: 3599 },
    5,
    {
      kind: 'failed',
      reason: 'refused',
      detail: 'Microsoft gave no refresh token: the application must be allowed offline_access.',
    },
  ],
];

for (const [what, status, answer, interval, expected] of cases) {
  test(`device code poll: ${what}`, () => {
    assert.deepEqual(nextStep(status, answer, interval), expected);
  });
}

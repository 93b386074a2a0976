import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excerpt, excerptLength } from './excerpt.ts';

test('an excerpt keeps short text whole and cuts long text, saying how long it was', () => {
  assert.equal(excerpt('name'), 'name');
  assert.equal(excerpt('x'.repeat(excerptLength)), 'x'.repeat(excerptLength));
  const long = excerpt('y'.repeat(900_000));
  assert.equal(long, `${'y'.repeat(excerptLength - 1)}… (900000 characters)`);
  // A pair split at the cut is left out whole rather than halved.
  const emoji = excerpt(`${'a'.repeat(excerptLength - 2)}😀${'b'.repeat(10)}`);
  assert.equal(emoji, `${'a'.repeat(excerptLength - 2)}… (74 characters)`);
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellFromInput, changedCells } from './cell-input.ts';

const cases: [string, string | number | boolean | null][] = [
  ['', null],
  ['42', 42],
  ['-7', -7],
  ['3.25', 3.25],
  ['007', '007'],
  ['1.50', 1.5],
  ['20.00', 20],
  ['0.10', 0.1],
  ['02134', '02134'],
  ['4111111111111111', '4111111111111111'],
  ['1,234', '1,234'],
  ['-0.0', '-0.0'],
  ['+5', '+5'],
  ['1e3', '1e3'],
  ['-0', '-0'],
  ['+1 555 0100', '+1 555 0100'],
  ['true', true],
  ['false', false],
  ['True', 'True'],
  ['Lisbon', 'Lisbon'],
  [' 42', ' 42'],
];

for (const [text, cell] of cases) {
  test(`typed ${JSON.stringify(text)} is sent as ${JSON.stringify(cell)}`, () =>
    assert.equal(cellFromInput(text), cell));
}

test('only the cells whose text changed are sent', () => {
  const before = { name: 'Ann', age: 31, note: null, member: true };
  const texts = { name: 'Ann', age: '32', note: '', member: 'true' };
  assert.deepEqual(changedCells(before, texts), { age: 32 });
  assert.deepEqual(changedCells(before, { ...texts, name: '' }), { age: 32, name: null });
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem } from '../errors/problem.ts';
import type { Sheet } from '../model/sheet.ts';
import { parseRowQuery, type QueryString } from '../query/parse-row-query.ts';
import { planWriteOp, type WriteMethod } from './plan-write-op.ts';

const sheet: Sheet = {
  id: 'people',
  name: 'People',
  columns: ['name', 'age'],
  rowCount: 0,
  source: { provider: 'scratch' },
  settings: { deleteEnabled: false },
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

function asked(method: WriteMethod, query: QueryString, body: unknown) {
  return { method, query: parseRowQuery(query), params: Object.keys(query), body };
}

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof Problem) return error.code;
    throw error;
  }
  return 'planned';
}

test('each write method asks for its own operation: POST appends or upserts, PUT replaces, PATCH sets, DELETE removes', () => {
  const deletable = { ...sheet, settings: { deleteEnabled: true } };
  const kinds = [
    planWriteOp(sheet, asked('POST', {}, { name: 'Ann', age: 30 })),
    planWriteOp(sheet, asked('POST', { _upsert: 'name' }, { name: 'Ann', age: 31 })),
    planWriteOp(sheet, asked('PUT', { name: 'Ann' }, { name: 'Ann', age: 32 })),
    planWriteOp(sheet, asked('PATCH', { name: 'Ann' }, { age: 33 })),
    planWriteOp(deletable, asked('DELETE', { name: 'Ann' }, undefined)),
  ].map((op) => op.kind);
  assert.deepEqual(kinds, ['append', 'upsert', 'replace', 'patch', 'delete']);
});

test('a write is refused before it is planned: a POST with a filter, a PATCH of {}, a DELETE switched off', () => {
  assert.equal(
    refusal(() => planWriteOp(sheet, asked('POST', { name: 'Ann' }, { name: 'Bo' }))),
    'invalid-parameter',
  );
  assert.equal(
    refusal(() => planWriteOp(sheet, asked('PATCH', { name: 'Ann' }, {}))),
    'invalid-body',
  );
  assert.equal(
    refusal(() => planWriteOp(sheet, asked('DELETE', { name: 'Ann' }, undefined))),
    'delete-disabled',
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Problem, type ProblemCode } from '../errors/problem.ts';
import { parseRowQuery, type QueryString } from './parse-row-query.ts';
import { planRead, planTargetedSelection, type SheetShape } from './plan.ts';

const sheet: SheetShape = { name: 'people', columns: ['name', 'email', 'age', 'city'] };

test('a read plan names _fields and filter columns by index, _or alternatives grouped', () => {
  const plan = planRead(
    sheet,
    parseRowQuery({ _fields: 'city,name', age: '__ge(18)', _or: ['city=Oslo|email=*@x.no'] }),
  );
  assert.deepEqual(plan.fields, [3, 0]);
  assert.ok('filters' in plan.selection);
  assert.deepEqual(
    plan.selection.filters.map((f) => [f.index, f.op]),
    [[2, 'ge']],
  );
  assert.deepEqual(
    plan.selection.any.map((any) => any.map((f) => [f.index, f.op])),
    [
      [
        [3, 'eq'],
        [1, 'like'],
      ],
    ],
  );
  assert.equal(planRead(sheet, parseRowQuery({})).fields, null);
  assert.deepEqual(planRead(sheet, parseRowQuery({ _id: '2' })).selection, { ids: [2] });
});

test('an _or alone chooses rows for PUT, PATCH and DELETE', () => {
  for (const method of ['PUT', 'PATCH', 'DELETE']) {
    const selection = planTargetedSelection(sheet, parseRowQuery({ _or: 'name=a|name=b' }), method);
    assert.ok('filters' in selection);
    assert.deepEqual(selection.filters, []);
    assert.deepEqual(
      selection.any.map((any) => any.map((f) => f.index)),
      [[0, 0]],
    );
  }
});

test('plans that cannot be made are refused with a code', () => {
  const table: [string, QueryString, ProblemCode, RegExp][] = [
    ['GET', { _fields: 'name,phone' }, 'unknown-column', /Column "phone" does not exist/],
    ['GET', { _or: 'name=a|phone=1' }, 'unknown-column', /Column "phone" does not exist/],
    ['GET', { _or: 'name=a', phone: '1' }, 'unknown-column', /"phone"/],
    ['PATCH', { _fields: 'name', name: 'a' }, 'invalid-parameter', /_fields apply to GET only/],
    ['DELETE', { _fields: 'name', _or: 'name=a' }, 'invalid-parameter', /GET only/],
    ['DELETE', {}, 'selection-required', /a filter, an _or or a _q/],
    ['PUT', { _fields: 'name' }, 'invalid-parameter', /GET only/],
  ];
  for (const [method, query, code, message] of table) {
    assert.throws(
      () => {
        const parsed = parseRowQuery(query);
        if (method === 'GET') planRead(sheet, parsed);
        else planTargetedSelection(sheet, parsed, method);
      },
      (error: unknown) =>
        error instanceof Problem && error.code === code && message.test(error.detail),
      `${method} ${JSON.stringify(query)}`,
    );
  }
});

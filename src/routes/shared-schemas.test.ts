import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sharedSchemaCompilers } from './shared-schemas.ts';

const sheetId = { type: 'object', properties: { sheetId: { type: 'string' } } };
const other = { type: 'object', properties: { id: { type: 'integer' } } };

test('routes with the same schema share one validator; another schema gets its own', () => {
  const { buildValidator } = sharedSchemaCompilers();
  assert.ok(buildValidator !== undefined);
  const compile = buildValidator({}, { customOptions: {} });
  const route = (url: string, schema: object) => ({
    schema,
    method: 'GET',
    url,
    httpPart: 'params',
  });
  const first = compile(route('/api/v1/:sheetId', sheetId));
  const second = compile(route('/admin/v1/sheets/:sheetId', structuredClone(sheetId)));
  const third = compile(route('/x/:id', other));
  assert.equal(first, second);
  assert.notEqual(first, third);
  assert.equal(first({ sheetId: 'abc' }), true);
  assert.equal(third({ id: 'abc' }), false);
});

test('answers with the same schema share one serializer, which writes what its schema says', () => {
  const { buildSerializer } = sharedSchemaCompilers();
  assert.ok(buildSerializer !== undefined);
  const compile = buildSerializer({}, {});
  const route = (url: string, httpStatus: string) => ({
    schema: { type: 'object', properties: { status: { type: 'string' } } },
    method: 'GET',
    url,
    httpStatus,
  });
  const first = compile(route('/healthz', '200'));
  assert.equal(first, compile(route('/readyz', '503')));
  assert.equal(first({ status: 'ok', secret: 'left out' }), '{"status":"ok"}');
});

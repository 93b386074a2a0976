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

test('a schema is compiled when its route is first asked, and a failure leaves its errors where Fastify reads them', () => {
  const { buildValidator, buildSerializer } = sharedSchemaCompilers();
  assert.ok(buildValidator !== undefined && buildSerializer !== undefined);
  const validators = buildValidator({}, { customOptions: {} });
  const route = (schema: object) => ({ schema, method: 'GET', url: '/x/:id', httpPart: 'params' });
  // A schema ajv cannot compile fails at its first use, not while routes are registered.
  const broken = validators(route({ type: 'no-such-type' }));
  assert.throws(() => broken({}));
  const validate = validators(route(other)) as ((data: unknown) => boolean) & { errors?: unknown };
  assert.equal(validate({ id: 'abc' }), false);
  assert.ok(Array.isArray(validate.errors) && validate.errors.length === 1, 'the errors ajv found');
  assert.equal(validate({ id: 1 }), true);
  const serializers = buildSerializer({}, {});
  const serialize = serializers({
    schema: { type: 'object', properties: { n: { type: 'no-such-type' } } },
    method: 'GET',
    url: '/broken',
    httpStatus: '200',
  });
  assert.throws(() => serialize({ n: 1 }));
});

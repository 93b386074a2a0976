import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';

test('an OpenAPI 3.1 document of the row and management APIs is served at /openapi.json', async (t) => {
  const { url } = await build(t);
  const { status, body } = await call(`${url}/openapi.json`);
  assert.equal(status, 200);
  const doc = body as {
    openapi: string;
    paths: Record<string, Record<string, unknown>>;
    components: { schemas: Record<string, unknown> };
  };
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(Object.keys(doc.paths['/api/v1/{sheetId}'] ?? {}).sort(), [
    'delete',
    'get',
    'patch',
    'post',
    'put',
  ]);
  assert.deepEqual(Object.keys(doc.paths['/api/v1/sheets/{sheetId}'] ?? {}).sort(), [
    'delete',
    'get',
    'patch',
    'post',
    'put',
  ]);
  assert.deepEqual(Object.keys(doc.paths['/api/v1/{sheetId}/query'] ?? {}), ['get']);
  assert.deepEqual(Object.keys(doc.paths['/admin/v1/sheets'] ?? {}).sort(), ['get', 'post']);
  assert.deepEqual(Object.keys(doc.paths['/admin/v1/sheets/{sheetId}'] ?? {}).sort(), [
    'delete',
    'get',
    'patch',
  ]);
  assert.ok(doc.components.schemas.Problem, 'the problem document schema is a named component');
});

test('interactive API docs are served at /docs', async (t) => {
  const { url } = await build(t);
  const { status, text } = await call(`${url}/docs/`);
  assert.equal(status, 200);
  assert.match(text, /swagger-ui/i);
});

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

test('the row query parameters are described: filters and _or on routes choosing rows, _fields on reads', async (t) => {
  const { url } = await build(t);
  const { body } = await call(`${url}/openapi.json`);
  type Operation = {
    description?: string;
    parameters?: { name: string; in: string; description?: string }[];
  };
  const paths = (body as { paths: Record<string, Record<string, Operation>> }).paths;
  const row = paths['/api/v1/{sheetId}'] ?? {};
  const query = (method: string) =>
    (row[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  assert.deepEqual(query('get').sort(), [
    '_fields',
    '_id',
    '_limit',
    '_offset',
    '_or',
    '_sort',
    '_with_id',
  ]);
  for (const method of ['put', 'patch', 'delete']) {
    assert.deepEqual(query(method).sort(), ['_id', '_or'], method);
  }
  for (const method of ['get', 'put', 'patch', 'delete']) {
    const description = row[method]?.description ?? '';
    assert.match(description, /eq, ne, gt, ge, lt, le, ieq, ilike/, method);
    assert.match(description, /__in\(a,b\) and __nin\(a,b\)/, method);
  }
  const or = row.get?.parameters?.find((p) => p.name === '_or');
  assert.match(or?.description ?? '', /city=Oslo\|age=__gt\(40\)/);
});

test('interactive API docs are served at /docs', async (t) => {
  const { url } = await build(t);
  const { status, text } = await call(`${url}/docs/`);
  assert.equal(status, 200);
  assert.match(text, /swagger-ui/i);
});

test('the upload form is documented beside the JSON bodies of POST /admin/v1/sheets', async (t) => {
  const { url } = await build(t);
  const doc = (await call(`${url}/openapi.json`)).body as {
    paths: Record<string, { post?: { requestBody: { content: Record<string, unknown> } } }>;
  };
  const content = doc.paths['/admin/v1/sheets']?.post?.requestBody.content ?? {};
  assert.deepEqual(Object.keys(content).sort(), ['application/json', 'multipart/form-data']);
  const form = content['multipart/form-data'] as {
    schema: { type: string; required: string[]; properties: Record<string, { format?: string }> };
  };
  assert.equal(form.schema.type, 'object');
  assert.deepEqual(form.schema.required, ['file']);
  assert.deepEqual(Object.keys(form.schema.properties).sort(), [
    'decimal',
    'delimiter',
    'encoding',
    'file',
    'name',
    'tab',
  ]);
  assert.equal(form.schema.properties.file?.format, 'binary');
});

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
  // The /api/v1/sheets/<id> aliases answer the same, but a path of either family could match
  // the other's (/api/v1/sheets/query), so the document shows one.
  assert.deepEqual(
    Object.keys(doc.paths).filter((path) => path.startsWith('/api/v1/sheets/')),
    [],
  );
  assert.deepEqual(Object.keys(doc.paths['/api/v1/{sheetId}/openapi.json'] ?? {}), ['get']);
  assert.deepEqual(Object.keys(doc.paths['/api/v1/{sheetId}/query'] ?? {}), ['get']);
  assert.deepEqual(Object.keys(doc.paths['/admin/v1/sheets'] ?? {}).sort(), ['get', 'post']);
  assert.deepEqual(Object.keys(doc.paths['/admin/v1/sheets/{sheetId}'] ?? {}).sort(), [
    'delete',
    'get',
    'patch',
  ]);
  assert.ok(doc.components.schemas.Problem, 'the problem document schema is a named component');
});

type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  responses: Record<string, { description?: string; content?: Record<string, unknown> }>;
  parameters?: { name: string; in: string; schema: { type?: string } }[];
};
type Document = {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, Record<string, string>> };
};

test('the document declares how credentials are sent, and each operation its id, security and problem answers', async (t) => {
  const { url } = await build(t);
  const doc = (await call(`${url}/openapi.json`)).body as Document;
  assert.deepEqual(doc.servers, [{ url: '/', description: 'This server' }]);
  const schemes = doc.components.securitySchemes;
  assert.deepEqual(schemes.adminToken, {
    type: 'http',
    scheme: 'bearer',
    description: schemes.adminToken?.description,
  });
  assert.equal(schemes.apiKey?.scheme, 'bearer');
  assert.deepEqual([schemes.apiKeyHeader?.in, schemes.apiKeyHeader?.name], ['header', 'X-Api-Key']);
  const ids = new Set<string>();
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const where = `${method} ${path}`;
      assert.ok(operation.operationId !== undefined && !ids.has(operation.operationId), where);
      ids.add(operation.operationId);
      const security = (operation.security ?? []).map((s) => Object.keys(s).join());
      assert.deepEqual(
        security,
        path.startsWith('/admin/') ? ['adminToken'] : ['apiKey', 'apiKeyHeader', 'adminToken', ''],
        where,
      );
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue;
        assert.deepEqual(Object.keys(response.content ?? {}), ['application/problem+json'], where);
      }
    }
  }
  const read = doc.paths['/api/v1/{sheetId}']?.get;
  assert.deepEqual(Object.keys(read?.responses ?? {}), [
    '200',
    '304',
    '400',
    '401',
    '403',
    '404',
    '414',
    '429',
    '500',
    '502',
    '503',
  ]);
  for (const method of ['post', 'put', 'patch']) {
    const statuses = Object.keys(doc.paths['/api/v1/{sheetId}']?.[method]?.responses ?? {});
    for (const status of ['401', '403', '412', '413']) assert.ok(statuses.includes(status), method);
  }
  // The event stream's own caps are named where a client reads why it was refused.
  const stream = doc.paths['/api/v1/{sheetId}/events']?.get?.responses ?? {};
  assert.match(stream['429']?.description ?? '', /too-many-streams/);
  assert.match(stream['503']?.description ?? '', /streams-unavailable/);
  const paging = (read?.parameters ?? []).filter((p) => ['_limit', '_offset'].includes(p.name));
  assert.deepEqual(
    paging.map((p) => p.schema.type),
    ['integer', 'integer'],
  );
});

test('the row query parameters are described: filters, _or and _q on routes choosing rows, _fields and aggregates on reads', async (t) => {
  const { url } = await build(t);
  const { body } = await call(`${url}/openapi.json`);
  type Described = {
    description?: string;
    parameters?: { name: string; in: string; description?: string }[];
  };
  const paths = (body as { paths: Record<string, Record<string, Described>> }).paths;
  const row = paths['/api/v1/{sheetId}'] ?? {};
  const query = (method: string) =>
    (row[method]?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  assert.deepEqual(query('get').sort(), [
    '_agg',
    '_fields',
    '_group',
    '_id',
    '_key',
    '_limit',
    '_offset',
    '_or',
    '_q',
    '_sort',
    '_with_id',
    '_with_key',
  ]);
  for (const method of ['put', 'patch', 'delete']) {
    assert.deepEqual(query(method).sort(), ['_id', '_key', '_or', '_q'], method);
  }
  const agg = row.get?.parameters?.find((p) => p.name === '_agg');
  assert.match(agg?.description ?? '', /count\(\[column\]\), count_distinct\(column\), sum/);
  for (const method of ['get', 'put', 'patch', 'delete']) {
    const description = row[method]?.description ?? '';
    assert.match(description, /eq, ne, gt, ge, lt, le, ieq, ilike/, method);
    assert.match(description, /__in\(a,b\) and __nin\(a,b\)/, method);
  }
  const or = row.get?.parameters?.find((p) => p.name === '_or');
  assert.match(or?.description ?? '', /city=Oslo\|age=__gt\(40\)/);
  // A row by its key: read, replaced, patched and deleted at its own path.
  const byKey = paths['/api/v1/{sheetId}/rows/{key}'] ?? {};
  assert.deepEqual(Object.keys(byKey).sort(), ['delete', 'get', 'patch', 'put']);
  for (const method of ['get', 'put', 'patch', 'delete']) {
    const params = (byKey[method]?.parameters ?? []).filter((p) => p.in === 'path');
    assert.deepEqual(params.map((p) => p.name).sort(), ['key', 'sheetId'], method);
  }
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
    'textColumn',
  ]);
  assert.equal(form.schema.properties.file?.format, 'binary');
});

test('the document describes the source of each provider: in the body that connects a sheet, and in the sheet as described', async (t) => {
  const { url } = await build(t);
  const doc = (await call(`${url}/openapi.json`)).body as {
    paths: Record<string, { post?: { requestBody: { content: Record<string, unknown> } } }>;
    components: { schemas: Record<string, unknown> };
  };
  /** The property names of every object schema under `node` whose `provider` is `name`. */
  const shapes = (node: unknown, name: string): string[][] => {
    if (typeof node !== 'object' || node === null) return [];
    const found = Object.values(node).flatMap((child) => shapes(child, name));
    const properties = (
      node as { properties?: Record<string, { const?: unknown; enum?: unknown[] }> }
    ).properties;
    const provider = properties?.['provider'];
    // A literal is written `const`, or as a one-value `enum`.
    if (provider !== undefined && (provider.const ?? provider.enum?.[0]) === name)
      found.push(Object.keys(properties ?? {}).sort());
    return found;
  };
  const body = doc.paths['/admin/v1/sheets']?.post?.requestBody.content['application/json'];
  assert.deepEqual(shapes(body, 'excel'), [['drive', 'item', 'link', 'provider', 'tab']]);
  assert.deepEqual(shapes(body, 'google'), [['provider', 'spreadsheetId', 'tab']]);
  const described = shapes(doc.components.schemas, 'excel');
  assert.ok(
    described.some((keys) =>
      ['drive', 'item', 'tab', 'worksheetId'].every((key) => keys.includes(key)),
    ),
    `a stored Excel source in the sheet's description: ${JSON.stringify(described)}`,
  );
  assert.ok(shapes(doc.components.schemas, 'google').length > 0);
});

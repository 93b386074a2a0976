import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';
import { lintDocument } from './helpers/redocly.ts';
import { checkClients } from './helpers/typed-client.ts';
import { uploadFixture } from './helpers/upload.ts';

interface SheetDocument {
  info: { version: string };
  paths: Record<
    string,
    Record<string, { parameters?: { name: string; schema: Record<string, unknown> }[] }>
  >;
  components: { schemas: Record<string, { properties: Record<string, unknown> }> };
}

async function people(url: string, headers: Record<string, string> = {}): Promise<string> {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers,
    body: {
      name: 'people',
      columns: ['name', 'age', 'member', 'note'],
      rows: [
        { name: 'Ann', age: 31, member: true },
        { name: 'Bob', age: 45.5, member: false },
      ],
    },
  });
  assert.equal(created.status, 201);
  return (created.body as { id: string }).id;
}

const documentOf = async (url: string, id: string) => {
  const answer = await call(`${url}/api/v1/${id}/openapi.json`);
  assert.equal(answer.status, 200);
  return answer.body as SheetDocument;
};

test("a sheet's document types each column by the kinds its cells hold, and follows edits", async (t) => {
  const { url } = await build(t);
  const id = await people(url);
  const before = await documentOf(url, id);
  assert.deepEqual(before.components.schemas.Row?.properties, {
    _id: { type: 'integer', description: 'The row position, with _with_id=true.' },
    _key: { type: 'string', description: "The row's key, with _with_key=true." },
    name: { type: ['string', 'null'] },
    age: { type: ['number', 'null'] },
    member: { type: ['boolean', 'null'] },
    // No value yet: any cell.
    note: { type: ['number', 'string', 'boolean', 'null'] },
  });
  const rows = before.paths[`/api/v1/${id}`] ?? {};
  for (const method of ['get', 'put', 'patch', 'delete']) {
    const names = (rows[method]?.parameters ?? []).map((p) => p.name);
    for (const column of ['name', 'age', 'member', 'note']) assert.ok(names.includes(column));
  }
  const upsert = rows.post?.parameters?.find((p) => p.name === '_upsert');
  assert.deepEqual(upsert?.schema.enum, ['name', 'age', 'member', 'note']);
  const read = (name: string) => rows.get?.parameters?.find((p) => p.name === name);
  assert.deepEqual(read('_group')?.schema, {
    type: 'array',
    items: { type: 'string', enum: ['name', 'age', 'member', 'note'] },
  });
  const expressions = (read('_agg')?.schema.items as { enum: string[] }).enum;
  assert.deepEqual(expressions.slice(0, 3), ['count()', 'count(name)', 'count(age)']);
  assert.ok(expressions.includes('sum(age)') && expressions.includes('count_distinct(note)'));
  for (const method of ['get', 'put', 'patch', 'delete']) {
    assert.ok(
      (rows[method]?.parameters ?? []).some((p) => p.name === '_q'),
      method,
    );
  }

  const edit = await call(`${url}/api/v1/${id}?_id=1`, {
    method: 'PATCH',
    body: { age: 'unknown', note: 'moved' },
  });
  assert.equal(edit.status, 200);
  const after = await documentOf(url, id);
  assert.notEqual(after.info.version, before.info.version);
  const row = after.components.schemas.Row?.properties ?? {};
  assert.deepEqual(
    [row.age, row.note],
    [{ type: ['number', 'string', 'null'] }, { type: ['string', 'null'] }],
  );
});

test("a sheet's document describes its rows by key: _with_key, _key, /rows/{key} and the keys POST answers", async (t) => {
  const { url } = await build(t);
  const id = await people(url);
  const document = await documentOf(url, id);
  const rows = document.paths[`/api/v1/${id}`] ?? {};
  const names = (method: string) => (rows[method]?.parameters ?? []).map((p) => p.name);
  assert.ok(names('get').includes('_with_key'));
  for (const method of ['get', 'put', 'patch', 'delete']) {
    assert.ok(names(method).includes('_key'), method);
  }
  const byKey = document.paths[`/api/v1/${id}/rows/{key}`] ?? {};
  assert.deepEqual(Object.keys(byKey).sort(), ['delete', 'get', 'patch', 'put']);
  assert.deepEqual(Object.keys(document.components.schemas.KeyedRow?.properties ?? {}), [
    '_id',
    '_key',
    'name',
    'age',
    'member',
    'note',
  ]);
  const post = (rows.post ?? {}) as {
    responses?: Record<string, { content: Record<string, { schema: object }> }>;
  };
  const created = post.responses?.['201']?.content['application/json']?.schema as {
    properties: Record<string, unknown>;
  };
  assert.ok('keys' in created.properties);
});

test("a workbook's dates, times and date-times are typed as text of their shape", async (t) => {
  const { url } = await build(t);
  const upload = await uploadFixture(url, 'times-1904.xlsx');
  assert.equal(upload.status, 201);
  const doc = await documentOf(url, (upload.body as { id: string }).id);
  const when = doc.components.schemas.Row?.properties.when as { anyOf: Record<string, unknown>[] };
  assert.deepEqual(
    when.anyOf.map((schema) => schema.format ?? schema.pattern ?? schema.type),
    ['date', '^\\d{2}:\\d{2}:\\d{2}$', '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$', 'null'],
  );
});

test("a private sheet's document needs a key with the read scope, as its rows do", async (t) => {
  const adminToken = 'test-admin-token-0123456789';
  const admin = { authorization: `Bearer ${adminToken}` };
  const { url } = await build(t, { adminToken });
  const id = await people(url, admin);
  const key = async (scopes: string[]) => {
    const created = await call(`${url}/admin/v1/sheets/${id}/keys`, {
      method: 'POST',
      headers: admin,
      body: { scopes },
    });
    return (created.body as { key: string }).key;
  };
  const path = `${url}/api/v1/${id}/openapi.json`;
  assert.equal((await call(path)).status, 401);
  assert.equal((await call(path, { headers: { 'x-api-key': 'sk_wrong' } })).status, 401);
  const writer = await key(['create']);
  assert.equal((await call(path, { headers: { 'x-api-key': writer } })).status, 403);
  const reader = await key(['read']);
  assert.equal((await call(path, { headers: { 'x-api-key': reader } })).status, 200);
  const unknown = await call(`${url}/api/v1/AAAAAAAAAAAAAAAAAAAAAA/openapi.json`, {
    headers: admin,
  });
  assert.equal(unknown.status, 404);
});

test("a sheet's document passes Redocly's recommended rules: no error, no warning", async (t) => {
  const { url } = await build(t);
  const id = await people(url);
  const result = await lintDocument((await call(`${url}/api/v1/${id}/openapi.json`)).text);
  assert.deepEqual(result.problems, []);
  assert.deepEqual([result.errors, result.warnings], [0, 0]);
});

test('openapi-typescript makes a typed row of it: a client with openapi-fetch compiles, and a wrong type, an unknown column or text paging does not', async (t) => {
  const { url } = await build(t);
  const id = await people(url);
  const doc = await documentOf(url, id);
  const client = (body: string) => `import createClient from 'openapi-fetch';
import type { components, paths } from './sheet.js';
type Row = components['schemas']['Row'];
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });
export async function run(): Promise<Row[]> {
${body}
  return [];
}
`;
  const messages = await checkClients(doc, {
    typed: client(`  const { data, error } = await client.GET('/api/v1/${id}', {
    params: { query: { age: '__gt(30)', _limit: 10, _offset: 0, _sort: '-age' } },
  });
  if (error !== undefined) throw new Error(error.detail);
  const names: (string | null)[] = data.map((row) => row.name);
  const row: components['schemas']['NewRow'] = { name: 'Di', age: 28 };
  await client.PUT('/api/v1/${id}', { params: { query: { _id: '0' } }, body: row });
  const ages: (number | null)[] = data.map((row) => row.age);
  void [names, ages];
  await client.POST('/api/v1/${id}', { body: [{ name: 'Cy', age: 40, member: false }] });
  await client.PATCH('/api/v1/${id}', { params: { query: { name: 'Cy' } }, body: { member: true } });
  await client.POST('/api/v1/${id}', { params: { query: { _upsert: 'name' } }, body: { name: 'Cy' } });`),
    wrongType: client(
      `  await client.POST('/api/v1/${id}', { body: { name: 'Cy', member: 'yes' } });`,
    ),
    // openapi-fetch infers a body inline, which TypeScript checks for excess keys only once the
    // body is given its type: NewRow, as a client declares the rows it writes.
    unknownColumn:
      client(`  const row: components['schemas']['NewRow'] = { name: 'Cy', nickname: 'Cy' };
  await client.POST('/api/v1/${id}', { body: row });`),
    textPaging: client(
      `  await client.GET('/api/v1/${id}', { params: { query: { _limit: 'ten' } } });`,
    ),
    readAsText: client(`  const { data } = await client.GET('/api/v1/${id}');
  const ages: string[] = (data ?? []).map((row) => row.age);
  void ages;`),
  });
  assert.deepEqual(messages.typed, []);
  assert.deepEqual(messages.elsewhere, undefined);
  assert.match(
    messages.wrongType?.join('\n') ?? '',
    /'string' is not assignable to type 'boolean \| null \| undefined'/,
  );
  assert.match(messages.unknownColumn?.join('\n') ?? '', /'nickname' does not exist/);
  assert.match(
    messages.textPaging?.join('\n') ?? '',
    /'string' is not assignable to type 'number'/,
  );
  assert.match(messages.readAsText?.join('\n') ?? '', /'number \| null' is not assignable/);
});

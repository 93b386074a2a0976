/**
 * The MCP server at /mcp, driven by the official SDK's client over Streamable HTTP: tools run as
 * the row API requests they stand for, with the same keys, scopes, idempotency and problems.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { build, call } from './helpers/build.ts';
import { connectAgent, errorText, structured } from './helpers/mcp.ts';
import { until } from './helpers/until.ts';

const adminToken = 'an-admin-token-of-enough-length';
const admin = { authorization: `Bearer ${adminToken}` };

async function server(t: TestContext, options: { token?: boolean } = {}) {
  const token = options.token ?? true;
  const { url } = await build(t, token ? { adminToken } : {});
  const headers = token ? admin : {};
  const sheet = async (name: string, rows: Record<string, unknown>[], extra: object = {}) => {
    const made = await call(`${url}/admin/v1/sheets`, {
      method: 'POST',
      headers,
      body: { name, columns: Object.keys(rows[0] ?? { name: '' }), rows, ...extra },
    });
    assert.equal(made.status, 201, made.text);
    return (made.body as { id: string }).id;
  };
  const key = async (sheetId: string, scopes: string[]) => {
    const made = await call(`${url}/admin/v1/sheets/${sheetId}/keys`, {
      method: 'POST',
      headers,
      body: { name: scopes.join('+'), scopes },
    });
    assert.equal(made.status, 201, made.text);
    return made.body as { key: string; id: string };
  };
  const connect = (credential: string | null) => connectAgent(t, url, credential);
  const rows = async (sheetId: string) =>
    (await call(`${url}/api/v1/${sheetId}`, { headers })).body as Record<string, unknown>[];
  /** The rows as the row API answers them with their keys, as the tools answer them. */
  const keyed = async (sheetId: string) =>
    (await call(`${url}/api/v1/${sheetId}?_with_key=true`, { headers })).body as ({
      _key: string;
    } & Record<string, unknown>)[];
  return { url, sheet, key, connect, rows, keyed };
}

const people = [
  { name: 'Ann', age: 31, city: 'Oslo' },
  { name: 'Bob', age: 45, city: 'Rome' },
  { name: 'Cy', age: 27, city: 'Lima' },
];

test('the administrator sees every tool, each with its schemas and annotations', async (t) => {
  const { connect } = await server(t);
  const client = await connect(adminToken);
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((tool) => tool.name).sort(), [
    'add_rows',
    'aggregate_rows',
    'delete_rows',
    'describe_sheet',
    'list_sheets',
    'query_rows',
    'update_rows',
    'upsert_rows',
  ]);
  for (const tool of tools) {
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema?.type, 'object', tool.name);
    assert.equal(typeof tool.annotations?.readOnlyHint, 'boolean', tool.name);
    assert.equal(typeof tool.annotations?.destructiveHint, 'boolean', tool.name);
    assert.equal(typeof tool.annotations?.idempotentHint, 'boolean', tool.name);
  }
  const readOnly = tools.filter((tool) => tool.annotations?.readOnlyHint).map((tool) => tool.name);
  assert.deepEqual(readOnly.sort(), [
    'aggregate_rows',
    'describe_sheet',
    'list_sheets',
    'query_rows',
  ]);
});

test('the whole tools/list for a 20-column sheet fits in 1,500 tokens of 4 characters', async (t) => {
  const { sheet, url, connect } = await server(t);
  const columns = Object.fromEntries(
    Array.from({ length: 20 }, (_, i) => [`column number ${i}`, i]),
  );
  await sheet('wide', [columns]);
  await connect(adminToken);
  // The answer as it goes over the wire, to a session-less request.
  const answer = await call(`${url}/mcp`, {
    method: 'POST',
    headers: { ...admin, accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  assert.equal(answer.status, 200, answer.text);
  assert.ok(answer.text.length <= 6000, `tools/list is ${answer.text.length} characters`);
  t.diagnostic(
    `tools/list: ${answer.text.length} characters, ${Math.ceil(answer.text.length / 4)} tokens`,
  );
});

test('tools read and write the sheet exactly as the row API does', async (t) => {
  const { sheet, connect, rows, keyed } = await server(t);
  const id = await sheet('people', people);
  const client = await connect(adminToken);

  const listed = structured(await client.callTool({ name: 'list_sheets', arguments: {} }));
  assert.deepEqual(listed.sheets, [{ id, name: 'people', rows: 3 }]);

  const described = structured(
    await client.callTool({ name: 'describe_sheet', arguments: { sheet: 'people' } }),
  );
  assert.deepEqual(described.columns, [
    { name: 'name', types: ['text'] },
    { name: 'age', types: ['number'] },
    { name: 'city', types: ['text'] },
  ]);
  assert.equal(described.rows, 3);
  assert.equal(described.deleteEnabled, true);
  assert.match(String(described.filterSyntax), /__gt\(30\)/);

  // `or` means exactly `_or=city=Oslo|age=__gt(40)`, ANDed with `filters`.
  const found = structured(
    await client.callTool({
      name: 'query_rows',
      arguments: {
        sheet: id,
        or: [{ city: 'Oslo' }, { age: '__gt(40)' }],
        filters: { name: '__ne(Bob)' },
        sort: '-age',
      },
    }),
  );
  const [ann] = await keyed(id);
  assert.deepEqual(found, { rows: [ann], total: 1 });
  const paged = structured(
    await client.callTool({
      name: 'query_rows',
      arguments: { sheet: id, sort: 'age', limit: 1, offset: 1, fields: ['name'] },
    }),
  );
  assert.deepEqual(paged, { rows: [{ _key: ann?._key, name: 'Ann' }], total: 3 });

  const added = structured(
    await client.callTool({
      name: 'add_rows',
      arguments: { sheet: id, rows: [{ name: 'Dee', age: 52 }] },
    }),
  );
  const dee = (await keyed(id))[3];
  assert.deepEqual(added, { created: 1, keys: [dee?._key] });
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'update_rows',
        arguments: { sheet: id, filters: { name: 'Dee' }, values: { city: 'Kyiv' } },
      }),
    ),
    { updated: 1 },
  );
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'upsert_rows',
        arguments: {
          sheet: id,
          key_column: 'name',
          rows: [
            { name: 'Dee', age: 53 },
            { name: 'Eve', age: 38 },
          ],
        },
      }),
    ),
    { created: 1, updated: 1, keys: [dee?._key, (await keyed(id))[4]?._key] },
  );
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'delete_rows',
        arguments: { sheet: id, filters: { name: 'Bob' } },
      }),
    ),
    { deleted: 1 },
  );
  assert.deepEqual(await rows(id), [
    people[0],
    people[2],
    { name: 'Dee', age: 53, city: 'Kyiv' },
    { name: 'Eve', age: 38, city: null },
  ]);
});

test('a call retried with its idempotency_key is applied once; another call with the key is refused', async (t) => {
  const { sheet, connect, rows } = await server(t);
  const id = await sheet('people', people);
  const client = await connect(adminToken);
  const add = (args: object) =>
    client.callTool({
      name: 'add_rows',
      arguments: { sheet: id, idempotency_key: 'add-dee', ...args },
    });
  const first = structured(await add({ rows: [{ name: 'Dee', age: 52 }] }));
  assert.equal(first.created, 1);
  // The same arguments in another order are the same call, answered as the first was.
  assert.deepEqual(structured(await add({ rows: [{ age: 52, name: 'Dee' }] })), first);
  assert.match(
    errorText(await add({ rows: [{ name: 'Eve' }] })),
    /^idempotency-key-mismatch \(422\)/,
  );
  const names = (await rows(id)).map((row) => row.name);
  assert.deepEqual(names, ['Ann', 'Bob', 'Cy', 'Dee']);
});

test("a key's tools are bounded by its scopes and its sheet", async (t) => {
  const { sheet, key, connect, rows } = await server(t);
  const id = await sheet('people', people);
  const other = await sheet('other', [{ name: 'secret' }]);
  const reader = await connect((await key(id, ['read'])).key);
  const readTools = (await reader.listTools()).tools.map((tool) => tool.name).sort();
  assert.deepEqual(readTools, ['aggregate_rows', 'describe_sheet', 'list_sheets', 'query_rows']);
  assert.deepEqual(structured(await reader.callTool({ name: 'list_sheets', arguments: {} })), {
    sheets: [{ id, name: 'people', rows: 3 }],
  });
  assert.match(
    errorText(
      await reader.callTool({ name: 'add_rows', arguments: { sheet: id, rows: [{ name: 'X' }] } }),
    ),
    /^forbidden: add_rows needs an API key with the "create" scope/,
  );
  assert.match(
    errorText(await reader.callTool({ name: 'query_rows', arguments: { sheet: other } })),
    /^sheet-not-found/,
  );
  assert.match(
    errorText(await reader.callTool({ name: 'query_rows', arguments: { sheet: 'other' } })),
    /^sheet-not-found/,
  );

  const creator = await connect((await key(id, ['create'])).key);
  assert.deepEqual((await creator.listTools()).tools.map((tool) => tool.name).sort(), [
    'add_rows',
    'list_sheets',
  ]);
  assert.match(
    errorText(
      await creator.callTool({
        name: 'upsert_rows',
        arguments: { sheet: id, key_column: 'name', rows: [{ name: 'Ann', age: 1 }] },
      }),
    ),
    /^forbidden: upsert_rows needs an API key with the "read" and "update" scopes/,
  );
  assert.deepEqual((await rows(id))[0], people[0], 'nothing changed');
});

test('problems of the row API come back as tool errors that say what to do', async (t) => {
  const { sheet, connect, rows, url } = await server(t);
  const id = await sheet('people', people);
  const client = await connect(adminToken);
  assert.match(
    errorText(
      await client.callTool({
        name: 'query_rows',
        arguments: { sheet: id, filters: { nme: 'Ann' } },
      }),
    ),
    /^unknown-column \(400\): Column "nme" does not exist/,
  );
  assert.match(
    errorText(
      await client.callTool({
        name: 'query_rows',
        arguments: { sheet: id, filters: { age: '__gt(3' } },
      }),
    ),
    /^invalid-filter \(400\)/,
  );
  assert.match(
    errorText(
      await client.callTool({ name: 'query_rows', arguments: { sheet: id, limit: 'ten' } }),
    ),
    /^invalid-arguments: \/limit must be integer\.$/,
  );
  assert.match(
    errorText(await client.callTool({ name: 'query_rows', arguments: { sheet: id, bogus: 1 } })),
    /^invalid-arguments: the arguments may not hold "bogus"\.$/,
  );
  assert.match(
    errorText(await client.callTool({ name: 'delete_rows', arguments: { sheet: id } })),
    /^selection-required \(400\)/,
  );
  assert.equal((await rows(id)).length, 3, 'nothing was deleted');
  const locked = await sheet('locked', people);
  const switched = await call(`${url}/admin/v1/sheets/${locked}`, {
    method: 'PATCH',
    headers: admin,
    body: { deleteEnabled: false },
  });
  assert.equal(switched.status, 200, switched.text);
  assert.match(
    errorText(
      await client.callTool({
        name: 'delete_rows',
        arguments: { sheet: locked, filters: { name: 'Ann' } },
      }),
    ),
    /^delete-disabled \(405\)/,
  );
  assert.equal((await rows(locked)).length, 3, 'nothing was deleted');
});

test('without a credential where one is needed, /mcp answers 401 with a Bearer challenge and no OAuth metadata', async (t) => {
  const { url } = await server(t);
  const answer = await call(`${url}/mcp`, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  assert.equal(answer.status, 401);
  assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
  assert.doesNotMatch(answer.headers.get('www-authenticate') ?? '', /resource_metadata/);
  const wrong = await call(`${url}/mcp`, {
    method: 'POST',
    headers: { accept: 'application/json, text/event-stream', authorization: 'Bearer sp_nope' },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  assert.equal(wrong.status, 401);
});

test('a server without an admin token treats a local caller without a credential as the administrator', async (t) => {
  const { sheet, connect } = await server(t, { token: false });
  const id = await sheet('people', people);
  const client = await connect(null);
  assert.deepEqual(structured(await client.callTool({ name: 'list_sheets', arguments: {} })), {
    sheets: [{ id, name: 'people', rows: 3 }],
  });
});

test('a page of another site is refused, whatever its credential', async (t) => {
  const { url } = await server(t);
  const answer = await call(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...admin,
      origin: 'http://evil.example',
      accept: 'application/json, text/event-stream',
    },
    body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
  });
  assert.equal(answer.status, 403);
  assert.equal((answer.body as { code: string }).code, 'cross-site-refused');
});

test('a request naming a session this server does not know is served without one', async (t) => {
  const { sheet, url, keyed } = await server(t);
  const id = await sheet('people', people);
  const answer = await call(`${url}/mcp`, {
    method: 'POST',
    headers: {
      ...admin,
      accept: 'application/json, text/event-stream',
      'mcp-session-id': 'a-session-of-another-server',
      'mcp-protocol-version': '2025-06-18',
    },
    body: {
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'query_rows', arguments: { sheet: id, filters: { name: 'Bob' } } },
    },
  });
  assert.equal(answer.status, 200, answer.text);
  const result = (answer.body as { result: { structuredContent: unknown } }).result;
  assert.deepEqual(result.structuredContent, { rows: [(await keyed(id))[1]], total: 1 });
  const stream = await call(`${url}/mcp`, {
    headers: {
      ...admin,
      accept: 'text/event-stream',
      'mcp-session-id': 'a-session-of-another-server',
    },
  });
  assert.equal(stream.status, 404, 'a stream lives only where its session does');
});

test('resources list and read the sheets a caller may read; a subscription hears every change', async (t) => {
  const { sheet, key, connect, url, keyed } = await server(t);
  const id = await sheet('people', people);
  await sheet('other', [{ name: 'secret' }]);
  const reader = await connect((await key(id, ['read'])).key);
  const { resources } = await reader.listResources();
  assert.deepEqual(
    resources.map((resource) => resource.uri),
    [`sheetport://sheets/${id}`],
  );
  const read = await reader.readResource({ uri: `sheetport://sheets/${id}` });
  const body = JSON.parse((read.contents[0] as { text: string }).text) as {
    rows: unknown[];
    total: number;
  };
  assert.deepEqual(body, { sheet: 'people', total: 3, rows: await keyed(id) });

  const updates: string[] = [];
  reader.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  await reader.subscribeResource({ uri: `sheetport://sheets/${id}` });
  const written = await call(`${url}/api/v1/${id}`, {
    method: 'POST',
    headers: admin,
    body: { name: 'Dee' },
  });
  assert.equal(written.status, 201);
  await until(() => updates.length >= 1, 'a notification after a write through the REST API');
  assert.deepEqual(updates, [`sheetport://sheets/${id}`]);
});

test('aggregate_rows answers what the row API answers for the same _group and _agg', async (t) => {
  const { sheet, connect, url } = await server(t);
  const id = await sheet('sales', [
    { city: 'Oslo', price: 10, 'a,b': 1 },
    { city: 'Rome', price: 5, 'a,b': 2 },
    { city: 'Oslo', price: 2.5, 'a,b': 1 },
  ]);
  const client = await connect(adminToken);
  const grouped = structured(
    await client.callTool({
      name: 'aggregate_rows',
      arguments: {
        sheet: id,
        group: ['city', 'a,b'],
        aggregates: ['count()', 'sum(price)'],
        filters: { price: '__gt(1)' },
        sort: '-sum(price)',
      },
    }),
  );
  const rest = await call(
    `${url}/api/v1/${id}?price=__gt(1)&_group=city,a\\,b&_agg=count(),sum(price)&_sort=-sum(price)&_limit=100`,
    { headers: admin },
  );
  assert.equal(rest.status, 200, rest.text);
  assert.deepEqual(grouped, { groups: rest.body });
  assert.deepEqual(grouped.groups, [
    { city: 'Oslo', 'a,b': 1, 'count()': 2, 'sum(price)': 12.5 },
    { city: 'Rome', 'a,b': 2, 'count()': 1, 'sum(price)': 5 },
  ]);
});

test('rows carry their _key, and keys choose the rows an update or a delete lands on after others moved', async (t) => {
  const { url, sheet, connect, rows } = await server(t);
  const id = await sheet('people', people);
  const client = await connect(adminToken);
  const read = structured(await client.callTool({ name: 'query_rows', arguments: { sheet: id } }));
  const shown = read.rows as { _key: string; name: string }[];
  assert.deepEqual(
    shown.map((row) => row.name),
    ['Ann', 'Bob', 'Cy'],
  );
  assert.ok(
    shown.every((row) => /^[A-Za-z0-9_-]{1,64}$/.test(row._key)),
    JSON.stringify(shown),
  );
  const [ann, bob, cy] = shown.map((row) => row._key);

  const added = structured(
    await client.callTool({ name: 'add_rows', arguments: { sheet: id, rows: [{ name: 'Dee' }] } }),
  );
  assert.equal(added.created, 1);
  assert.equal((added.keys as string[]).length, 1);
  assert.ok(![ann, bob, cy].includes((added.keys as string[])[0]), 'a new row, a new key');

  // Someone deletes Ann over REST: Bob and Cy move up a place, and keep their keys.
  const removed = await call(`${url}/api/v1/${id}?_id=0`, { method: 'DELETE', headers: admin });
  assert.equal(removed.status, 200, removed.text);
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'update_rows',
        arguments: { sheet: id, keys: [cy], values: { city: 'Quito' } },
      }),
    ),
    { updated: 1 },
  );
  assert.deepEqual(
    structured(
      await client.callTool({ name: 'delete_rows', arguments: { sheet: id, keys: [bob] } }),
    ),
    { deleted: 1 },
  );
  assert.deepEqual(await rows(id), [
    { name: 'Cy', age: 27, city: 'Quito' },
    { name: 'Dee', age: null, city: null },
  ]);

  // A key that is gone changes nothing, and says so.
  assert.match(
    errorText(
      await client.callTool({
        name: 'update_rows',
        arguments: { sheet: id, keys: [ann, cy], values: { city: 'Oslo' } },
      }),
    ),
    /^row-not-found \(404\)/,
  );
  assert.equal((await rows(id))[0]?.city, 'Quito');
  const byKey = structured(
    await client.callTool({ name: 'query_rows', arguments: { sheet: id, keys: [cy] } }),
  );
  assert.deepEqual(byKey.rows, [{ _key: cy, name: 'Cy', age: 27, city: 'Quito' }]);
});

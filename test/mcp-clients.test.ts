/**
 * The MCP server as agents reach it: through the stdio bridge (`sheetport mcp`), against Google
 * and Excel sheets in the project's emulators, and checked by the official conformance suite.
 */
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { build, call } from './helpers/build.ts';
import {
  bothSides as googleSides,
  connect as connectGoogle,
  setup as googleSetup,
} from './helpers/google.ts';
import { bothSides as excelSides, connectPeople, excelApp } from './helpers/excel.ts';
import { connectAgent, structured } from './helpers/mcp.ts';
import { until } from './helpers/until.ts';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Every writing tool, then a read, on a connected sheet whose first column is `name`. */
async function everyTool(client: Client, id: string): Promise<void> {
  const described = structured(
    await client.callTool({ name: 'describe_sheet', arguments: { sheet: id } }),
  );
  assert.deepEqual(
    (described.columns as { name: string }[]).map((column) => column.name).slice(0, 2),
    ['name', 'age'],
  );
  const add = async () =>
    structured(
      await client.callTool({
        name: 'add_rows',
        arguments: { sheet: id, rows: [{ name: 'Zed', age: 70 }], idempotency_key: 'zed' },
      }),
    );
  const added = await add();
  assert.equal(added.created, 1);
  const [zed] = added.keys as string[];
  assert.match(zed ?? '', /^[A-Za-z0-9_-]{1,64}$/);
  assert.deepEqual(await add(), added, 'the retry answers the first answer');
  // By its key, which the answer gave before the copy took the row.
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'update_rows',
        arguments: { sheet: id, keys: [zed], values: { age: 71 } },
      }),
    ),
    { updated: 1 },
  );
  const everyone = structured(
    await client.callTool({
      name: 'query_rows',
      arguments: { sheet: id, filters: { name: 'Ann' } },
    }),
  );
  const annKey = (everyone.rows as { _key: string }[])[0]?._key;
  assert.notEqual(annKey, undefined);
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'upsert_rows',
        arguments: { sheet: id, key_column: 'name', rows: [{ name: 'Ann', age: 32 }] },
      }),
    ),
    { created: 0, updated: 1, keys: [annKey] },
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
  const found = structured(
    await client.callTool({
      name: 'query_rows',
      arguments: { sheet: id, filters: { age: '__gt(30)' }, sort: 'name', fields: ['name', 'age'] },
    }),
  );
  assert.deepEqual(
    (found.rows as { name: string }[]).map((row) => row.name),
    (found.rows as { name: string }[]).map((row) => row.name).sort(),
  );
  assert.ok(
    (found.rows as { _key: string; name: string; age: number }[]).some(
      (row) => row._key === zed && row.name === 'Zed' && row.age === 71,
    ),
  );
}

/** A connected sheet of each provider, as the server and the spreadsheet hold it. */
const providers = [
  {
    name: 'a Google sheet',
    where: 'spreadsheet',
    connect: async (t: TestContext) => {
      const setup = await googleSetup(t);
      const id = await connectGoogle(setup);
      return { url: setup.url, id, sides: () => googleSides(setup, id) };
    },
  },
  {
    name: 'an Excel sheet',
    where: 'workbook',
    connect: async (t: TestContext) => {
      const setup = await excelApp(t);
      const id = await connectPeople(setup);
      return { url: setup.url, id, sides: () => excelSides(setup, id) };
    },
  },
];

for (const provider of providers) {
  test(`every tool works on ${provider.name}, and every change is in the ${provider.where} once`, async (t) => {
    const { url, id, sides } = await provider.connect(t);
    const client = await connectAgent(t, url, null);
    await everyTool(client, id);
    const { api, sheet } = await sides();
    assert.deepEqual(sheet, api);
    const names = (sheet as { name: string }[]).map((row) => row.name);
    assert.deepEqual(
      names.filter((name) => name === 'Zed'),
      ['Zed'],
      'the retried add landed once',
    );
    assert.ok(!names.includes('Bob'));
  });
}

test("a subscription makes a Google tab watched, so a person's edit in the spreadsheet is notified", async (t) => {
  const setup = await googleSetup(t, {
    app: { watch: { intervalMs: 200, tickMs: 50, minReadGapMs: 200 } },
    probe: true,
  });
  const id = await connectGoogle(setup, { freshnessSeconds: 3600 });
  const client = await connectAgent(t, setup.url, null);
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  await client.subscribeResource({ uri: `sheetport://sheets/${id}` });
  setup.emulator.editCell(setup.spreadsheetId, 'People', 'A3', 'Robert');
  await until(() => updates.length >= 1, "a notification of the person's edit");
  const read = await client.readResource({ uri: `sheetport://sheets/${id}` });
  assert.match((read.contents[0] as { text: string }).text, /"Robert"/);
  await client.unsubscribeResource({ uri: `sheetport://sheets/${id}` });
  // A second agent, still subscribed, shows when the first would have heard of the next write.
  const witness = await connectAgent(t, setup.url, null);
  const witnessed: string[] = [];
  witness.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    witnessed.push(notification.params.uri);
  });
  await witness.subscribeResource({ uri: `sheetport://sheets/${id}` });
  const heard = updates.length;
  const written = await call(`${setup.url}/api/v1/${id}`, {
    method: 'POST',
    body: { name: 'Eve' },
  });
  assert.equal(written.status, 201);
  await until(() => witnessed.length >= 1, 'the witness hearing of the write');
  assert.equal(updates.length, heard, 'no notification after unsubscribing');
});

test('sheetport mcp relays stdio to a server, with the key from SHEETPORT_KEY, notifications included', async (t) => {
  const adminToken = 'an-admin-token-of-enough-length';
  const admin = { authorization: `Bearer ${adminToken}` };
  const { url } = await build(t, { adminToken });
  const made = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'people', columns: ['name', 'age'], rows: [{ name: 'Ann', age: 31 }] },
  });
  const id = (made.body as { id: string }).id;
  const key = await call(`${url}/admin/v1/sheets/${id}/keys`, {
    method: 'POST',
    headers: admin,
    body: { name: 'agent', scopes: ['read', 'create'] },
  });
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] =>
        entry[1] !== undefined && !entry[0].startsWith('SHEETPORT_'),
    ),
  );
  const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli.ts', 'mcp', '--url', url],
      cwd: root,
      env: { ...env, SHEETPORT_KEY: (key.body as { key: string }).key },
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  const tools = (await client.listTools()).tools.map((tool) => tool.name).sort();
  assert.deepEqual(tools, [
    'add_rows',
    'aggregate_rows',
    'describe_sheet',
    'list_sheets',
    'query_rows',
  ]);
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updates.push(notification.params.uri);
  });
  await client.subscribeResource({ uri: `sheetport://sheets/${id}` });
  assert.deepEqual(
    structured(
      await client.callTool({
        name: 'add_rows',
        arguments: { sheet: 'people', rows: [{ name: 'Bo' }] },
      }),
    ).created,
    1,
  );
  await until(() => updates.length >= 1, 'a notification through the bridge');
  assert.deepEqual(
    (
      structured(await client.callTool({ name: 'query_rows', arguments: { sheet: 'people' } }))
        .rows as Record<string, unknown>[]
    ).map(({ _key, ...row }) => (typeof _key === 'string' ? row : { keyless: row })),
    [
      { name: 'Ann', age: 31 },
      { name: 'Bo', age: null },
    ],
  );
});

test('sheetport mcp with a wrong key answers each request with an error, not silence', async (t) => {
  const { url } = await build(t, { adminToken: 'an-admin-token-of-enough-length' });
  const client = new Client({ name: 'desktop-agent', version: '1.0.0' });
  const connecting = client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/cli.ts', 'mcp', '--url', url, '--key', 'sp_wrong'],
      cwd: root,
      stderr: 'pipe',
    }),
  );
  t.after(() => client.close());
  await assert.rejects(connecting, /did not answer|401/);
});

/** The official conformance suite's scenarios that apply to a server without its fixtures. */
const scenarios = [
  'server-initialize',
  'ping',
  'tools-list',
  'resources-list',
  'dns-rebinding-protection',
];

test('the official MCP conformance suite passes the scenarios that apply to Sheetport', async (t) => {
  const { url } = await build(t);
  await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name'], rows: [{ name: 'Ann' }] },
  });
  // The suite checks DNS rebinding against a localhost URL, as a local server is reached.
  const endpoint = `${url.replace('127.0.0.1', 'localhost')}/mcp`;
  for (const scenario of scenarios) {
    const run = spawn(
      process.execPath,
      [
        fileURLToPath(
          new URL(
            '../node_modules/@modelcontextprotocol/conformance/dist/index.js',
            import.meta.url,
          ),
        ),
        'server',
        '--url',
        endpoint,
        '--scenario',
        scenario,
      ],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    run.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    run.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
    const passed = /Passed: (\d+)\/(\d+), 0 failed/.exec(output);
    assert.ok(passed !== null && passed[1] === passed[2], `${scenario}:\n${output}`);
    assert.equal(code, 0, `${scenario}:\n${output}`);
    t.diagnostic(`${scenario}: ${passed[0]}`);
  }
});

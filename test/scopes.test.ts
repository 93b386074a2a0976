import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { AppOptions } from '../src/app.ts';
import { build, call } from './helpers/build.ts';

const adminToken = 'scopes-admin-token-0123456789';

interface Server {
  url: string;
  /** The administrator's headers: the token when one is set, else none. */
  admin: Record<string, string>;
  /** The management API as the administrator: the token when one is set, else no credential. */
  manage: (path: string, init?: { method?: string; body?: unknown }) => ReturnType<typeof call>;
}

async function server(t: TestContext, options: Partial<AppOptions> = {}): Promise<Server> {
  const { url } = await build(t, options);
  const headers: Record<string, string> =
    options.adminToken === undefined ? {} : { authorization: `Bearer ${options.adminToken}` };
  return {
    url,
    admin: headers,
    manage: (path, init = {}) => call(`${url}/admin/v1${path}`, { ...init, headers }),
  };
}

async function sheetWithKeys(s: Server, settings: Record<string, unknown> = {}) {
  const created = await s.manage('/sheets', {
    method: 'POST',
    body: {
      name: 'staff',
      columns: ['name', 'secret'],
      rows: [
        { name: 'Ann', secret: 'blue' },
        { name: 'Bob', secret: 'green' },
      ],
    },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  if (Object.keys(settings).length > 0) {
    assert.equal(
      (await s.manage(`/sheets/${id}`, { method: 'PATCH', body: settings })).status,
      200,
    );
  }
  const key = async (scopes: string[]) => {
    const made = await s.manage(`/sheets/${id}/keys`, { method: 'POST', body: { scopes } });
    assert.equal(made.status, 201, made.text);
    return { 'x-api-key': (made.body as { key: string }).key };
  };
  /** The rows as the administrator reads them from the store. */
  const read = async () => {
    const all = await call(`${s.url}/api/v1/${id}`, { headers: s.admin });
    assert.equal(all.status, 200, all.text);
    return all.body;
  };
  return { id, rows: `${s.url}/api/v1/${id}`, key, read };
}

function assertProblem(reply: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  assert.equal(reply.status, status, reply.text);
  assert.equal((reply.body as { code?: string }).code, code, reply.text);
}

const both = [
  { name: 'with an administrator token', options: { adminToken } },
  { name: 'without an administrator token', options: {} },
];

for (const { name, options } of both) {
  test(`${name}, an upsert needs create, update and read, each named when missing`, async (t) => {
    const s = await server(t, options);
    const sheet = await sheetWithKeys(s);
    const before = await sheet.read();
    const upsert = { method: 'POST', body: { name: 'Ann', secret: 'red' } };
    const cases: [string[], string][] = [
      [['create'], 'update'],
      [['create', 'update'], 'read'],
      [['create', 'read'], 'update'],
      [['update', 'read'], 'create'],
    ];
    for (const [scopes, missing] of cases) {
      const reply = await call(`${sheet.rows}?_upsert=name`, {
        ...upsert,
        headers: await sheet.key(scopes),
      });
      assertProblem(reply, 403, 'forbidden');
      assert.equal((reply.body as { scope: string }).scope, missing, reply.text);
      assert.match((reply.body as { detail: string }).detail, new RegExp(`"${missing}"`));
    }
    assert.deepEqual(await sheet.read(), before, 'no refused upsert changed a row');
    const all = await sheet.key(['create', 'update', 'read']);
    const done = await call(`${sheet.rows}?_upsert=name`, { ...upsert, headers: all });
    assert.equal(done.status, 200, done.text);
    const { keys, ...counts } = done.body as { keys: string[] };
    assert.deepEqual(counts, { created: 0, updated: 1 });
    assert.equal(keys.length, 1);
  });

  test(`${name}, a write that chooses rows by value needs read; by _id it does not`, async (t) => {
    const s = await server(t, options);
    const sheet = await sheetWithKeys(s);
    const before = await sheet.read();
    const update = await sheet.key(['update']);
    const remove = await sheet.key(['delete']);
    const probes: [string, string, Record<string, string>, unknown][] = [
      ['PATCH', '?secret=__ilike(b*)', update, {}],
      ['PATCH', '?secret=blue', update, { secret: 'x' }],
      ['PUT', '?_or=secret=blue|secret=green', update, { name: 'x', secret: 'x' }],
      ['DELETE', '?secret=__ilike(g*)', remove, undefined],
    ];
    for (const [method, query, headers, body] of probes) {
      const reply = await call(`${sheet.rows}${query}`, { method, headers, body });
      assertProblem(reply, 403, 'forbidden');
      assert.equal((reply.body as { scope: string }).scope, 'read', `${method} ${query}`);
    }
    assert.deepEqual(await sheet.read(), before, 'no probe changed a row');
    const byId = await call(`${sheet.rows}?_id=1`, {
      method: 'PATCH',
      headers: update,
      body: { secret: 'teal' },
    });
    assert.equal(byId.status, 200, byId.text);
    assert.deepEqual(byId.body, { updated: 1 });
  });

  test(`${name}, a PATCH of {} answers 400 and changes nothing, whatever the key`, async (t) => {
    const s = await server(t, options);
    const sheet = await sheetWithKeys(s);
    const before = await sheet.read();
    for (const headers of [s.admin, await sheet.key(['update', 'read'])]) {
      for (const query of ['?name=Ann', '?_id=0']) {
        const reply = await call(`${sheet.rows}${query}`, { method: 'PATCH', headers, body: {} });
        assertProblem(reply, 400, 'invalid-body');
      }
    }
    assert.deepEqual(await sheet.read(), before);
  });

  test(`${name}, an unknown column lists the sheet's columns only to a caller that may read`, async (t) => {
    const s = await server(t, options);
    const sheet = await sheetWithKeys(s);
    const body = { nickname: 'Al' };
    const blind = await call(sheet.rows, {
      method: 'POST',
      headers: await sheet.key(['create']),
      body,
    });
    assertProblem(blind, 400, 'unknown-column');
    assert.doesNotMatch(blind.text, /secret/, 'a key without read learns no column');
    assert.match((blind.body as { detail: string }).detail, /"nickname"/);
    const byId = await call(`${sheet.rows}?_id=0`, {
      method: 'PATCH',
      headers: await sheet.key(['update']),
      body,
    });
    assertProblem(byId, 400, 'unknown-column');
    assert.doesNotMatch(byId.text, /secret/);
    const reader = await call(sheet.rows, {
      method: 'POST',
      headers: await sheet.key(['create', 'read']),
      body,
    });
    assertProblem(reader, 400, 'unknown-column');
    assert.match((reader.body as { detail: string }).detail, /"name", "secret"/);
  });
}

test('without an administrator token, a request with an API key is held to that key', async (t) => {
  const s = await server(t);
  const sheet = await sheetWithKeys(s, { access: 'private' });
  const other = await sheetWithKeys(s, { access: 'private' });
  const before = await sheet.read();
  const reader = await sheet.key(['read']);
  const post = await call(sheet.rows, { method: 'POST', headers: reader, body: { name: 'Cy' } });
  assertProblem(post, 403, 'forbidden');
  assert.equal((post.body as { scope: string }).scope, 'create');
  assert.equal((await call(sheet.rows, { headers: reader })).status, 200);
  for (const headers of [
    { authorization: 'Bearer sp_nope' },
    { 'x-api-key': 'sp_nope' },
    await other.key(['read', 'create']),
  ]) {
    assertProblem(await call(sheet.rows, { headers }), 401, 'unauthorized');
    assertProblem(
      await call(sheet.rows, { method: 'POST', headers, body: { name: 'Cy' } }),
      401,
      'unauthorized',
    );
  }
  // A key opens no management route, even where local callers without one are the administrator.
  assertProblem(await call(`${s.url}/admin/v1/sheets`, { headers: reader }), 401, 'unauthorized');
  const made = await s.manage(`/sheets/${sheet.id}/keys`, {
    method: 'POST',
    body: { scopes: ['read'] },
  });
  const revoked = made.body as { id: string; key: string };
  assert.equal(
    (await s.manage(`/sheets/${sheet.id}/keys/${revoked.id}`, { method: 'DELETE' })).status,
    204,
  );
  assertProblem(
    await call(sheet.rows, { headers: { 'x-api-key': revoked.key } }),
    401,
    'unauthorized',
  );
  assert.deepEqual(await sheet.read(), before, 'nothing the keys sent changed a row');
  // Without a credential, a local caller is still the administrator.
  assert.equal((await call(sheet.rows)).status, 200);
});

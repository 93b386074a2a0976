import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, call } from './helpers/build.ts';

interface SheetBody {
  id: string;
  name: string;
  columns: string[];
  rowCount: number;
  source: Record<string, unknown>;
  settings: { deleteEnabled: boolean };
  createdAt: string;
  updatedAt: string;
}

async function createSheet(url: string, body: unknown) {
  return call(`${url}/admin/v1/sheets`, { method: 'POST', body });
}

async function createdSheet(url: string, body: unknown): Promise<SheetBody> {
  const response = await createSheet(url, body);
  assert.equal(response.status, 201, response.text);
  return response.body as SheetBody;
}

async function listSheets(url: string): Promise<SheetBody[]> {
  const { status, body } = await call(`${url}/admin/v1/sheets`);
  assert.equal(status, 200);
  return body as SheetBody[];
}

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

test('POST /admin/v1/sheets with JSON creates an empty sheet from scratch and answers 201 with its description', async (t) => {
  const { url } = await build(t);
  const { status, headers, body } = await createSheet(url, {
    name: 'contacts',
    columns: ['name', 'email'],
  });
  assert.equal(status, 201);
  assert.match(headers.get('content-type') ?? '', /^application\/json/);
  const sheet = body as SheetBody;
  assert.deepEqual(Object.keys(sheet).sort(), [
    'columns',
    'createdAt',
    'id',
    'name',
    'rowCount',
    'settings',
    'source',
    'updatedAt',
  ]);
  assert.equal(typeof sheet.id, 'string');
  assert.equal(sheet.name, 'contacts');
  assert.deepEqual(sheet.columns, ['name', 'email']);
  assert.equal(sheet.rowCount, 0);
  assert.deepEqual(sheet.source, { provider: 'scratch' });
  assert.deepEqual(sheet.settings, { deleteEnabled: true, access: 'open', allowedOrigins: ['*'] });
  assert.match(sheet.createdAt, isoTimestamp);
  assert.match(sheet.updatedAt, isoTimestamp);
  assert.deepEqual((await call(`${url}/api/v1/${sheet.id}`)).body, []);
});

test('POST /admin/v1/sheets with rows stores them in order, columns left out reading as null', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, {
    name: 'people',
    columns: ['name', 'age', 'member'],
    rows: [{ name: 'Ann', age: 31, member: true }, { name: 'Bob' }, { age: 5, name: '' }],
  });
  assert.equal(sheet.rowCount, 3);
  const { status, body } = await call(`${url}/api/v1/${sheet.id}`);
  assert.equal(status, 200);
  assert.deepEqual(body, [
    { name: 'Ann', age: 31, member: true },
    { name: 'Bob', age: null, member: null },
    { name: null, age: 5, member: null },
  ]);
});

test('creating a sheet whose columns include an empty name is refused with 400 invalid-header, and nothing is created', async (t) => {
  const { url } = await build(t);
  const before = await createdSheet(url, { name: 'kept', columns: ['a'] });
  for (const columns of [
    ['name', '', 'age'],
    ['name', '   '],
    ['name', 'age', ''],
  ]) {
    const { status, headers, body } = await createSheet(url, { name: 'bad', columns });
    assert.equal(status, 400, JSON.stringify(columns));
    assert.match(headers.get('content-type') ?? '', /^application\/problem\+json/);
    const problem = body as { code: string; cells: { cell: string; problem: string }[] };
    assert.equal(problem.code, 'invalid-header', JSON.stringify(columns));
    const emptyAt = columns.findIndex((c) => c.trim() === '');
    assert.deepEqual(
      problem.cells.map((c) => c.cell),
      [`${'ABC'[emptyAt]}1`],
      JSON.stringify(columns),
    );
  }
  assert.deepEqual(
    (await listSheets(url)).map((s) => s.id),
    [before.id],
  );
});

test('creating a sheet with a repeated column name is refused with 400 invalid-header naming the repeat, and nothing is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await createSheet(url, {
    name: 'bad',
    columns: ['name', 'age', 'name'],
  });
  assert.equal(status, 400);
  const problem = body as { code: string; cells: { cell: string; problem: string }[] };
  assert.equal(problem.code, 'invalid-header');
  assert.deepEqual(
    problem.cells.map((c) => c.cell),
    ['C1'],
  );
  assert.deepEqual(await listSheets(url), []);
});

test('creating a sheet with no columns is refused with 400', async (t) => {
  const { url } = await build(t);
  const { status, body } = await createSheet(url, { name: 'bad', columns: [] });
  assert.equal(status, 400);
  assert.equal((body as { code: string }).code, 'invalid-body');
  assert.deepEqual(await listSheets(url), []);
});

test('creating a sheet with no body at all is refused with 400 invalid-body, not a server error', async (t) => {
  const { url } = await build(t);
  const { status, body } = await call(`${url}/admin/v1/sheets`, { method: 'POST' });
  assert.equal(status, 400);
  assert.equal((body as { code: string }).code, 'invalid-body');
  assert.deepEqual((await call(`${url}/admin/v1/sheets`)).body, []);
});

test('creating a sheet with keys the API does not know is refused with 400 invalid-body, and nothing is created', async (t) => {
  const { url } = await build(t);
  for (const body of [
    { name: 'x', columns: ['a'], colour: 'red' },
    { name: 'x', columns: ['a'], settings: { deleteEnabled: false } },
  ]) {
    const response = await createSheet(url, body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal((response.body as { code: string }).code, 'invalid-body');
  }
  assert.deepEqual(await listSheets(url), []);
});

test('a source naming an unknown provider is refused with 400 unknown-provider, which names the known ones', async (t) => {
  const { url } = await build(t);
  for (const provider of ['dropbox', 'upload', 'scratch']) {
    const response = await createSheet(url, { source: { provider, spreadsheetId: 'x' } });
    assert.equal(response.status, 400, response.text);
    const problem = response.body as { code: string; detail: string; providers: string[] };
    assert.equal(problem.code, 'unknown-provider');
    assert.deepEqual(problem.providers, ['google', 'excel']);
    assert.match(problem.detail, new RegExp(`"${provider}".*"google", "excel"`));
  }
  assert.deepEqual(await listSheets(url), []);
});

test('a source naming a known provider this server has no access to is refused with 400 provider-not-configured', async (t) => {
  const { url } = await build(t);
  const response = await createSheet(url, {
    source: { provider: 'google', spreadsheetId: 'a'.repeat(44) },
  });
  assert.equal(response.status, 400, response.text);
  assert.equal((response.body as { code: string }).code, 'provider-not-configured');
  assert.deepEqual(await listSheets(url), []);
});

test('creating a sheet whose rows name an unknown column is refused with 400 unknown-column, and nothing is created', async (t) => {
  const { url } = await build(t);
  const { status, body } = await createSheet(url, {
    name: 'people',
    columns: ['name'],
    rows: [{ name: 'Ann' }, { name: 'Bob', age: 3 }],
  });
  assert.equal(status, 400);
  assert.equal((body as { code: string }).code, 'unknown-column');
  assert.deepEqual(await listSheets(url), []);
});

test('creating a sheet with a missing or empty name is refused with 400 invalid-body', async (t) => {
  const { url } = await build(t);
  for (const body of [
    { columns: ['a'] },
    { name: '', columns: ['a'] },
    { name: 3, columns: ['a'] },
  ]) {
    const response = await createSheet(url, body);
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal((response.body as { code: string }).code, 'invalid-body');
  }
  assert.deepEqual(await listSheets(url), []);
});

test('GET /admin/v1/sheets lists every sheet with the same description that creating it returned', async (t) => {
  const { url } = await build(t);
  assert.deepEqual(await listSheets(url), []);
  const a = await createdSheet(url, { name: 'a', columns: ['x'] });
  const b = await createdSheet(url, { name: 'b', columns: ['y', 'z'], rows: [{ y: 1 }] });
  const listed = await listSheets(url);
  assert.equal(listed.length, 2);
  assert.deepEqual(
    listed.find((s) => s.id === a.id),
    a,
  );
  assert.deepEqual(
    listed.find((s) => s.id === b.id),
    b,
  );
});

test('GET /admin/v1/sheets/:id describes one sheet, including its current row count', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, { name: 'a', columns: ['x'] });
  const described = await call(`${url}/admin/v1/sheets/${sheet.id}`);
  assert.equal(described.status, 200);
  assert.deepEqual(described.body, sheet);

  const added = await call(`${url}/api/v1/${sheet.id}`, {
    method: 'POST',
    body: [{ x: 1 }, { x: 2 }],
  });
  assert.equal(added.status, 201);
  const after = (await call(`${url}/admin/v1/sheets/${sheet.id}`)).body as SheetBody;
  assert.equal(after.rowCount, 2);
});

test('PATCH /admin/v1/sheets/:id renames a sheet, and the new name is what GET shows', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, { name: 'old', columns: ['x'] });
  const { status, body } = await call(`${url}/admin/v1/sheets/${sheet.id}`, {
    method: 'PATCH',
    body: { name: 'new' },
  });
  assert.equal(status, 200);
  const patched = body as SheetBody;
  assert.equal(patched.id, sheet.id);
  assert.equal(patched.name, 'new');
  assert.deepEqual(patched.settings, {
    deleteEnabled: true,
    access: 'open',
    allowedOrigins: ['*'],
  });
  assert.equal(patched.createdAt, sheet.createdAt);
  assert.ok(patched.updatedAt >= sheet.updatedAt);
  assert.deepEqual((await call(`${url}/admin/v1/sheets/${sheet.id}`)).body, patched);
});

test('PATCH deleteEnabled=false makes row DELETE answer 405 delete-disabled, and true allows it again', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, {
    name: 'kept',
    columns: ['x'],
    rows: [{ x: 1 }, { x: 2 }],
  });
  const off = await call(`${url}/admin/v1/sheets/${sheet.id}`, {
    method: 'PATCH',
    body: { deleteEnabled: false },
  });
  assert.equal(off.status, 200);
  assert.deepEqual((off.body as SheetBody).settings, {
    deleteEnabled: false,
    access: 'open',
    allowedOrigins: ['*'],
  });
  assert.equal((off.body as SheetBody).name, 'kept');

  const refused = await call(`${url}/api/v1/${sheet.id}?_id=0`, { method: 'DELETE' });
  assert.equal(refused.status, 405);
  assert.equal((refused.body as { code: string }).code, 'delete-disabled');
  assert.ok(refused.headers.get('allow'), 'a 405 carries an Allow header');
  assert.doesNotMatch(refused.headers.get('allow') ?? '', /DELETE/);
  assert.equal(((await call(`${url}/api/v1/${sheet.id}`)).body as unknown[]).length, 2);

  const on = await call(`${url}/admin/v1/sheets/${sheet.id}`, {
    method: 'PATCH',
    body: { deleteEnabled: true },
  });
  assert.deepEqual((on.body as SheetBody).settings, {
    deleteEnabled: true,
    access: 'open',
    allowedOrigins: ['*'],
  });
  const deleted = await call(`${url}/api/v1/${sheet.id}?_id=0`, { method: 'DELETE' });
  assert.equal(deleted.status, 200);
  assert.deepEqual(deleted.body, { deleted: 1 });
});

test('PATCH with values of the wrong type, unknown keys or nothing to change is refused with 400 and changes nothing', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, { name: 'same', columns: ['x'] });
  for (const body of [
    { name: 5 },
    { name: '' },
    { deleteEnabled: 'false' },
    { deleteEnabled: 0 },
    { deleteEnabled: null },
    { colour: 'red' },
    { name: 'other', columns: ['y'] },
    {},
    [],
    'rename',
  ]) {
    const response = await call(`${url}/admin/v1/sheets/${sheet.id}`, { method: 'PATCH', body });
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.match(
      (response.body as { code: string }).code,
      /^(invalid-body|malformed-json)$/,
      JSON.stringify(body),
    );
  }
  assert.deepEqual((await call(`${url}/admin/v1/sheets/${sheet.id}`)).body, sheet);
});

test('DELETE /admin/v1/sheets/:id answers 204, after which the sheet is gone from the admin and row APIs', async (t) => {
  const { url } = await build(t);
  const sheet = await createdSheet(url, { name: 'doomed', columns: ['x'], rows: [{ x: 1 }] });
  const kept = await createdSheet(url, { name: 'kept', columns: ['x'] });
  const deleted = await call(`${url}/admin/v1/sheets/${sheet.id}`, { method: 'DELETE' });
  assert.equal(deleted.status, 204);
  assert.equal(deleted.text, '');

  for (const path of [
    `/admin/v1/sheets/${sheet.id}`,
    `/api/v1/${sheet.id}`,
    `/api/v1/sheets/${sheet.id}`,
  ]) {
    const { status, body } = await call(`${url}${path}`);
    assert.equal(status, 404, path);
    assert.equal((body as { code: string }).code, 'sheet-not-found', path);
  }
  const again = await call(`${url}/admin/v1/sheets/${sheet.id}`, { method: 'DELETE' });
  assert.equal(again.status, 404);
  const write = await call(`${url}/api/v1/${sheet.id}`, { method: 'POST', body: { x: 2 } });
  assert.equal(write.status, 404);
  assert.deepEqual(
    (await listSheets(url)).map((s) => s.id),
    [kept.id],
  );
});

test('an unknown sheet id answers 404 with a sheet-not-found problem document for GET, PATCH and DELETE', async (t) => {
  const { url } = await build(t);
  for (const method of ['GET', 'PATCH', 'DELETE']) {
    const { status, headers, body } = await call(`${url}/admin/v1/sheets/nope`, {
      method,
      ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
    });
    assert.equal(status, 404, method);
    assert.match(headers.get('content-type') ?? '', /^application\/problem\+json/, method);
    const problem = body as Record<string, unknown>;
    assert.equal(problem.type, 'urn:sheetport:problem:sheet-not-found', method);
    assert.equal(problem.code, 'sheet-not-found', method);
    assert.equal(problem.status, 404, method);
    assert.equal(typeof problem.title, 'string', method);
    assert.match(problem.detail as string, /nope/, method);
    assert.equal(problem.instance, '/admin/v1/sheets/nope', method);
  }
});

test('sheet ids are URL-safe base64url carrying at least 96 random bits, all distinct', async (t) => {
  const { url } = await build(t);
  const ids: string[] = [];
  for (let i = 0; i < 40; i++)
    ids.push((await createdSheet(url, { name: `s${i}`, columns: ['x'] })).id);
  for (const id of ids) {
    assert.match(id, /^[A-Za-z0-9_-]+$/, id);
    assert.equal(encodeURIComponent(id), id);
    const bytes = Buffer.from(id, 'base64url');
    assert.equal(bytes.toString('base64url'), id, `${id} is canonical base64url`);
    assert.ok(bytes.length * 8 >= 96, `${id} carries ${bytes.length * 8} bits`);
  }
  assert.equal(new Set(ids).size, ids.length);
  // A clock or a counter would make ids made in a row share their first characters.
  const prefixes = new Set(ids.map((id) => id.slice(0, 4)));
  assert.ok(prefixes.size >= ids.length - 1, `ids share prefixes: ${ids.join(' ')}`);
});

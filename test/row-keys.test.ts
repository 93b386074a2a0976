/**
 * Row keys on sheets that live here (scratch and uploads): every row's `_key` stays with it while
 * rows above it come and go, names it for reads and writes, and is never given to another row.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test, type TestContext } from 'node:test';
import { build, call } from './helpers/build.ts';
import { startServer } from './helpers/server-process.ts';
import { storeSettings } from './helpers/stores.ts';

type Row = Record<string, unknown>;

async function sheetOf(t: TestContext, names: string[], columns = ['name', 'team']) {
  const server = await build(t);
  const created = await call(`${server.url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'people',
      columns,
      rows: names.map((name) => (columns.includes('team') ? { name, team: 'red' } : { name })),
    },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  return { ...server, id, rows: `${server.url}/api/v1/${id}` };
}

const keyed = async (rows: string) => (await call(`${rows}?_with_key=true`)).body as Row[];
const keyOf = (list: Row[], name: string) => list.find((row) => row.name === name)?._key as string;

describe('row keys', () => {
  test('_with_key=true starts each row with its key, after _id when _with_id=true too', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const read = await call(`${rows}?_with_key=true`);
    assert.equal(read.status, 200, read.text);
    const list = read.body as Row[];
    assert.equal(list.length, 2);
    for (const row of list) {
      assert.deepEqual(Object.keys(row), ['_key', 'name', 'team']);
      assert.match(row._key as string, /^[A-Za-z0-9_-]{1,64}$/);
    }
    assert.notEqual(list[0]?._key, list[1]?._key);
    const both = (await call(`${rows}?_with_key=true&_with_id=true`)).body as Row[];
    assert.deepEqual(Object.keys(both[1] ?? {}), ['_id', '_key', 'name', 'team']);
    assert.equal(both[1]?._key, list[1]?._key);
    const plain = (await call(rows)).body as Row[];
    assert.deepEqual(Object.keys(plain[0] ?? {}), ['name', 'team']);
  });

  test('CSV and XLSX answers with _with_key=true have a _key column after _id', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const list = await keyed(rows);
    const csv = await call(`${rows}?_with_key=true&_with_id=true`, {
      headers: { accept: 'text/csv' },
    });
    assert.equal(csv.status, 200, csv.text);
    const lines = csv.text.trim().split(/\r?\n/);
    assert.equal(lines[0], '_id,_key,name,team');
    assert.equal(lines[2], `1,${keyOf(list, 'Bob')},Bob,red`);
    const xlsx = await fetch(`${rows}?_with_key=true`, {
      headers: {
        accept: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      },
    });
    assert.equal(xlsx.status, 200);
    const { default: Excel } = await import('exceljs');
    const workbook = new Excel.Workbook();
    await workbook.xlsx.load(await xlsx.arrayBuffer());
    const sheet = workbook.worksheets[0];
    assert.deepEqual((sheet?.getRow(1).values as unknown[]).slice(1), ['_key', 'name', 'team']);
    assert.deepEqual((sheet?.getRow(3).values as unknown[]).slice(1), [
      keyOf(list, 'Bob'),
      'Bob',
      'red',
    ]);
  });

  test('a key stays with its row when a row above it is deleted, and a new row never gets a deleted key', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob', 'Cy']);
    const before = await keyed(rows);
    const deleted = await call(`${rows}?_id=0`, { method: 'DELETE' });
    assert.equal(deleted.status, 200, deleted.text);
    const after = await keyed(rows);
    assert.equal(keyOf(after, 'Bob'), keyOf(before, 'Bob'));
    assert.equal(keyOf(after, 'Cy'), keyOf(before, 'Cy'));
    // The newest row deleted too: the next row's key is still one never seen in this sheet.
    await call(`${rows}?_key=${keyOf(before, 'Cy')}`, { method: 'DELETE' });
    const posted = await call(rows, { method: 'POST', body: { name: 'Dee' } });
    const [made] = (posted.body as { keys: string[] }).keys;
    assert.ok(!before.map((row) => row._key).includes(made), `${made} was given before`);
  });

  test('POST answers the keys of the rows it created in body order', async (t) => {
    const { rows } = await sheetOf(t, ['Ann']);
    const posted = await call(rows, {
      method: 'POST',
      body: [{ name: 'Bob' }, { name: 'Cy' }],
    });
    assert.equal(posted.status, 201, posted.text);
    const { created, keys } = posted.body as { created: number; keys: string[] };
    assert.equal(created, 2);
    const list = await keyed(rows);
    assert.deepEqual(keys, [keyOf(list, 'Bob'), keyOf(list, 'Cy')]);
    const one = await call(rows, { method: 'POST', body: { name: 'Dee' } });
    assert.deepEqual((one.body as { keys: string[] }).keys, [keyOf(await keyed(rows), 'Dee')]);
  });

  test('an upsert answers the key of the row each body row created or updated, its first match', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob', 'Ann']);
    const list = await keyed(rows);
    const upserted = await call(`${rows}?_upsert=name`, {
      method: 'POST',
      body: [
        { name: 'Eve', team: 'blue' },
        { name: 'Ann', team: 'blue' },
      ],
    });
    assert.equal(upserted.status, 201, upserted.text);
    const answer = upserted.body as { created: number; updated: number; keys: string[] };
    assert.equal(answer.created, 1);
    assert.equal(answer.updated, 2);
    const now = await keyed(rows);
    assert.deepEqual(answer.keys, [keyOf(now, 'Eve'), list[0]?._key]);
  });

  test('GET /rows/<key> answers the row with its key and an ETag that changes only with its cells', async (t) => {
    const { rows, url, id } = await sheetOf(t, ['Ann', 'Bob', 'Cy']);
    const cy = keyOf(await keyed(rows), 'Cy');
    for (const base of [rows, `${url}/api/v1/sheets/${id}`]) {
      const read = await call(`${base}/rows/${cy}`);
      assert.equal(read.status, 200, read.text);
      assert.deepEqual(read.body, { _key: cy, name: 'Cy', team: 'red' });
    }
    const first = await call(`${rows}/rows/${cy}`);
    const etag = first.headers.get('etag') as string;
    assert.ok(etag.length > 0);
    // Another row changed, and a row above it went: its own ETag stays.
    await call(`${rows}?_id=1`, { method: 'PATCH', body: { team: 'blue' } });
    await call(`${rows}?_id=0`, { method: 'DELETE' });
    const moved = await call(`${rows}/rows/${cy}?_with_id=true`);
    assert.deepEqual(moved.body, { _id: 1, _key: cy, name: 'Cy', team: 'red' });
    assert.equal(moved.headers.get('etag'), etag);
    const cached = await call(`${rows}/rows/${cy}`, { headers: { 'if-none-match': etag } });
    assert.equal(cached.status, 304);
    await call(`${rows}/rows/${cy}`, { method: 'PATCH', body: { team: 'green' } });
    const changed = await call(`${rows}/rows/${cy}`);
    assert.notEqual(changed.headers.get('etag'), etag);
  });

  test('PUT, PATCH and DELETE /rows/<key> write that row wherever it is, and answer as the _id forms', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob', 'Cy']);
    const bob = keyOf(await keyed(rows), 'Bob');
    await call(`${rows}?_id=0`, { method: 'DELETE' });
    const patched = await call(`${rows}/rows/${bob}`, { method: 'PATCH', body: { team: 'blue' } });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body, { updated: 1 });
    assert.match(patched.headers.get('etag') ?? '', /^W\/"\d+"$/);
    const put = await call(`${rows}/rows/${bob}`, { method: 'PUT', body: { name: 'Rob' } });
    assert.deepEqual(put.body, { updated: 1 });
    assert.deepEqual((await call(rows)).body, [
      { name: 'Rob', team: null },
      { name: 'Cy', team: 'red' },
    ]);
    const deleted = await call(`${rows}/rows/${bob}`, { method: 'DELETE' });
    assert.deepEqual(deleted.body, { deleted: 1 });
    assert.deepEqual((await call(rows)).body, [{ name: 'Cy', team: 'red' }]);
  });

  test('a key that is gone answers 404 row-not-found, for reads and writes, and changes nothing', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const list = await keyed(rows);
    const ann = keyOf(list, 'Ann');
    await call(`${rows}/rows/${ann}`, { method: 'DELETE' });
    const before = (await call(rows)).text;
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const body = method === 'PUT' || method === 'PATCH' ? { name: 'X' } : undefined;
      const answer = await call(`${rows}/rows/${ann}`, { method, body });
      assert.equal(answer.status, 404, `${method}: ${answer.text}`);
      assert.equal((answer.body as { code: string }).code, 'row-not-found');
      const listed = await call(`${rows}?_key=${keyOf(list, 'Bob')},${ann}`, { method, body });
      assert.equal(listed.status, 404, `${method} ?_key: ${listed.text}`);
    }
    assert.equal((await call(rows)).text, before);
  });

  test('If-Match with a row ETag answers 412 only when that row changed since', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const bob = keyOf(await keyed(rows), 'Bob');
    const etag = (await call(`${rows}/rows/${bob}`)).headers.get('etag') as string;
    // Another row changes, and one is added: the sheet's version moves, Bob does not.
    await call(`${rows}?_id=0`, { method: 'PATCH', body: { team: 'blue' } });
    await call(rows, { method: 'POST', body: { name: 'Cy' } });
    const applied = await call(`${rows}/rows/${bob}`, {
      method: 'PATCH',
      headers: { 'if-match': etag },
      body: { team: 'green' },
    });
    assert.equal(applied.status, 200, applied.text);
    // Bob changed with that write: the ETag read before it no longer matches.
    const stale = await call(`${rows}/rows/${bob}`, {
      method: 'PATCH',
      headers: { 'if-match': etag },
      body: { team: 'black' },
    });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((stale.body as { code: string }).code, 'precondition-failed');
    const now = (await call(`${rows}/rows/${bob}`)).body as Row;
    assert.equal(now.team, 'green');
    // The sheet's ETag still works as it did.
    const sheetEtag = (await call(rows)).headers.get('etag') as string;
    const bySheet = await call(`${rows}/rows/${bob}`, {
      method: 'DELETE',
      headers: { 'if-match': sheetEtag },
    });
    assert.equal(bySheet.status, 200, bySheet.text);
  });

  test('?_key= chooses rows for GET, PATCH and DELETE, in sheet order, and answers the sheet ETag', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob', 'Cy']);
    const list = await keyed(rows);
    const [ann, cy] = [keyOf(list, 'Ann'), keyOf(list, 'Cy')];
    const read = await call(`${rows}?_key=${cy},${ann}`);
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(read.body, [
      { name: 'Ann', team: 'red' },
      { name: 'Cy', team: 'red' },
    ]);
    assert.equal(read.headers.get('etag'), (await call(rows)).headers.get('etag'));
    const patched = await call(`${rows}?_key=${ann},${cy}`, {
      method: 'PATCH',
      body: { team: 'blue' },
    });
    assert.deepEqual(patched.body, { updated: 2 });
    const deleted = await call(`${rows}?_key=${ann}`, { method: 'DELETE' });
    assert.deepEqual(deleted.body, { deleted: 1 });
    assert.deepEqual((await call(rows)).body, [
      { name: 'Bob', team: 'red' },
      { name: 'Cy', team: 'blue' },
    ]);
  });

  test('_key is not combined with _id or filters, and a key of a wrong form is a 400', async (t) => {
    const { rows } = await sheetOf(t, ['Ann']);
    const key = keyOf(await keyed(rows), 'Ann');
    for (const query of [`_key=${key}&_id=0`, `_key=${key}&name=Ann`, `_key=${key}&_q=a`]) {
      const answer = await call(`${rows}?${query}`);
      assert.equal(answer.status, 400, `${query}: ${answer.text}`);
      assert.equal((answer.body as { code: string }).code, 'invalid-parameter');
    }
    for (const bad of ['a.b', 'x'.repeat(65), '', 'é']) {
      const listed = await call(`${rows}?_key=${encodeURIComponent(bad)}`);
      assert.equal(listed.status, 400, `${bad}: ${listed.text}`);
      assert.equal((listed.body as { code: string }).code, 'invalid-key');
    }
    const path = await call(`${rows}/rows/a.b`, { method: 'PATCH', body: { name: 'X' } });
    assert.equal(path.status, 400, path.text);
    assert.equal((path.body as { code: string }).code, 'invalid-key');
    // A key of the right form that names no row is missing, not malformed.
    const missing = await call(`${rows}/rows/abc`);
    assert.equal(missing.status, 404, missing.text);
    assert.deepEqual((await call(rows)).body, [{ name: 'Ann', team: 'red' }]);
  });

  test('a sheet with a column named _key answers _with_key with 400 saying why', async (t) => {
    const { rows } = await sheetOf(t, ['Ann'], ['name', '_key']);
    const answer = await call(`${rows}?_with_key=true`);
    assert.equal(answer.status, 400, answer.text);
    assert.match((answer.body as { detail: string }).detail, /column named "_key"/);
    // There `_key` in a body is that column.
    const posted = await call(rows, { method: 'POST', body: { name: 'Bob', _key: 'mine' } });
    assert.equal(posted.status, 201, posted.text);
    assert.equal(((await call(rows)).body as Row[])[1]?._key, 'mine');
  });

  test('_key in a write body is ignored when it names the row written, else 400 and nothing changes', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const list = await keyed(rows);
    const [ann, bob] = [keyOf(list, 'Ann'), keyOf(list, 'Bob')];
    const same = await call(`${rows}/rows/${ann}`, {
      method: 'PUT',
      body: { _key: ann, name: 'Ann', team: 'blue' },
    });
    assert.equal(same.status, 200, same.text);
    const byId = await call(`${rows}?_id=1`, {
      method: 'PATCH',
      body: { _key: bob, team: 'blue' },
    });
    assert.equal(byId.status, 200, byId.text);
    const before = (await call(rows)).text;
    const writes = [
      { url: `${rows}/rows/${ann}`, method: 'PATCH', body: { _key: bob, team: 'x' } },
      { url: `${rows}?_id=0`, method: 'PUT', body: { _key: bob, name: 'x' } },
      { url: rows, method: 'POST', body: { _key: ann, name: 'x' } },
      { url: `${rows}?_upsert=name`, method: 'POST', body: { _key: bob, name: 'Ann' } },
      {
        url: `${rows}?_upsert=name`,
        method: 'POST',
        body: [{ name: 'Ann' }, { _key: ann, name: 'Zed' }],
      },
      { url: `${rows}/rows/${ann}`, method: 'PATCH', body: { _key: 7, team: 'x' } },
    ];
    for (const write of writes) {
      const answer = await call(write.url, write);
      assert.equal(answer.status, 400, `${JSON.stringify(write)}: ${answer.text}`);
      assert.equal((answer.body as { code: string }).code, 'invalid-body');
    }
    assert.equal((await call(rows)).text, before);
    const upsert = await call(`${rows}?_upsert=name`, {
      method: 'POST',
      body: { _key: bob, name: 'Bob', team: 'green' },
    });
    assert.equal(upsert.status, 200, upsert.text);
    assert.deepEqual((upsert.body as { keys: string[] }).keys, [bob]);
  });

  test("row events carry each row's _key after _id, in rows and previous", async (t) => {
    const { rows, store, id } = await sheetOf(t, ['Ann', 'Bob']);
    const list = await keyed(rows);
    const posted = await call(rows, { method: 'POST', body: { name: 'Cy' } });
    const [cy] = (posted.body as { keys: string[] }).keys;
    await call(`${rows}/rows/${keyOf(list, 'Bob')}`, { method: 'PATCH', body: { team: 'blue' } });
    await call(`${rows}?_id=0`, { method: 'DELETE' });
    const events = (await store.eventsAfter(id, null, 100)).map(
      (event) =>
        JSON.parse(event.body) as { type: string; data: { rows: Row[]; previous?: Row[] } },
    );
    const of = (type: string) => events.find((event) => event.type === type)?.data;
    assert.deepEqual(of('rows.created')?.rows, [{ _id: 2, _key: cy, name: 'Cy', team: null }]);
    const updated = of('rows.updated');
    assert.deepEqual(updated?.rows, [
      { _id: 1, _key: keyOf(list, 'Bob'), name: 'Bob', team: 'blue' },
    ]);
    assert.deepEqual(updated?.previous, [
      { _id: 1, _key: keyOf(list, 'Bob'), name: 'Bob', team: 'red' },
    ]);
    assert.deepEqual(Object.keys(of('rows.deleted')?.rows[0] ?? {}), [
      '_id',
      '_key',
      'name',
      'team',
    ]);
    assert.equal(of('rows.deleted')?.rows[0]?._key, keyOf(list, 'Ann'));
  });

  test('a POST retried with its Idempotency-Key answers the same keys', async (t) => {
    const { rows } = await sheetOf(t, ['Ann']);
    const send = () =>
      call(rows, {
        method: 'POST',
        headers: { 'idempotency-key': 'add-bob' },
        body: [{ name: 'Bob' }, { name: 'Cy' }],
      });
    const first = await send();
    const again = await send();
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    assert.equal((again.body as { keys: string[] }).keys.length, 2);
    assert.equal(((await call(rows)).body as Row[]).length, 3);
  });

  test('one Idempotency-Key on writes to two different rows by key is two requests: the second is 422', async (t) => {
    const { rows } = await sheetOf(t, ['Ann', 'Bob']);
    const list = await keyed(rows);
    const send = (key: string) =>
      call(`${rows}/rows/${key}`, {
        method: 'PATCH',
        headers: { 'idempotency-key': 'team-blue' },
        body: { team: 'blue' },
      });
    assert.equal((await send(keyOf(list, 'Ann'))).status, 200);
    const other = await send(keyOf(list, 'Bob'));
    assert.equal(other.status, 422, other.text);
    assert.equal((other.body as { code: string }).code, 'idempotency-key-mismatch');
    assert.equal(((await call(`${rows}/rows/${keyOf(list, 'Bob')}`)).body as Row).team, 'red');
    // The path and the query name the same request.
    const same = await call(`${rows}?_key=${keyOf(list, 'Ann')}`, {
      method: 'PATCH',
      headers: { 'idempotency-key': 'team-blue' },
      body: { team: 'blue' },
    });
    assert.equal(same.headers.get('idempotent-replayed'), 'true', same.text);
  });

  test('keys survive a restart, and the next row after it gets a key never given before', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'sheetport-row-keys-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const kills: (() => Promise<void>)[] = [];
    t.after(() => Promise.all(kills.map((kill) => kill())));
    const settings = await storeSettings(t, dir);
    const first = await startServer(settings, (kill) => kills.push(kill));
    const created = await call(`${first.url}/admin/v1/sheets`, {
      method: 'POST',
      body: { name: 'people', columns: ['name'], rows: [{ name: 'Ann' }, { name: 'Bob' }] },
    });
    const id = (created.body as { id: string }).id;
    const posted = await call(`${first.url}/api/v1/${id}`, {
      method: 'POST',
      body: { name: 'Cy' },
    });
    const [cy] = (posted.body as { keys: string[] }).keys;
    const before = await keyed(`${first.url}/api/v1/${id}`);
    await call(`${first.url}/api/v1/${id}?_key=${cy}`, { method: 'DELETE' });
    await first.crash();
    const second = await startServer(settings, (kill) => kills.push(kill));
    const rows = `${second.url}/api/v1/${id}`;
    assert.deepEqual(await keyed(rows), before.slice(0, 2));
    const again = await call(rows, { method: 'POST', body: { name: 'Dee' } });
    const [dee] = (again.body as { keys: string[] }).keys;
    assert.ok(!before.some((row) => row._key === dee), `${dee} was given before`);
  });
});

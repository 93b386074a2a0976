/**
 * Deeply nested JSON bodies are refused before anything recurses into them, on every route,
 * and a body sent with a method that takes none is left unread.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxJsonDepth } from '../src/routes/json-body.ts';
import { build, call } from './helpers/build.ts';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepRow = (depth: number) => `{"name":${nested(depth - 1)}}`;

test('a body nested 5,000 deep answers 400 invalid-body on every write and changes nothing', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'deep', columns: ['name'], rows: [{ name: 'a' }, { name: 'b' }] },
  });
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;
  const before = (await call(rows)).text;
  const sends: [string, string][] = [
    ['POST', rows],
    ['POST', `${rows}?_upsert=name`],
    ['PUT', `${rows}?_id=0`],
    ['PATCH', `${rows}?name=a`],
    ['POST', `${url}/admin/v1/sheets`],
    ['PATCH', `${url}/admin/v1/sheets/${(created.body as { id: string }).id}`],
  ];
  for (const [method, target] of sends) {
    for (const key of [undefined, `deep-${method}-${target.length}`]) {
      const reply = await call(target, {
        method,
        body: nested(5000),
        headers: { 'content-type': 'application/json', ...(key && { 'idempotency-key': key }) },
      });
      assert.equal(reply.status, 400, `${method} ${target}: ${reply.text}`);
      assert.equal((reply.body as { code: string }).code, 'invalid-body');
      assert.match((reply.body as { detail: string }).detail, /deeper than 32 levels/);
    }
  }
  // Just past the bound is refused alike; at the bound, the body is read as any other.
  const past = await call(`${rows}?_id=0`, { method: 'PATCH', body: deepRow(maxJsonDepth + 1) });
  assert.match((past.body as { detail: string }).detail, /deeper than 32 levels/);
  const at = await call(`${rows}?_id=0`, { method: 'PATCH', body: deepRow(maxJsonDepth) });
  assert.equal(at.status, 400);
  assert.equal((at.body as { code: string }).code, 'invalid-body');
  assert.doesNotMatch((at.body as { detail: string }).detail, /deeper/, 'refused for its shape');
  assert.equal((await call(rows)).text, before, 'nothing changed');
});

test('a DELETE with an Idempotency-Key and a body nested 5,000 deep deletes its rows, its body unread', async (t) => {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'deep', columns: ['name'], rows: [{ name: 'a' }, { name: 'b' }] },
  });
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;
  const send = () =>
    call(`${rows}?_id=0`, {
      method: 'DELETE',
      body: nested(5000),
      headers: { 'content-type': 'application/json', 'idempotency-key': 'deep-delete' },
    });
  const first = await send();
  assert.equal(first.status, 200, first.text);
  assert.deepEqual(first.body, { deleted: 1 });
  const again = await send();
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  assert.deepEqual(((await call(rows)).body as unknown[]).length, 1);
  // A DELETE whose client sets the JSON content type on every request, with no body at all.
  const bare = await call(`${rows}?_id=0`, {
    method: 'DELETE',
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(bare.status, 200, bare.text);
});

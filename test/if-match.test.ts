/**
 * Writes by position against a moving sheet: a write sent with `If-Match` and the ETag of the read
 * it is based on applies only if the sheet has not changed since; otherwise 412 and nothing.
 */
import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { build, call } from './helpers/build.ts';

async function sheetWithRows(t: TestContext) {
  const { url } = await build(t);
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: {
      name: 'moving',
      columns: ['name'],
      rows: [{ name: 'a' }, { name: 'b' }, { name: 'c' }],
    },
  });
  const rows = `${url}/api/v1/${(created.body as { id: string }).id}`;
  const read = await call(rows);
  return { rows, etag: read.headers.get('etag') as string };
}

const names = async (rows: string) =>
  ((await call(rows)).body as { name: string }[]).map((row) => row.name);

describe('If-Match', () => {
  test('a write with the ETag of the current version applies, and answers the next one', async (t) => {
    const { rows, etag } = await sheetWithRows(t);
    const patched = await call(`${rows}?_id=1`, {
      method: 'PATCH',
      headers: { 'if-match': etag },
      body: { name: 'B' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.notEqual(patched.headers.get('etag'), etag);
    assert.deepEqual(await names(rows), ['a', 'B', 'c']);
  });

  test('a DELETE by position based on an older read answers 412 precondition-failed and deletes nothing', async (t) => {
    const { rows, etag } = await sheetWithRows(t);
    // Someone else deletes the first row: positions move up.
    const other = await call(`${rows}?_id=0`, { method: 'DELETE' });
    assert.equal(other.status, 200, other.text);
    // This client still means "b" by _id=1 as it read it; now that is "c".
    const stale = await call(`${rows}?_id=1`, { method: 'DELETE', headers: { 'if-match': etag } });
    assert.equal(stale.status, 412, stale.text);
    assert.equal((stale.body as { code: string }).code, 'precondition-failed');
    assert.equal(stale.headers.get('etag'), other.headers.get('etag'), 'answers the current ETag');
    assert.deepEqual(await names(rows), ['b', 'c']);
  });

  test('every write method honours it: POST, PUT, PATCH and DELETE each answer 412 on a moved sheet', async (t) => {
    const { rows, etag } = await sheetWithRows(t);
    await call(rows, { method: 'POST', body: { name: 'd' } });
    const before = await names(rows);
    const writes = [
      { method: 'POST', query: '', body: { name: 'x' } },
      { method: 'PUT', query: '?_id=0', body: { name: 'x' } },
      { method: 'PATCH', query: '?name=a', body: { name: 'x' } },
      { method: 'DELETE', query: '?name=b' },
    ];
    for (const { method, query, body } of writes) {
      const answer = await call(`${rows}${query}`, {
        method,
        headers: { 'if-match': etag },
        ...(body === undefined ? {} : { body }),
      });
      assert.equal(answer.status, 412, `${method}: ${answer.text}`);
    }
    assert.deepEqual(await names(rows), before);
  });

  test('`*`, no header, a CSV read’s ETag and a list holding the current version all let a write through', async (t) => {
    const { rows } = await sheetWithRows(t);
    const current = async () => (await call(rows)).headers.get('etag') as string;
    const csv = async () =>
      (await call(rows, { headers: { accept: 'text/csv' } })).headers.get('etag') as string;
    const variants: [string, () => Promise<Record<string, string>>][] = [
      ['*', async () => ({ 'if-match': '*' })],
      ['no header', async () => ({})],
      ['a CSV read', async () => ({ 'if-match': await csv() })],
      ['a list', async () => ({ 'if-match': `W/"0", ${await current()}` })],
    ];
    for (const [what, headers] of variants) {
      const answer = await call(`${rows}?_id=0`, {
        method: 'PATCH',
        headers: await headers(),
        body: { name: what },
      });
      assert.equal(answer.status, 200, `${what}: ${answer.text}`);
    }
    assert.deepEqual(await names(rows), ['a list', 'b', 'c']);
  });

  test('an ETag Sheetport never gave out matches no version', async (t) => {
    const { rows } = await sheetWithRows(t);
    // A tag that is no entity tag at all (nonsense, unquoted) is refused as malformed instead.
    for (const ifMatch of ['"abc"', 'W/"1.5"', '"nonsense"']) {
      const answer = await call(`${rows}?_id=0`, {
        method: 'PATCH',
        headers: { 'if-match': ifMatch },
        body: { name: 'x' },
      });
      assert.equal(answer.status, 412, `${ifMatch}: ${answer.text}`);
    }
    assert.deepEqual(await names(rows), ['a', 'b', 'c']);
  });

  test('writes queued together each check the version as of their turn', async (t) => {
    const { rows, etag } = await sheetWithRows(t);
    // Two clients read the same version and both delete "the first row" at once: one wins.
    const answers = await Promise.all(
      [1, 2].map(() => call(`${rows}?_id=0`, { method: 'DELETE', headers: { 'if-match': etag } })),
    );
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 412]);
    assert.deepEqual(await names(rows), ['b', 'c']);
  });
});

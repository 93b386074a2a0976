import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultLimits } from '../src/access/limits.ts';
import { build, call } from './helpers/build.ts';
import { upload } from './helpers/upload.ts';

async function people(url: string) {
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name', 'note'], rows: [{ name: 'Ann' }] },
  });
  assert.equal(created.status, 201, created.text);
  return `${url}/api/v1/${(created.body as { id: string }).id}`;
}

const problemOf = (answer: { body: unknown }) => answer.body as { code: string; detail: string };

test('GET and DELETE with Content-Type: application/json and no body answer as without the header', async (t) => {
  const { url } = await build(t);
  const rows = await people(url);
  const json = { 'content-type': 'application/json' };
  const read = await call(rows, { headers: json });
  assert.equal(read.status, 200, read.text);
  assert.deepEqual(read.body, [{ name: 'Ann', note: null }]);
  const listed = await call(`${url}/admin/v1/sheets`, { headers: json });
  assert.equal(listed.status, 200, listed.text);
  const removed = await call(`${rows}?name=Ann`, { method: 'DELETE', headers: json });
  assert.equal(removed.status, 200, removed.text);
  assert.deepEqual((await call(rows)).body, []);
  // A POST still needs its body.
  const empty = await call(rows, { method: 'POST', headers: json });
  assert.equal(empty.status, 400);
  assert.equal(problemOf(empty).code, 'malformed-json');
});

test('a malformed If-Match answers 400 invalid-header, a well-formed stale one 412, and neither writes', async (t) => {
  const { url } = await build(t);
  const rows = await people(url);
  const banana = await call(`${rows}?_id=0`, {
    method: 'PATCH',
    headers: { 'if-match': 'banana' },
    body: { note: 'x' },
  });
  assert.equal(banana.status, 400, banana.text);
  assert.equal(problemOf(banana).code, 'invalid-header');
  assert.match(problemOf(banana).detail, /If-Match "banana" is not a list of entity tags/);
  const stale = await call(`${rows}?_id=0`, {
    method: 'PATCH',
    headers: { 'if-match': '"999"' },
    body: { note: 'x' },
  });
  assert.equal(stale.status, 412, stale.text);
  assert.deepEqual((await call(rows)).body, [{ name: 'Ann', note: null }]);
});

test('a body over the limit is told the limit, for JSON bodies and uploads alike', async (t) => {
  const { url } = await build(t, { bodyLimit: 1024, uploadLimit: 2048 });
  const rows = await people(url);
  const big = await call(rows, { method: 'POST', body: { name: 'x'.repeat(2000) } });
  assert.equal(big.status, 413);
  assert.equal(
    problemOf(big).detail,
    'The request body is larger than the 1 KiB this server accepts; send fewer rows per request, or raise SHEETPORT_BODY_LIMIT.',
  );
  const file = `name\n${'a line of text\n'.repeat(300)}`;
  const uploaded = await upload(url, file, 'big.csv');
  assert.equal(uploaded.status, 413, JSON.stringify(uploaded.body));
  assert.equal(
    (uploaded.body as { detail: string }).detail,
    'The request body is larger than the 2 KiB this server accepts; split the file, or raise SHEETPORT_UPLOAD_LIMIT.',
  );
});

test('a cell over the length limit names its column, and its row as _id numbers rows', async (t) => {
  const { url } = await build(t, { limits: { ...defaultLimits, cellLength: 10 } });
  const rows = await people(url);
  const appended = await call(rows, {
    method: 'POST',
    body: [{ name: 'Bo' }, { name: 'Cy', note: 'x'.repeat(11) }],
  });
  assert.equal(appended.status, 400, appended.text);
  assert.equal(
    problemOf(appended).detail,
    'A cell may hold at most 10 characters; row 1 of the body gives column "note" 11.',
  );
  const patched = await call(`${rows}?_id=0`, { method: 'PATCH', body: { note: 'y'.repeat(12) } });
  assert.equal(
    problemOf(patched).detail,
    'A cell may hold at most 10 characters; the body gives column "note" 12.',
  );
  const uploaded = await upload(url, `name,note\nAnn,short\nBob,${'z'.repeat(11)}\n`, 'notes.csv');
  assert.equal(uploaded.status, 400, JSON.stringify(uploaded.body));
  assert.equal(
    (uploaded.body as { detail: string }).detail,
    'A cell may hold at most 10 characters; the row at _id=1 gives column "note" 11.',
  );
  assert.deepEqual((await call(rows)).body, [{ name: 'Ann', note: null }]);
});

test('a scratch sheet whose rows are arrays is told rows are objects, not about source', async (t) => {
  const { url } = await build(t);
  const answer = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'people', columns: ['name', 'age'], rows: [['Ann', 31]] },
  });
  assert.equal(answer.status, 400, answer.text);
  assert.equal(problemOf(answer).detail, 'The body is invalid: /rows/0 must be a JSON object.');
  assert.doesNotMatch(problemOf(answer).detail, /source/);
});

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import type { SheetStore } from '../src/store/store.ts';
import { build, call } from './helpers/build.ts';

type Row = Record<string, unknown>;

interface Request {
  method: string;
  url: string;
  body?: unknown;
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

/**
 * Sends the requests all at once from a separate process and answers in request order. A client
 * sharing the server's event loop hands it one request per turn, so writes would never meet in
 * one commit; from another process they arrive together, as they do in production.
 */
async function inParallel(requests: Request[]): Promise<Answer[]> {
  const client = spawn(process.execPath, ['--input-type=module', '-e', parallelClient], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  client.stdin.end(JSON.stringify(requests));
  let output = '';
  client.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const [code] = (await once(client, 'close')) as [number | null];
  assert.equal(code, 0, 'the client process failed');
  const answers = JSON.parse(output) as { status: number; text: string }[];
  return answers.map(({ status, text }) => ({
    status,
    text,
    body: text === '' ? null : (JSON.parse(text) as unknown),
  }));
}

const parallelClient = `
let input = '';
for await (const chunk of process.stdin) input += chunk;
const answers = await Promise.all(
  JSON.parse(input).map(async ({ method, url, body }) => {
    const json = body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
    const response = await fetch(url, { method, ...json });
    return { status: response.status, text: await response.text() };
  }),
);
process.stdout.write(JSON.stringify(answers));
`;

/**
 * A DELETE that carries an empty JSON body: a request without a body reaches its handler a turn
 * earlier than one with a body, so bodiless DELETEs would never share a commit with the PATCHes
 * and POSTs sent alongside them.
 */
function deleteRequest(url: string): Request {
  return { method: 'DELETE', url, body: {} };
}

/** A server holding one sheet of rows keyed k0..k<count-1>, each with its position as `n`. */
async function keyedSheet(t: TestContext, count: number) {
  const { url, store } = await build(t);
  const rows = Array.from({ length: count }, (_, n) => ({ key: `k${n}`, n, tag: null }));
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    body: { name: 'keyed', columns: ['key', 'n', 'tag'], rows },
  });
  assert.equal(created.status, 201, created.text);
  const { id } = created.body as { id: string };
  return { rows: `${url}/api/v1/${id}`, url, id, initial: rows, commits: recordCommits(store) };
}

/**
 * Records the kinds of write each commit carried, so that a test can check that its requests
 * really met in one commit, where positions and counts are hardest to get right.
 */
function recordCommits(store: SheetStore): string[][] {
  const commits: string[][] = [];
  const apply = store.writeRows.bind(store);
  store.writeRows = (sheetId, writes) => {
    commits.push(writes.map((write) => write.op.kind));
    return apply(sheetId, writes);
  };
  return commits;
}

/** Fails unless one commit held several writes, among them every kind listed. */
function assertCommittedTogether(commits: string[][], kinds: string[]) {
  assert.ok(
    commits.some((ops) => ops.length > 1 && kinds.every((kind) => ops.includes(kind))),
    `the test did not exercise what it claims: no commit held ${kinds.join(' + ')} together; ` +
      `commits were ${commits.map(describeCommit).join(' | ')}`,
  );
}

function describeCommit(ops: string[]): string {
  const counts = new Map<string, number>();
  for (const kind of ops) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(' + ');
}

async function read(target: string): Promise<Row[]> {
  const reply = await call(target);
  assert.equal(reply.status, 200, reply.text);
  return reply.body as Row[];
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Fails listing every answer that was not the one expected, not just the first. */
function assertAnswers(answers: Answer[], status: number, body: unknown, what: string) {
  const wrong = answers.filter(
    (answer) =>
      answer.status !== status || JSON.stringify(withoutKeys(answer.body)) !== JSON.stringify(body),
  );
  assert.deepEqual(
    wrong.map((answer) => `${answer.status} ${answer.text}`),
    [],
    `${what}: ${wrong.length} answers were not ${status} ${JSON.stringify(body)}`,
  );
}

/** A POST's answer without the keys of its rows, which differ from write to write. */
function withoutKeys(body: unknown): unknown {
  if (typeof body !== 'object' || body === null || !('keys' in body)) return body;
  return Object.fromEntries(Object.entries(body).filter(([name]) => name !== 'keys'));
}

test('100 parallel POSTs add exactly 100 rows, each exactly once', async (t) => {
  const { url, id, rows, commits } = await keyedSheet(t, 0);
  const answers = await inParallel(
    range(0, 100).map((n) => ({ method: 'POST', url: rows, body: { key: `p${n}`, n } })),
  );
  assertAnswers(answers, 201, { created: 1 }, 'POST');
  const found = await read(rows);
  const keys = found.map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, 'a row was added twice');
  assert.deepEqual(
    [...keys].sort(),
    range(0, 100)
      .map((n) => `p${n}`)
      .sort(),
  );
  for (const row of found) assert.equal(row.key, `p${String(row.n)}`, 'cells of rows mixed up');
  // Each answer names the row its own write added, by a key no other answer names.
  const keyed = (await call(`${rows}?_with_key=true`)).body as Row[];
  const named = answers.map((answer) => {
    const [key] = (answer.body as { keys: string[] }).keys;
    return keyed.find((row) => row._key === key)?.key;
  });
  assert.deepEqual(
    named,
    range(0, 100).map((n) => `p${n}`),
  );
  const sheet = await call(`${url}/admin/v1/sheets/${id}`);
  assert.equal((sheet.body as { rowCount: number }).rowCount, 100);
  assertCommittedTogether(commits, ['append']);
});

test('parallel POSTs of arrays add every row exactly once, each array in one piece', async (t) => {
  const { rows, commits } = await keyedSheet(t, 0);
  const answers = await inParallel(
    range(0, 20).map((batch) => ({
      method: 'POST',
      url: rows,
      body: range(0, 10).map((i) => ({ key: `b${batch}-${i}`, n: i })),
    })),
  );
  assertAnswers(answers, 201, { created: 10 }, 'POST array');
  const found = await read(rows);
  const keys = found.map((row) => row.key);
  assert.equal(keys.length, 200);
  assert.equal(new Set(keys).size, 200, 'a row was added twice');
  for (let start = 0; start < found.length; start += 10) {
    const array = String(found[start]?.key).split('-')[0];
    assert.deepEqual(
      found.slice(start, start + 10).map((row) => row.key),
      range(0, 10).map((i) => `${array}-${i}`),
      'the rows of one POST are not together and in order',
    );
  }
  assertCommittedTogether(commits, ['append']);
});

test('concurrent PATCHes by a unique-key filter each update exactly their own row', async (t) => {
  const { rows, initial, commits } = await keyedSheet(t, 100);
  const answers = await inParallel(
    initial.map(({ key, n }) => ({
      method: 'PATCH',
      url: `${rows}?key=${key}`,
      body: { tag: `tag-${key}`, n: n * 10 },
    })),
  );
  assertAnswers(answers, 200, { updated: 1 }, 'PATCH');
  assert.deepEqual(
    await read(rows),
    initial.map(({ key, n }) => ({ key, n: n * 10, tag: `tag-${key}` })),
  );
  assertCommittedTogether(commits, ['patch']);
});

test('concurrent appends and deletes by filter leave exactly the expected rows', async (t) => {
  const { rows, initial, commits } = await keyedSheet(t, 100);
  const deleted = initial.filter(({ n }) => n % 2 === 0);
  const kept = initial.filter(({ n }) => n % 2 === 1);
  const appended = range(0, 50).map((n) => ({ key: `new${n}`, n: 1000 + n, tag: null }));
  const answers = await inParallel(
    range(0, 50).flatMap((i) => [
      deleteRequest(`${rows}?key=${deleted[i]?.key}`),
      { method: 'POST', url: rows, body: appended[i] },
    ]),
  );
  assertAnswers(
    answers.filter((_, i) => i % 2 === 0),
    200,
    { deleted: 1 },
    'DELETE',
  );
  assertAnswers(
    answers.filter((_, i) => i % 2 === 1),
    201,
    { created: 1 },
    'POST',
  );

  const found = await read(rows);
  const keys = found.map((row) => row.key);
  assert.equal(new Set(keys).size, keys.length, 'a row appears twice');
  // Appends go after the rows already there, in the order the server took them.
  assert.deepEqual(found.slice(0, kept.length), kept);
  assert.deepEqual(
    found.slice(kept.length).sort((a, b) => Number(a.n) - Number(b.n)),
    appended,
  );
  assertCommittedTogether(commits, ['append', 'delete']);
});

test('concurrent PATCHes by _id hit their rows while rows are appended and later rows deleted', async (t) => {
  // Deletes only touch rows below the patched ones and appends go at the end, so each patched
  // row has the same position in every order the server may apply these requests in.
  const { rows, initial, commits } = await keyedSheet(t, 150);
  const answers = await inParallel(
    range(0, 50).flatMap((i) => [
      { method: 'PATCH', url: `${rows}?_id=${2 * i}`, body: { tag: `tag-k${2 * i}` } },
      deleteRequest(`${rows}?key=k${100 + i}`),
      { method: 'PATCH', url: `${rows}?_id=${2 * i + 1}`, body: { tag: `tag-k${2 * i + 1}` } },
      { method: 'POST', url: rows, body: { key: `new${i}`, n: 1000 + i } },
    ]),
  );
  const kind = (i: number) => ['PATCH', 'DELETE', 'PATCH', 'POST'][i % 4];
  assertAnswers(
    answers.filter((_, i) => kind(i) === 'PATCH'),
    200,
    { updated: 1 },
    'PATCH by _id',
  );
  assertAnswers(
    answers.filter((_, i) => kind(i) === 'DELETE'),
    200,
    { deleted: 1 },
    'DELETE by filter',
  );
  assertAnswers(
    answers.filter((_, i) => kind(i) === 'POST'),
    201,
    { created: 1 },
    'POST',
  );

  const found = await read(rows);
  assert.deepEqual(
    found.slice(0, 100),
    initial.slice(0, 100).map((row) => ({ ...row, tag: `tag-${row.key}` })),
  );
  assert.deepEqual(
    found
      .slice(100)
      .map((row) => row.key)
      .sort(),
    range(0, 50)
      .map((i) => `new${i}`)
      .sort(),
  );
  assertCommittedTogether(commits, ['patch', 'append', 'delete']);
});

test('concurrent DELETE _id=0 requests each remove one row: exactly the first rows go', async (t) => {
  const { rows, initial, commits } = await keyedSheet(t, 80);
  const answers = await inParallel(range(0, 50).map(() => deleteRequest(`${rows}?_id=0`)));
  assertAnswers(answers, 200, { deleted: 1 }, 'DELETE _id=0');
  assert.deepEqual(await read(rows), initial.slice(50));
  assertCommittedTogether(commits, ['delete']);
});

test('concurrent PATCH _id=0 and DELETE _id=0 only touch the row that is first at the time', async (t) => {
  // In any serial order the deletes remove k0..k49, and each patch tags whichever row is first
  // when it runs: only k50 can carry a tag at the end, never a row further down.
  const { rows, initial, commits } = await keyedSheet(t, 100);
  const answers = await inParallel(
    range(0, 50).flatMap((i) => [
      deleteRequest(`${rows}?_id=0`),
      { method: 'PATCH', url: `${rows}?_id=0`, body: { tag: `p${i}` } },
    ]),
  );
  assertAnswers(
    answers.filter((_, i) => i % 2 === 0),
    200,
    { deleted: 1 },
    'DELETE _id=0',
  );
  assertAnswers(
    answers.filter((_, i) => i % 2 === 1),
    200,
    { updated: 1 },
    'PATCH _id=0',
  );
  const found = await read(rows);
  assert.deepEqual(
    found.map((row) => row.key),
    initial.slice(50).map((row) => row.key),
  );
  assert.deepEqual(found.slice(1), initial.slice(51), 'a PATCH changed a row that was not first');
  assert.deepEqual({ ...found[0], tag: null }, initial[50]);
  assertCommittedTogether(commits, ['patch', 'delete']);
});

test('a failing write among concurrent writes fails alone: the writes around it all commit', async (t) => {
  const { rows, initial, commits } = await keyedSheet(t, 10);
  // _id=0,5000 is past the end whatever order the appends land in: it must change nothing.
  const answers = await inParallel(
    range(0, 40).flatMap((i) => [
      { method: 'POST', url: rows, body: { key: `new${i}`, n: 100 + i } },
      ...(i < 10
        ? [{ method: 'PATCH', url: `${rows}?_id=0,5000`, body: { tag: 'must not appear' } }]
        : []),
      ...(i > 0 && i < 10
        ? [{ method: 'PATCH', url: `${rows}?key=k${i}`, body: { tag: `tag-k${i}` } }]
        : []),
    ]),
  );
  const failing = answers.filter((answer) => answer.status === 404);
  assert.equal(failing.length, 10, 'the PATCHes of _id=0,5000 did not all answer 404');
  for (const answer of failing) assert.equal((answer.body as Row).code, 'row-not-found');
  assertAnswers(
    answers.filter((answer) => answer.status === 201),
    201,
    { created: 1 },
    'POST',
  );
  assert.equal(answers.filter((answer) => answer.status === 201).length, 40);
  assertAnswers(
    answers.filter((answer) => answer.status === 200),
    200,
    { updated: 1 },
    'PATCH by key',
  );
  assert.equal(answers.filter((answer) => answer.status === 200).length, 9);

  const found = await read(rows);
  assert.equal(found.length, 50);
  assert.deepEqual(found[0], initial[0], 'the failing PATCH changed row 0');
  assert.deepEqual(
    found.slice(1, 10),
    initial.slice(1).map((row) => ({ ...row, tag: `tag-${row.key}` })),
  );
  assert.equal(found.filter((row) => row.tag === 'must not appear').length, 0);
  assertCommittedTogether(commits, ['append', 'patch']);
});

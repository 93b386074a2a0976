import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { build, call } from './helpers/build.ts';

const adminToken = 'test-admin-token-0123456789';

type Reply = Awaited<ReturnType<typeof call>>;

interface KeyDescription {
  id: string;
  name: string;
  scopes: string[];
  expiresAt: string | null;
  rotatedTo: string | null;
  replaces: string | null;
  key?: string;
}

/** A server with an administrator token and one private sheet of one row. */
async function privateSheet(t: TestContext) {
  const { url } = await build(t, { adminToken });
  const manage = (path: string, init: { method?: string; body?: unknown } = {}) =>
    call(`${url}/admin/v1${path}`, { ...init, headers: { authorization: `Bearer ${adminToken}` } });
  const created = await manage('/sheets', {
    method: 'POST',
    body: { name: 'keyed', columns: ['name'], rows: [{ name: 'Ann' }] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const rows = `${url}/api/v1/${id}`;
  const keys = `/sheets/${id}/keys`;
  return {
    rows,
    keys,
    manage,
    listKeys: async () => (await manage(keys)).body as KeyDescription[],
    read: (key: string) => call(rows, { headers: { 'x-api-key': key } }),
    write: (key: string) =>
      call(rows, { method: 'POST', body: { name: 'Bob' }, headers: { 'x-api-key': key } }),
    newKey: async (body: object) => {
      const made = await manage(keys, { method: 'POST', body });
      assert.equal(made.status, 201, made.text);
      return made.body as KeyDescription & { key: string };
    },
    rotate: (keyId: string, body?: object) =>
      manage(`${keys}/${keyId}/rotate`, { method: 'POST', body }),
  };
}

function assertProblem(reply: Reply, status: number, code: string): string {
  assert.equal(reply.status, status, reply.text);
  const problem = reply.body as { code: string; detail: string };
  assert.equal(problem.code, code, reply.text);
  return problem.detail;
}

/** Resolves once the clock has passed `moment`: the condition an expiry waits on. */
async function past(moment: string | null): Promise<void> {
  assert.ok(moment !== null);
  const at = Date.parse(moment);
  while (Date.now() <= at) {
    await new Promise((resolve) => setTimeout(resolve, at - Date.now() + 1));
  }
}

test('a key past its expiry is refused on reads, writes and event streams; only its holder is told it expired', async (t) => {
  const s = await privateSheet(t);
  const made = await s.newKey({ scopes: ['read', 'create'], name: 'short', expiresInSeconds: 1 });
  assert.ok(made.expiresAt !== null);
  const lifetime = Date.parse(made.expiresAt) - Date.now();
  assert.ok(lifetime > 0 && lifetime <= 1000, `expires in ${lifetime} ms`);
  assert.equal((await s.read(made.key)).status, 200);
  assert.equal((await s.write(made.key)).status, 201);

  await past(made.expiresAt);
  assert.match(assertProblem(await s.read(made.key), 401, 'unauthorized'), /expired/);
  assert.match(assertProblem(await s.write(made.key), 401, 'unauthorized'), /expired/);
  const stream = await call(`${s.rows}/events`, { headers: { 'x-api-key': made.key } });
  assertProblem(stream, 401, 'unauthorized');
  // The same key id with another secret learns nothing about the key.
  const forged = `${made.key.slice(0, -43)}${'A'.repeat(43)}`;
  assert.doesNotMatch(assertProblem(await s.read(forged), 401, 'unauthorized'), /expired/);
  // Nothing was written by the refused write: Ann and the one Bob from before the expiry.
  const all = await s.newKey({ scopes: ['read'] });
  assert.deepEqual((await s.read(all.key)).body, [{ name: 'Ann' }, { name: 'Bob' }]);
});

test('keys list their expiry; a key may be given a moment to expire at', async (t) => {
  const s = await privateSheet(t);
  const forever = await s.newKey({ scopes: ['read'] });
  const later = new Date(Date.now() + 3_600_000);
  const dated = await s.newKey({
    scopes: ['read'],
    expiresAt: later.toISOString().replace('Z', '+00:00'),
  });
  assert.equal(forever.expiresAt, null);
  assert.equal(dated.expiresAt, later.toISOString());
  assert.equal((await s.read(dated.key)).status, 200);
  assert.deepEqual(
    (await s.listKeys()).map((key) => [key.id, key.expiresAt, key.rotatedTo, key.replaces]),
    [
      [forever.id, null, null, null],
      [dated.id, later.toISOString(), null, null],
    ],
  );
});

test('an expiry that is past, not a date-time, out of range or given twice is refused, and no key is made', async (t) => {
  const s = await privateSheet(t);
  const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
  for (const expiry of [
    { expiresAt: hourAgo },
    { expiresAt: 'tomorrow' },
    { expiresAt: '2030-02-31T00:00:00Z' },
    { expiresAt: '2030-01-01' },
    { expiresAt: '9999-01-01T00:00:00Z' },
    { expiresAt: 1893456000 },
    { expiresInSeconds: 0 },
    { expiresInSeconds: -5 },
    { expiresInSeconds: 1.5 },
    { expiresInSeconds: 400_000_000 },
    { expiresInSeconds: 60, expiresAt: new Date(Date.now() + 60_000).toISOString() },
  ]) {
    const answer = await s.manage(s.keys, {
      method: 'POST',
      body: { scopes: ['read'], ...expiry },
    });
    assertProblem(answer, 400, 'invalid-body');
  }
  assert.deepEqual(await s.listKeys(), []);
});

test('a rotated key works alongside its successor for the overlap, then is refused', async (t) => {
  const s = await privateSheet(t);
  const old = await s.newKey({ scopes: ['read'], name: 'ci' });
  const rotated = await s.rotate(old.id, { overlapSeconds: 1 });
  assert.equal(rotated.status, 201, rotated.text);
  const successor = rotated.body as KeyDescription & { key: string };
  assert.notEqual(successor.id, old.id);
  assert.notEqual(successor.key, old.key);
  assert.deepEqual(
    [successor.name, successor.scopes, successor.replaces, successor.expiresAt],
    ['ci', ['read'], old.id, null],
  );
  const listed = await s.listKeys();
  const oldListed = listed.find((key) => key.id === old.id);
  assert.equal(oldListed?.rotatedTo, successor.id);
  assert.equal(listed.find((key) => key.id === successor.id)?.replaces, old.id);
  assert.ok(
    listed.every((key) => key.key === undefined),
    'no secret is listed',
  );
  const overlap = Date.parse(oldListed?.expiresAt ?? '') - Date.now();
  assert.ok(overlap > 0 && overlap <= 1000, `the old key works ${overlap} ms more`);

  assert.equal((await s.read(old.key)).status, 200);
  assert.equal((await s.read(successor.key)).status, 200);
  assertProblem(await s.write(successor.key), 403, 'forbidden');
  await past(oldListed?.expiresAt ?? null);
  assert.match(assertProblem(await s.read(old.key), 401, 'unauthorized'), /expired/);
  assert.equal((await s.read(successor.key)).status, 200);
});

test('a rotation with no body keeps the old key a day; one with overlap 0 revokes it now; none lengthens an expiry', async (t) => {
  const s = await privateSheet(t);
  const plain = await s.newKey({ scopes: ['read'] });
  const rotated = await s.manage(`${s.keys}/${plain.id}/rotate`, { method: 'POST' });
  assert.equal(rotated.status, 201, rotated.text);
  const day = Date.parse((await s.listKeys())[0]?.expiresAt ?? '') - Date.now();
  assert.ok(day > 86_390_000 && day <= 86_400_000, `kept for ${day} ms`);

  const now = await s.newKey({ scopes: ['read'] });
  assert.equal((await s.rotate(now.id, { overlapSeconds: 0 })).status, 201);
  assertProblem(await s.read(now.key), 401, 'unauthorized');

  const short = await s.newKey({ scopes: ['read'], expiresInSeconds: 60 });
  const next = await s.rotate(short.id, { overlapSeconds: 3600, expiresInSeconds: 7200 });
  assert.equal(next.status, 201, next.text);
  const listed = await s.listKeys();
  assert.equal(listed.find((key) => key.id === short.id)?.expiresAt, short.expiresAt);
  const successor = next.body as KeyDescription;
  assert.ok(Date.parse(successor.expiresAt ?? '') > Date.now() + 7_100_000);
});

test('a key is rotated once: again answers 409 until its successor is revoked; unknown keys and bad overlaps are refused', async (t) => {
  const s = await privateSheet(t);
  const old = await s.newKey({ scopes: ['read'] });
  const first = (await s.rotate(old.id, { overlapSeconds: 60 })).body as KeyDescription;
  assertProblem(await s.rotate(old.id, { overlapSeconds: 60 }), 409, 'key-already-rotated');
  assert.equal((await s.listKeys()).length, 2, 'the refused rotation added no key');

  assert.equal((await s.manage(`${s.keys}/${first.id}`, { method: 'DELETE' })).status, 204);
  assert.equal((await s.listKeys())[0]?.rotatedTo, null, 'a revoked successor is forgotten');
  assert.equal((await s.rotate(old.id, { overlapSeconds: 60 })).status, 201);

  assertProblem(await s.rotate('no-such-key'), 404, 'key-not-found');
  for (const overlapSeconds of [-1, 1.5, 'soon', 40 * 86_400]) {
    assertProblem(await s.rotate(old.id, { overlapSeconds }), 400, 'invalid-body');
  }
  assert.equal((await s.listKeys()).length, 2);
});

test('rotations of one key sent together make one successor; the others answer 409', async (t) => {
  const s = await privateSheet(t);
  const old = await s.newKey({ scopes: ['read'] });
  const answers = await Promise.all(
    Array.from({ length: 6 }, () => s.rotate(old.id, { overlapSeconds: 60 })),
  );
  assert.deepEqual(answers.map((answer) => answer.status).sort(), [201, 409, 409, 409, 409, 409]);
  const made = answers.find((answer) => answer.status === 201)?.body as KeyDescription;
  assert.deepEqual(
    (await s.listKeys()).map((key) => [key.id, key.rotatedTo]),
    [
      [old.id, made.id],
      [made.id, null],
    ],
  );
});

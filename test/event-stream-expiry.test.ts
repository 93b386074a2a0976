/**
 * An event stream opened with a key ends when the key expires, or when a rotation's overlap
 * ends, and never carries an event written after that: not only at the next periodic re-check
 * of its access, which these servers make once an hour.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { build, call } from './helpers/build.ts';
import { readEvents } from './helpers/event-reader.ts';

const adminToken = 'stream-expiry-admin-token-0123';
const admin = { authorization: `Bearer ${adminToken}` };

async function privateSheet(t: TestContext) {
  const { url } = await build(t, { adminToken, events: { recheckMs: 3_600_000 } });
  const created = await call(`${url}/admin/v1/sheets`, {
    method: 'POST',
    headers: admin,
    body: { name: 'secret', columns: ['name'], rows: [] },
  });
  assert.equal(created.status, 201, created.text);
  const id = (created.body as { id: string }).id;
  const keys = `${url}/admin/v1/sheets/${id}/keys`;
  const newKey = async (body: Record<string, unknown>) => {
    const made = await call(keys, { method: 'POST', headers: admin, body });
    assert.equal(made.status, 201, made.text);
    return made.body as { id: string; key: string; expiresAt: string };
  };
  const rows = `${url}/api/v1/${id}`;
  const write = async (name: string) => {
    const reply = await call(rows, { method: 'POST', headers: admin, body: { name } });
    assert.equal(reply.status, 201, reply.text);
  };
  return { rows, keys, newKey, write };
}

/** Waits until `moment` has passed on this clock, which the server shares. */
async function past(moment: string): Promise<void> {
  const at = Date.parse(moment);
  while (Date.now() <= at) await new Promise((resolve) => setTimeout(resolve, at - Date.now() + 1));
}

const names = (frames: { event: string; data: string }[]) =>
  frames
    .filter((frame) => frame.event === 'rows.created')
    .map(
      (frame) =>
        (JSON.parse(frame.data) as { data: { rows: { name: string }[] } }).data.rows[0]?.name,
    );

test('a stream opened with a key ends when the key expires, and carries nothing written after', async (t) => {
  const s = await privateSheet(t);
  const key = await s.newKey({ scopes: ['read'], expiresInSeconds: 2 });
  const stream = await readEvents(t, `${s.rows}/events`, { 'x-api-key': key.key });
  assert.equal(stream.response.status, 200);
  await s.write('before');
  await stream.until(() => names(stream.frames).includes('before'), 'the event before expiry');
  await past(key.expiresAt);
  await s.write('after');
  await stream.until(() => stream.ended, 'the stream to end at the expiry');
  assert.deepEqual(names(stream.frames), ['before']);
});

test("a stream opened with a rotated key ends when the rotation's overlap ends", async (t) => {
  const s = await privateSheet(t);
  const key = await s.newKey({ scopes: ['read'] });
  const stream = await readEvents(t, `${s.rows}/events`, { 'x-api-key': key.key });
  assert.equal(stream.response.status, 200);
  const rotated = await call(`${s.keys}/${key.id}/rotate`, {
    method: 'POST',
    headers: admin,
    body: { overlapSeconds: 2 },
  });
  assert.equal(rotated.status, 201, rotated.text);
  await s.write('during');
  await stream.until(() => names(stream.frames).includes('during'), 'the event in the overlap');
  assert.equal(stream.ended, false, 'the old key works through the overlap');
  const listed = await call(s.keys, { headers: admin });
  const old = (listed.body as { id: string; expiresAt: string }[]).find((k) => k.id === key.id);
  assert.ok(old !== undefined);
  await past(old.expiresAt);
  await s.write('after');
  await stream.until(() => stream.ended, 'the stream to end with the overlap');
  assert.deepEqual(names(stream.frames), ['during']);
});

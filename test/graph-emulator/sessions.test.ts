/** Workbook sessions: persistent and not, closed and expired ones refusing their requests. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

async function openSession(workbook: string, persistChanges: boolean): Promise<string> {
  const answer = await fixture.call('POST', `${workbook}createSession`, { persistChanges });
  assert.equal(answer.status, 201);
  const body = answer.body as { id: string; persistChanges: boolean };
  assert.equal(body.persistChanges, persistChanges);
  return body.id;
}

describe('sessions', () => {
  it('applies a persistent session’s writes to the file, and closeSession answers 204', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    const id = await openSession(workbook, true);
    const headers = { 'workbook-session-id': id };
    await fixture.call(
      'PATCH',
      `${workbook}${range('Sheet1', 'A1')}`,
      { values: [['x']] },
      headers,
    );
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['x']]);
    const closed = await fixture.call('POST', `${workbook}closeSession`, undefined, headers);
    assert.deepEqual([closed.status, closed.body], [204, undefined]);
    assert.deepEqual(fixture.emulator.sessions(ref), [{ id, persistChanges: true, closed: true }]);
  });

  it('keeps a non-persistent session’s writes in the session only, lost when it closes', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['file']] }]);
    const id = await openSession(workbook, false);
    const headers = { 'workbook-session-id': id };
    await fixture.call(
      'PATCH',
      `${workbook}${range('Sheet1', 'A1')}`,
      { values: [['draft']] },
      headers,
    );
    const inSession = await fixture.call(
      'GET',
      `${workbook}${range('Sheet1', 'A1')}`,
      undefined,
      headers,
    );
    assert.deepEqual((inSession.body as { values: unknown }).values, [['draft']]);
    const outside = await fixture.call('GET', `${workbook}${range('Sheet1', 'A1')}`);
    assert.deepEqual((outside.body as { values: unknown }).values, [['file']]);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['file']]);
  });

  it('refuses every request of a closed or unknown session with 404 InvalidSessionId, applying nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    const id = await openSession(workbook, true);
    const headers = { 'workbook-session-id': id };
    await fixture.call('POST', `${workbook}closeSession`, undefined, headers);
    const write = await fixture.call(
      'PATCH',
      `${workbook}${range('Sheet1', 'A1')}`,
      { values: [['b']] },
      headers,
    );
    assert.deepEqual([write.status, errorCode(write)], [404, 'InvalidSessionId']);
    const read = await fixture.call('GET', `${workbook}worksheets`, undefined, headers);
    assert.deepEqual([read.status, errorCode(read)], [404, 'InvalidSessionId']);
    const unknown = await fixture.call('GET', `${workbook}worksheets`, undefined, {
      'workbook-session-id': 'nope',
    });
    assert.deepEqual([unknown.status, errorCode(unknown)], [404, 'InvalidSessionId']);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['a']]);
  });

  it('ends sessions as Excel ends idle ones: by control, or after sessionIdleMs unused', async () => {
    const { workbook, ref } = fixture.create([{ name: 'Sheet1' }]);
    const first = await openSession(workbook, true);
    fixture.emulator.expireSessions(ref);
    const expired = await fixture.call('GET', `${workbook}worksheets`, undefined, {
      'workbook-session-id': first,
    });
    assert.equal(errorCode(expired), 'InvalidSessionId');
    const second = await openSession(workbook, true);
    const used = await fixture.call('GET', `${workbook}worksheets`, undefined, {
      'workbook-session-id': second,
    });
    assert.equal(used.status, 200);
    fixture.emulator.sessionIdleMs = 0;
    try {
      const start = Date.now();
      while (Date.now() === start) await new Promise((resolve) => setImmediate(resolve));
      const idle = await fixture.call('GET', `${workbook}worksheets`, undefined, {
        'workbook-session-id': second,
      });
      assert.equal(errorCode(idle), 'InvalidSessionId');
    } finally {
      fixture.emulator.sessionIdleMs = 300_000;
    }
  });

  it('logs the session id each request carried', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1' }]);
    const id = await openSession(workbook, true);
    fixture.emulator.resetRequests();
    await fixture.call('GET', `${workbook}worksheets`, undefined, { 'workbook-session-id': id });
    const [entry] = fixture.emulator.requests();
    assert.deepEqual(
      [entry?.method, entry?.path, entry?.status, entry?.sessionId],
      ['GET', `/v1.0/${decodeURIComponent(workbook)}worksheets`, 200, id],
    );
  });
});

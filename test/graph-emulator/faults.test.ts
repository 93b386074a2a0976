/**
 * Injected faults: refused before applying, applied then the answer lost (status, reset, no
 * answer), scoped by method and path, and on the token endpoint.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, login, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

async function rejection(call: Promise<unknown>): Promise<Error> {
  try {
    await call;
  } catch (error) {
    return error as Error;
  }
  return assert.fail('the call was answered');
}

function patchA1(workbook: string, value: string, signal?: AbortSignal) {
  return fetch(`${fixture.emulator.graphUrl}${workbook}${range('Sheet1', 'A1')}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${fixture.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ values: [[value]] }),
    ...(signal ? { signal } : {}),
  });
}

describe('faults before applying', () => {
  it('counts the requests its rules still wait for, until they are met or cleared', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.failNext(2, { status: 503 });
    fixture.emulator.failNext(1, { status: 429, match: { method: 'DELETE' } });
    assert.equal(fixture.emulator.pendingFaults, 3);
    await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, { values: [['b']] });
    assert.equal(fixture.emulator.pendingFaults, 2);
    fixture.emulator.clearFaults();
    assert.equal(fixture.emulator.pendingFaults, 0);
  });

  it('answers 503 with Retry-After and changes nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.failNext(1, { status: 503, retryAfterSeconds: 7 });
    const answer = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, {
      values: [['b']],
    });
    assert.deepEqual(
      [answer.status, answer.headers.get('retry-after'), errorCode(answer)],
      [503, '7', 'serviceNotAvailable'],
    );
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['a']]);
    const next = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, {
      values: [['b']],
    });
    assert.equal(next.status, 200, 'one fault, one request');
  });

  it('resets the socket unanswered, or never answers, changing nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.failNext(1, { mode: 'reset' });
    await rejection(patchA1(workbook, 'b'));
    fixture.emulator.failNext(1, { mode: 'timeout' });
    const timedOut = await rejection(patchA1(workbook, 'c', AbortSignal.timeout(150)));
    assert.equal(timedOut.name, 'TimeoutError');
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['a']]);
  });

  it('meets only the requests its match names', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.failNext(1, {
      status: 500,
      match: { method: 'PATCH', path: "range(address='A1')" },
    });
    const read = await fixture.call('GET', `${workbook}${range('Sheet1', 'A1')}`);
    const otherCell = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'B1')}`, {
      values: [['x']],
    });
    assert.deepEqual([read.status, otherCell.status], [200, 200]);
    const write = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, {
      values: [['x']],
    });
    assert.equal(write.status, 500);
  });

  it('fails the token endpoint only when asked to (only: login)', async () => {
    const app = fixture.emulator.registerApp();
    fixture.emulator.failNext(1, { status: 503, match: { only: 'login' } });
    const form = {
      grant_type: 'client_credentials',
      client_id: app.clientId,
      client_secret: app.clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    };
    assert.equal((await login(fixture.emulator, app.tenant, 'token', form)).status, 503);
    assert.equal((await login(fixture.emulator, app.tenant, 'token', form)).status, 200);
  });
});

describe('faults after applying', () => {
  it('applies the write, then answers 504 gatewayTimeout', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.resetRequests();
    fixture.emulator.failNext(1, { when: 'after', status: 504, retryAfterSeconds: 2 });
    const answer = await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, {
      values: [['b']],
    });
    assert.deepEqual(
      [answer.status, errorCode(answer), answer.headers.get('retry-after')],
      [504, 'gatewayTimeout', '2'],
    );
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['b']]);
    const [entry] = fixture.emulator.requests();
    assert.deepEqual([entry?.applied, entry?.fault], [true, { when: 'after', mode: 'status' }]);
    assert.deepEqual(fixture.emulator.counts(), {
      reads: 0,
      writes: 1,
      rejected: 0,
      unacknowledged: 1,
    });
  });

  it('applies the write, then destroys the connection or never answers', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    fixture.emulator.failNext(1, { when: 'after', mode: 'reset' });
    await rejection(patchA1(workbook, 'b'));
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['b']]);
    fixture.emulator.failNext(1, { when: 'after', mode: 'timeout' });
    await rejection(patchA1(workbook, 'c', AbortSignal.timeout(150)));
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['c']]);
  });
});

describe('stop and restart', () => {
  it('refuses connections while stopped and serves the same workbooks and tokens after restart', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1', rows: [['kept']] }]);
    await fixture.emulator.stop();
    const refused = await rejection(fixture.call('GET', `${workbook}${range('Sheet1', 'A1')}`));
    assert.match(
      String((refused.cause as { code?: string } | undefined)?.code),
      /ECONNREFUSED|ECONNRESET|UND_ERR_SOCKET/,
    );
    await fixture.emulator.restart();
    const answer = await fixture.call('GET', `${workbook}${range('Sheet1', 'A1')}`);
    assert.deepEqual((answer.body as { values: unknown }).values, [['kept']]);
  });
});

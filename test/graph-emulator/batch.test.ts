/** JSON batching: answered one by one, not atomic, dependsOn honoured, at most 20 requests. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, range, useEmulator } from './test-support.ts';

const fixture = useEmulator();

interface BatchAnswer {
  responses: { id: string; status: number; headers: Record<string, string>; body?: unknown }[];
}

const byId = (answer: { body: unknown }) =>
  Object.fromEntries((answer.body as BatchAnswer).responses.map((each) => [each.id, each]));

describe('$batch', () => {
  it('answers each request on its own and keeps those that succeeded when another fails', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    const answer = await fixture.call('POST', '$batch', {
      requests: [
        {
          id: '1',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A2')}`,
          headers: { 'Content-Type': 'application/json' },
          body: { values: [['b']] },
        },
        {
          id: '2',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A3:B3')}`,
          body: { values: [['too short']] },
        },
        { id: '3', method: 'GET', url: `/${workbook}worksheets('Nope')` },
        { id: '4', method: 'GET', url: `/${workbook}${range('Sheet1', 'A1:A2')}` },
      ],
    });
    assert.equal(answer.status, 200);
    const responses = byId(answer);
    assert.deepEqual(
      [
        responses['1']?.status,
        responses['2']?.status,
        responses['3']?.status,
        responses['4']?.status,
      ],
      [200, 400, 404, 200],
    );
    assert.equal((responses['3']?.body as { error: { code: string } }).error.code, 'ItemNotFound');
    assert.deepEqual((responses['4']?.body as { values: unknown }).values, [['a'], ['b']]);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['a'], ['b']]);
  });

  it('runs a request after those it dependsOn, and answers 424 without running it when one failed', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    const answer = await fixture.call('POST', '$batch', {
      requests: [
        {
          id: 'after',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'B1')}`,
          body: { values: [['=A1&"!"']] },
          dependsOn: ['first'],
        },
        {
          id: 'first',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A1')}`,
          body: { values: [['x']] },
        },
        {
          id: 'bad',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A9')}`,
          body: { values: [['two', 'cells']] },
        },
        {
          id: 'skipped',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'C1')}`,
          body: { values: [['y']] },
          dependsOn: ['bad'],
        },
      ],
    });
    const responses = byId(answer);
    assert.deepEqual((answer.body as BatchAnswer).responses.map((each) => each.id).slice(0, 2), [
      'first',
      'after',
    ]);
    assert.deepEqual([responses['bad']?.status, responses['skipped']?.status], [400, 424]);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['x', 'x!']]);
  });

  it('carries each request’s workbook-session-id', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1', rows: [['a']] }]);
    const session = await fixture.call('POST', `${workbook}createSession`, {
      persistChanges: false,
    });
    const id = (session.body as { id: string }).id;
    fixture.emulator.resetRequests();
    const answer = await fixture.call('POST', '$batch', {
      requests: [
        {
          id: '1',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A1')}`,
          headers: { 'workbook-session-id': id },
          body: { values: [['draft']] },
        },
      ],
    });
    assert.equal(byId(answer)['1']?.status, 200);
    assert.deepEqual(
      fixture.emulator.values(ref, 'Sheet1'),
      [['a']],
      'a non-persistent session’s write stays in it',
    );
    const inner = fixture.emulator.requests().find((entry) => entry.batchRequestId === '1');
    assert.deepEqual([inner?.sessionId, inner?.applied], [id, true]);
  });

  it('refuses more than 20 requests, running none', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    const requests = Array.from({ length: 21 }, (_, i) => ({
      id: String(i),
      method: 'PATCH',
      url: `/${workbook}${range('Sheet1', `A${i + 1}`)}`,
      body: { values: [['x']] },
    }));
    const answer = await fixture.call('POST', '$batch', { requests });
    assert.deepEqual([answer.status, errorCode(answer)], [400, 'BadRequest']);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), []);
    const twenty = await fixture.call('POST', '$batch', { requests: requests.slice(0, 20) });
    assert.equal(twenty.status, 200);
  });

  it('answers an injected status fault inside the batch for the request it matches', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1' }]);
    fixture.emulator.failNext(1, {
      status: 503,
      retryAfterSeconds: 3,
      match: { path: "range(address='B1')" },
    });
    const answer = await fixture.call('POST', '$batch', {
      requests: [
        {
          id: 'a',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A1')}`,
          body: { values: [['x']] },
        },
        {
          id: 'b',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'B1')}`,
          body: { values: [['y']] },
        },
      ],
    });
    const responses = byId(answer);
    assert.deepEqual(
      [responses['a']?.status, responses['b']?.status, responses['b']?.headers['retry-after']],
      [200, 503, '3'],
    );
  });
});

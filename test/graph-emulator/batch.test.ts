/** JSON batching: answered one by one, not atomic, dependsOn honoured, at most 20 requests. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorCode, range, useEmulator } from './test-support.ts';

const until = async (done: () => boolean) => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
};

const fixture = useEmulator();
const JSON_BODY = { 'content-type': 'application/json' };

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
          headers: JSON_BODY,
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
          headers: JSON_BODY,
          body: { values: [['=A1&"!"']] },
          dependsOn: ['first'],
        },
        {
          id: 'first',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A1')}`,
          headers: JSON_BODY,
          body: { values: [['x']] },
        },
        {
          id: 'bad',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A9')}`,
          headers: JSON_BODY,
          body: { values: [['two', 'cells']] },
        },
        {
          id: 'skipped',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'C1')}`,
          headers: JSON_BODY,
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
          headers: { 'workbook-session-id': id, ...JSON_BODY },
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
      headers: JSON_BODY,
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
          headers: JSON_BODY,
          body: { values: [['x']] },
        },
        {
          id: 'b',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'B1')}`,
          headers: JSON_BODY,
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

  it('refuses the whole batch when a request with a body has no Content-Type, running none', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    const answer = await fixture.call('POST', '$batch', {
      requests: [
        {
          id: '1',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A1')}`,
          headers: JSON_BODY,
          body: { values: [['x']] },
        },
        {
          id: '2',
          method: 'PATCH',
          url: `/${workbook}${range('Sheet1', 'A2')}`,
          body: { values: [['y']] },
        },
      ],
    });
    assert.deepEqual([answer.status, errorCode(answer)], [400, 'BadRequest']);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), []);
  });

  it('takes ids without regard to case, answering each under the id it was given', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1' }]);
    const get = (id: string, dependsOn?: string[]) => ({
      id,
      method: 'GET',
      url: `/${workbook}worksheets`,
      ...(dependsOn ? { dependsOn } : {}),
    });
    const clash = await fixture.call('POST', '$batch', { requests: [get('A'), get('a')] });
    assert.equal(clash.status, 400);
    const answer = await fixture.call('POST', '$batch', {
      requests: [get('First'), get('second', ['FIRST'])],
    });
    assert.deepEqual(Object.keys(byId(answer)).sort(), ['First', 'second']);
  });

  describe('meeting a fault as a whole (`only: batch`)', () => {
    const twoWrites = (workbook: string) => ({
      requests: ['A1', 'B1'].map((address, i) => ({
        id: String(i + 1),
        method: 'PATCH',
        url: `/${workbook}${range('Sheet1', address)}`,
        headers: JSON_BODY,
        body: { values: [[address]] },
        ...(i > 0 ? { dependsOn: [String(i)] } : {}),
      })),
    });

    it('refused before it runs: nothing of it applied', async () => {
      const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
      fixture.emulator.failNext(1, { status: 503, match: { only: 'batch' } });
      const answer = await fixture.call('POST', '$batch', twoWrites(workbook));
      assert.equal(answer.status, 503);
      assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), []);
    });

    it('run, its answer lost: every request of it applied', async () => {
      const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
      fixture.emulator.failNext(1, { when: 'after', mode: 'reset', match: { only: 'batch' } });
      await assert.rejects(fixture.call('POST', '$batch', twoWrites(workbook)));
      assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['A1', 'B1']]);
    });

    it('a rule for writes does not meet the batch itself, only the requests inside it', async () => {
      const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
      fixture.emulator.failNext(1, { status: 503, match: { only: 'writes', path: "'B1'" } });
      const answer = await fixture.call('POST', '$batch', twoWrites(workbook));
      assert.deepEqual(
        (answer.body as BatchAnswer).responses.map((each) => each.status),
        [200, 503],
      );
      assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['A1']]);
    });

    it('held and run late: applied then, but not the requests of a session closed meanwhile', async () => {
      const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
      const created = await fixture.call('POST', `${workbook}createSession`, {
        persistChanges: true,
      });
      const session = (created.body as { id: string }).id;
      const batch = twoWrites(workbook);
      const inSession = {
        requests: batch.requests.map((each) => ({
          ...each,
          headers: { ...each.headers, 'workbook-session-id': session },
        })),
      };
      fixture.emulator.resetRequests();
      fixture.emulator.failNext(2, { mode: 'late', match: { only: 'batch' } });
      const held = fixture.call('POST', '$batch', batch, {}).catch(() => undefined);
      const heldInSession = fixture.call('POST', '$batch', inSession).catch(() => undefined);
      await until(() => fixture.emulator.heldCount === 2);
      await fixture.call('POST', `${workbook}closeSession`, undefined, {
        'workbook-session-id': session,
      });
      fixture.emulator.clearFaults();
      await fixture.call('PATCH', `${workbook}${range('Sheet1', 'A1')}`, { values: [['x']] });
      fixture.emulator.applyHeld();
      assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['A1', 'B1']]);
      const late = fixture.emulator.requests().filter((r) => r.batchRequestId !== undefined);
      assert.equal(late.filter((r) => r.applied).length, 2, 'only the batch outside the session');
      void held;
      void heldInSession;
    });
  });
});

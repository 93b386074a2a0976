/** Throttling: a per-app budget per window answering 429 with Retry-After, requests in a batch counted one by one. */
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { clientToken, errorCode, request, useEmulator } from './test-support.ts';

const fixture = useEmulator();

afterEach(() => {
  fixture.emulator.throttle = null;
});

describe('throttling', () => {
  it('answers 429 TooManyRequests with Retry-After once an app spent its window, applying nothing', async () => {
    const { ref, workbook } = fixture.create([{ name: 'Sheet1' }]);
    fixture.emulator.throttle = { requestsPerWindow: 2, windowMs: 60_000 };
    const patch = (value: string) =>
      fixture.call('PATCH', `${workbook}worksheets/Sheet1/range(address='A1')`, {
        values: [[value]],
      });
    assert.equal((await patch('one')).status, 200);
    assert.equal((await patch('two')).status, 200);
    const third = await patch('three');
    assert.deepEqual([third.status, errorCode(third)], [429, 'TooManyRequests']);
    const retryAfter = Number(third.headers.get('retry-after'));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.deepEqual(fixture.emulator.values(ref, 'Sheet1'), [['two']]);
  });

  it('keeps a budget per app: another app is not throttled', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1' }]);
    const other = fixture.emulator.registerApp({ tenant: fixture.app.tenant });
    const token = await clientToken(fixture.emulator, other);
    fixture.emulator.throttle = { requestsPerWindow: 1, windowMs: 60_000, retryAfterSeconds: 5 };
    await fixture.call('GET', `${workbook}worksheets`);
    const throttled = await fixture.call('GET', `${workbook}worksheets`);
    assert.deepEqual([throttled.status, throttled.headers.get('retry-after')], [429, '5']);
    const theirs = await request(
      `${fixture.emulator.graphUrl}${workbook}worksheets`,
      'GET',
      undefined,
      { authorization: `Bearer ${token}` },
    );
    assert.equal(theirs.status, 200);
  });

  it('counts each request of a $batch, answering 429 inside the batch for those past the budget', async () => {
    const { workbook } = fixture.create([{ name: 'Sheet1' }]);
    fixture.emulator.throttle = { requestsPerWindow: 2, windowMs: 60_000 };
    const answer = await fixture.call('POST', '$batch', {
      requests: ['1', '2', '3'].map((id) => ({ id, method: 'GET', url: `/${workbook}worksheets` })),
    });
    const statuses = (
      answer.body as { responses: { status: number; headers: Record<string, string> }[] }
    ).responses;
    assert.deepEqual(
      statuses.map((each) => each.status),
      [200, 200, 429],
    );
    assert.ok(statuses[2]?.headers['retry-after']);
  });
});

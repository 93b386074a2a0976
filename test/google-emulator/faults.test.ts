/** The faults a request draws: `failNext` in order, and a seeded mix at its rates. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Faults, type FaultRates } from './faults.ts';

const moments = (faults: Faults, kind: 'read' | 'write', count: number) =>
  Array.from({ length: count }, () => {
    const { fault } = faults.draw(kind);
    return fault ? `${fault.when} ${fault.mode}` : 'none';
  });

describe('failNext', () => {
  it('fails the next count matching requests, before applying unless told after', () => {
    const faults = new Faults();
    faults.failNext(2, { status: 500, only: 'writes' });
    assert.deepEqual(moments(faults, 'read', 1), ['none'], 'reads are left alone');
    assert.deepEqual(moments(faults, 'write', 3), ['before status', 'before status', 'none']);
    faults.failNext(1, { mode: 'reset', when: 'after' });
    assert.deepEqual(moments(faults, 'read', 2), ['after reset', 'none']);
  });

  it('a status fault carries Google’s error and Retry-After', () => {
    const faults = new Faults();
    faults.failNext(1, { status: 503, retryAfterSeconds: 4, when: 'after' });
    const { fault } = faults.draw('write');
    assert.equal(fault?.mode, 'status');
    if (fault?.mode !== 'status') return;
    assert.deepEqual(fault.error.body().error.status, 'UNAVAILABLE');
    assert.deepEqual(fault.error.headers, { 'retry-after': '4' });
  });

  it('count 0 clears a pending failure', () => {
    const faults = new Faults();
    faults.failNext(5, { mode: 'timeout' });
    faults.failNext(0, { mode: 'timeout' });
    assert.deepEqual(moments(faults, 'write', 1), ['none']);
  });
});

describe('fault mix', () => {
  const rates: FaultRates = {
    status429: 0.05,
    after500: 0.1,
    afterReset: 0.15,
    slowMs: { probability: 0.2, ms: 7 },
    seed: 1234,
  };

  it('draws each fault near its rate for writes, and nothing for reads', () => {
    const faults = new Faults();
    faults.rates = rates;
    const draws = Array.from({ length: 20_000 }, () => faults.draw('write'));
    const share = (test: (draw: (typeof draws)[number]) => boolean) =>
      draws.filter(test).length / draws.length;
    const near = (actual: number, expected: number) =>
      assert.ok(Math.abs(actual - expected) < 0.01, `${actual} is not near ${expected}`);
    near(
      share((d) => d.fault?.mode === 'status' && d.fault.error.code === 429),
      0.05,
    );
    near(
      share((d) => d.fault?.when === 'after' && d.fault.mode === 'status'),
      0.1,
    );
    near(
      share((d) => d.fault?.when === 'after' && d.fault.mode === 'reset'),
      0.15,
    );
    near(
      share((d) => d.fault === undefined),
      0.7,
    );
    near(
      share((d) => d.slowMs === 7),
      0.2,
    );
    assert.ok(draws.every((d) => d.slowMs === 0 || d.slowMs === 7));
    assert.deepEqual(moments(faults, 'read', 100), Array<string>(100).fill('none'));
  });

  it('the same seed replays the same faults; setting the mix again starts over', () => {
    const faults = new Faults();
    faults.rates = rates;
    const first = moments(faults, 'write', 200);
    faults.rates = rates;
    assert.deepEqual(moments(faults, 'write', 200), first);
    faults.rates = { ...rates, seed: 99 };
    assert.notDeepEqual(moments(faults, 'write', 200), first);
  });

  it('a pending failNext goes before the mix', () => {
    const faults = new Faults();
    faults.rates = { after500: 1 };
    faults.failNext(1, { mode: 'timeout' });
    assert.deepEqual(moments(faults, 'write', 2), ['before timeout', 'after status']);
  });

  it('refuses rates outside 0–1 or adding up past 1', () => {
    const faults = new Faults();
    assert.throws(() => (faults.rates = { reset: 0.6, afterReset: 0.6 }), /add up to 1\.2/);
    assert.throws(() => (faults.rates = { reset: -0.1 }), /between 0 and 1/);
    assert.throws(() => (faults.rates = { slowMs: { probability: 2, ms: 1 } }), /between 0 and 1/);
    assert.equal(faults.rates, null);
  });
});

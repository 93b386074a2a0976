import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  pollDeviceCode,
  requestDeviceCode,
  type Sleep,
} from '../src/providers/excel/device-code.ts';
import { startGraphEmulator } from './graph-emulator/index.ts';

/** A clock whose waits end at once, recording how long each would have been. */
function recordingClock(onWait: (waits: number[]) => void = () => {}) {
  const waits: number[] = [];
  const sleep: Sleep = async (ms) => {
    waits.push(ms);
    onWait(waits);
  };
  return { waits, clock: { now: Date.now, sleep } };
}

test('polling honours the interval, and waits five seconds more after each slow_down', async (t) => {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  emulator.deviceCodeIntervalSeconds = 5;
  const app = emulator.registerApp();
  const settings = { clientId: app.clientId, tenant: app.tenant, loginUrl: emulator.loginUrl };
  const code = await requestDeviceCode(settings);
  assert.equal(code.intervalSeconds, 5);
  // The waits end at once, so every poll after the first comes too soon: slow_down each time.
  const { waits, clock } = recordingClock((so) => {
    if (so.length === 4) emulator.approveDeviceCode(code.userCode);
  });
  const ended = await pollDeviceCode(settings, code, new AbortController().signal, clock);
  assert.equal(ended.kind, 'signed-in');
  assert.deepEqual(waits, [5000, 5000, 10_000, 15_000]);
  const polls = emulator.requests().filter((request) => request.path.endsWith('/token'));
  assert.deepEqual(
    polls.map((request) => request.status),
    [400, 400, 400, 200],
  );
});

test('a code past its expiry ends the polling without another request', async (t) => {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  const app = emulator.registerApp();
  const settings = { clientId: app.clientId, tenant: app.tenant, loginUrl: emulator.loginUrl };
  const code = await requestDeviceCode(settings);
  let now = Date.now();
  const clock = {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms + code.expiresAt;
    },
  };
  const ended = await pollDeviceCode(settings, code, new AbortController().signal, clock);
  assert.deepEqual(ended, {
    kind: 'failed',
    reason: 'expired',
    detail: 'The code expired before the sign-in was completed.',
  });
  assert.equal(emulator.requests().filter((request) => request.path.endsWith('/token')).length, 0);
});

test('an abort stops the polling at its next wait', async (t) => {
  const emulator = await startGraphEmulator();
  t.after(() => emulator.close());
  emulator.deviceCodeIntervalSeconds = 3600;
  const app = emulator.registerApp();
  const settings = { clientId: app.clientId, tenant: app.tenant, loginUrl: emulator.loginUrl };
  const code = await requestDeviceCode(settings);
  const abort = new AbortController();
  const polling = pollDeviceCode(settings, code, abort.signal);
  abort.abort(new Error('signed out'));
  await assert.rejects(polling, /signed out/);
});

/**
 * Every fault on every write the emulator serves, through the real client: what the client sees,
 * whether the change landed (once for `after`, never for `before`), and what the log says.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { sheets_v4 } from '@googleapis/sheets';
import type { EmulatorCell, InjectedFailure } from './index.ts';
import { failure, googleError, networkFailure, useEmulator } from './test-support.ts';

const fixture = useEmulator();

/** Client options: no retries, so one call is one request; a timeout for unanswered ones. */
interface CallOptions {
  retry: false;
  timeout?: number;
}

interface WriteKind {
  name: string;
  send(api: sheets_v4.Sheets, spreadsheetId: string, options: CallOptions): Promise<unknown>;
  /** How many times the write's change shows in the tab. */
  landed(rows: EmulatorCell[][]): number;
}

const marks = (rows: EmulatorCell[][]) => rows.flat().filter((cell) => cell === 'written').length;

const writeKinds: WriteKind[] = [
  {
    name: 'spreadsheets.batchUpdate',
    send: (api, spreadsheetId, options) =>
      api.spreadsheets.batchUpdate(
        {
          spreadsheetId,
          requestBody: {
            requests: [
              {
                appendCells: {
                  sheetId: 0,
                  rows: [{ values: [{ userEnteredValue: { stringValue: 'written' } }] }],
                  fields: 'userEnteredValue',
                },
              },
            ],
          },
        },
        options,
      ),
    landed: marks,
  },
  {
    name: 'values.append',
    send: (api, spreadsheetId, options) =>
      api.spreadsheets.values.append(
        {
          spreadsheetId,
          range: 'Sheet1',
          valueInputOption: 'RAW',
          requestBody: { values: [['written']] },
        },
        options,
      ),
    landed: marks,
  },
  {
    name: 'values.update',
    send: (api, spreadsheetId, options) =>
      api.spreadsheets.values.update(
        {
          spreadsheetId,
          range: 'Sheet1!A5',
          valueInputOption: 'RAW',
          requestBody: { values: [['written']] },
        },
        options,
      ),
    landed: marks,
  },
  {
    name: 'values.batchUpdate',
    send: (api, spreadsheetId, options) =>
      api.spreadsheets.values.batchUpdate(
        {
          spreadsheetId,
          requestBody: {
            valueInputOption: 'RAW',
            data: [{ range: 'Sheet1!A5', values: [['written']] }],
          },
        },
        options,
      ),
    landed: marks,
  },
  {
    name: 'values.clear',
    send: (api, spreadsheetId, options) =>
      api.spreadsheets.values.clear({ spreadsheetId, range: 'Sheet1!B2' }, options),
    landed: (rows) => (rows[1]?.[1] === undefined ? 1 : 0),
  },
];

interface FaultCase {
  failure: InjectedFailure;
  title: string;
  /** Asserts what the client saw of the failed call. */
  seen(call: Promise<unknown>): Promise<void>;
}

const answered500 = async (call: Promise<unknown>) => {
  const failed = await failure(call);
  assert.equal(failed.status, 500);
  assert.deepEqual(failed.body, googleError(500, 'INTERNAL', 'Internal error encountered.'));
};
const reset = async (call: Promise<unknown>) => {
  assert.equal((await networkFailure(call)).code, 'ECONNRESET');
};
const timedOut = async (call: Promise<unknown>) => {
  assert.equal((await networkFailure(call)).name, 'AbortError');
};

const faultCases: FaultCase[] = [
  {
    failure: { status: 500 },
    title: 'before, 500: the client gets Google’s 500 and nothing changes',
    seen: answered500,
  },
  {
    failure: { status: 500, when: 'after' },
    title: 'after, 500: the change lands once and the client still gets Google’s 500',
    seen: answered500,
  },
  {
    failure: { mode: 'reset' },
    title: 'before, reset: the client’s socket is reset and nothing changes',
    seen: reset,
  },
  {
    failure: { mode: 'reset', when: 'after' },
    title: 'after, reset: the change lands once and the client’s socket is reset',
    seen: reset,
  },
  {
    failure: { mode: 'timeout' },
    title: 'before, timeout: the client times out and nothing changes',
    seen: timedOut,
  },
  {
    failure: { mode: 'timeout', when: 'after' },
    title: 'after, timeout: the change lands once and the client times out',
    seen: timedOut,
  },
];

const table = () =>
  fixture.create({
    tabs: [
      {
        title: 'Sheet1',
        rows: [
          ['a', 'b'],
          [1, 2],
        ],
      },
    ],
  });

for (const kind of writeKinds) {
  describe(kind.name, () => {
    for (const { failure: injected, title, seen } of faultCases) {
      it(title, async () => {
        const id = table();
        const after = injected.when === 'after';
        fixture.emulator.resetStats();
        fixture.emulator.failNext(1, { ...injected, only: 'writes' });
        const timeout = injected.mode === 'timeout' ? { timeout: 200 } : {};
        await seen(kind.send(fixture.api, id, { retry: false, ...timeout }));
        assert.equal(kind.landed(fixture.emulator.rows(id, 'Sheet1')), after ? 1 : 0);
        const writes = fixture.emulator.stats().requests.filter((r) => r.kind === 'write');
        assert.equal(writes.length, 1);
        const answer =
          injected.mode === 'reset' ? 'reset' : injected.mode === 'timeout' ? 'none' : 'http';
        assert.deepEqual(
          {
            applied: writes[0]?.applied,
            answer: writes[0]?.answer,
            status: writes[0]?.status,
            fault: writes[0]?.fault,
          },
          {
            applied: after,
            answer,
            status: answer === 'http' ? 500 : 0,
            fault: { when: injected.when ?? 'before', mode: injected.mode ?? 'status' },
          },
        );
        await kind.send(fixture.api, id, { retry: false });
        const next = fixture.emulator.stats().requests.at(-1);
        assert.deepEqual([next?.status, next?.applied], [200, true], 'the fault was spent');
      });
    }
  });
}

describe('fault mix', () => {
  it('a seeded mix over 120 concurrent appends: the sheet holds exactly the writes the log says landed', async (t) => {
    const id = table();
    fixture.emulator.resetStats();
    fixture.emulator.faultRates = {
      status429: 0.1,
      reset: 0.05,
      after500: 0.1,
      afterReset: 0.1,
      slowMs: { probability: 0.2, ms: 5 },
      seed: 42,
    };
    t.after(() => (fixture.emulator.faultRates = null));
    const seen = new Map<string, number | string>();
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let n = 0; n < 30; n++) {
          const value = `${writer}:${n}`;
          try {
            await fixture.api.spreadsheets.values.append(
              {
                spreadsheetId: id,
                range: 'Sheet1',
                valueInputOption: 'RAW',
                requestBody: { values: [[value]] },
              },
              { retry: false },
            );
            seen.set(value, 200);
          } catch (error) {
            const failed = error as { response?: { status: number }; code?: string };
            seen.set(value, failed.response?.status ?? failed.code ?? 'unknown');
          }
        }
      }),
    );
    const inSheet = new Set(fixture.emulator.rows(id, 'Sheet1').slice(2).flat());
    const stats = fixture.emulator.stats();
    const writes = stats.requests.filter((r) => r.kind === 'write');
    assert.equal(writes.length, 120);
    assert.equal(inSheet.size, stats.writes, 'one row per applied write');
    assert.equal(writes.filter((r) => r.applied).length, stats.writes);
    for (const [value, answer] of seen) {
      if (answer === 200 || answer === 500) assert.ok(inSheet.has(value), `${value} (${answer})`);
      if (answer === 429) assert.ok(!inSheet.has(value), `${value} was refused but landed`);
    }
    const faults = new Set(writes.map((r) => (r.fault ? `${r.fault.when} ${r.fault.mode}` : '')));
    assert.deepEqual(
      [...faults].sort(),
      ['', 'after reset', 'after status', 'before reset', 'before status'],
      'every fault of the mix happened at least once',
    );
    const afterFaults = writes.filter((r) => r.fault?.when === 'after').length;
    assert.equal(stats.unacknowledged, afterFaults);
    assert.equal(stats.rejected, writes.filter((r) => r.fault?.when === 'before').length);
  });

  it('a slow answer past the client’s timeout still lands the write', async (t) => {
    const id = table();
    fixture.emulator.resetStats();
    fixture.emulator.faultRates = { slowMs: { probability: 1, ms: 400 } };
    t.after(() => (fixture.emulator.faultRates = null));
    const append = fixture.api.spreadsheets.values.append(
      {
        spreadsheetId: id,
        range: 'Sheet1',
        valueInputOption: 'RAW',
        requestBody: { values: [['written']] },
      },
      { retry: false, timeout: 100 },
    );
    assert.equal((await networkFailure(append)).name, 'AbortError');
    assert.equal(marks(fixture.emulator.rows(id, 'Sheet1')), 1);
    const [write] = fixture.emulator.stats().requests.filter((r) => r.kind === 'write');
    assert.deepEqual([write?.applied, write?.status, write?.fault], [true, 200, undefined]);
  });
});

/**
 * Faults a test injects into API requests: refusing a request and changing nothing (`before`), or
 * applying it and then losing its answer (`after`) — an error status, a reset socket, or no answer
 * at all. Either the next few requests fail (`failNext`) or each write draws from a mix of rates.
 */
import { seededRandom } from '../helpers/seeded-random.ts';
import { internalError, quotaExceeded, serviceUnavailable, type ApiError } from './errors.ts';

/** `before` refuses and changes nothing; `after` applies the request, then fails its answer. */
export type FaultMoment = 'before' | 'after';
/**
 * An error status with Google's body, a socket destroyed unanswered, a socket never answered, or
 * (`late`) a request held unanswered and applied only later, as Google does with a request it is
 * still working on when its client gives up: after `applyAfterMs`, or when the test calls
 * `applyHeld()`, even after the client hung up, on the spreadsheet as it is by then.
 */
export type FaultMode = 'status' | 'reset' | 'timeout' | 'late';

interface FailureScope {
  /** Which API requests fail: writes, reads or both (default). Token requests never do. */
  only?: 'writes' | 'reads' | 'all';
  /** Default `before`. */
  when?: FaultMoment;
}

export type InjectedFailure = FailureScope &
  (
    | { mode?: 'status'; status: 429 | 500 | 503; retryAfterSeconds?: number }
    | { mode: 'reset' | 'timeout' }
    | { mode: 'late'; applyAfterMs?: number }
  );

/** The fault one request meets. */
export type Fault =
  | { when: FaultMoment; mode: 'status'; error: ApiError }
  | { when: FaultMoment; mode: 'reset' | 'timeout' }
  | { when: 'before'; mode: 'late'; applyAfterMs?: number };

/** The faults a mix can draw, each at its own rate; names without `after` refuse before applying. */
const MIXABLE = {
  status429: { when: 'before', mode: 'status', status: 429 },
  status500: { when: 'before', mode: 'status', status: 500 },
  status503: { when: 'before', mode: 'status', status: 503 },
  reset: { when: 'before', mode: 'reset' },
  timeout: { when: 'before', mode: 'timeout' },
  after500: { when: 'after', mode: 'status', status: 500 },
  after503: { when: 'after', mode: 'status', status: 503 },
  afterReset: { when: 'after', mode: 'reset' },
  afterTimeout: { when: 'after', mode: 'timeout' },
  /** Held unanswered and applied 5 s later, after its client gave up. */
  lateApply: { mode: 'late', applyAfterMs: 5000 },
} as const satisfies Record<string, InjectedFailure>;

export type MixedFault = keyof typeof MIXABLE;

/**
 * Probabilities (0–1, adding up to at most 1) that a write request meets each fault; `slowMs`
 * delays the answer of a write, drawn on its own. The same `seed` draws the same faults in the
 * same order; without one the draws are unseeded.
 */
export type FaultRates = { [name in MixedFault]?: number } & {
  slowMs?: { probability: number; ms: number };
  seed?: number;
};

/** What one request draws: its fault, if any, and how much later its answer goes out. */
export interface Draw {
  fault?: Fault;
  slowMs: number;
}

export class Faults {
  private pending: { remaining: number; failure: InjectedFailure } | undefined;
  private mix: { rates: FaultRates; random: () => number } | undefined;

  /** Replaces any failure still pending: the next `count` matching requests fail (0 clears it). */
  failNext(count: number, failure: InjectedFailure): void {
    this.pending = count > 0 ? { remaining: count, failure: { ...failure } } : undefined;
  }

  get rates(): FaultRates | null {
    return this.mix ? { ...this.mix.rates } : null;
  }

  /** Setting a mix starts its random source afresh from its seed; null stops drawing. */
  set rates(rates: FaultRates | null) {
    if (!rates) {
      this.mix = undefined;
      return;
    }
    checkRates(rates);
    const random = rates.seed === undefined ? Math.random : seededRandom(rates.seed);
    this.mix = { rates: { ...rates }, random };
  }

  /** The fault for this request: a pending `failNext` first, then, for writes, the mix. */
  draw(kind: 'read' | 'write'): Draw {
    const pending = this.takePending(kind);
    const mixed = kind === 'write' ? this.drawMixed() : { slowMs: 0 };
    const failure = pending ?? mixed.failure;
    return { fault: failure && faultOf(failure, kind), slowMs: mixed.slowMs };
  }

  private takePending(kind: 'read' | 'write'): InjectedFailure | undefined {
    const pending = this.pending;
    const only = pending?.failure.only ?? 'all';
    if (!pending || (only !== 'all' && only !== `${kind}s`)) return undefined;
    if (--pending.remaining === 0) this.pending = undefined;
    return pending.failure;
  }

  private drawMixed(): { failure?: InjectedFailure; slowMs: number } {
    if (!this.mix) return { slowMs: 0 };
    const { rates, random } = this.mix;
    let roll = random();
    let failure: InjectedFailure | undefined;
    for (const name of Object.keys(MIXABLE) as MixedFault[]) {
      roll -= rates[name] ?? 0;
      if (roll < 0) {
        failure = MIXABLE[name];
        break;
      }
    }
    const slow = rates.slowMs;
    const slowMs = slow && random() < slow.probability ? slow.ms : 0;
    return { failure, slowMs };
  }
}

function faultOf(failure: InjectedFailure, kind: 'read' | 'write'): Fault {
  const when = failure.when ?? 'before';
  if (failure.mode === 'late') {
    const { applyAfterMs } = failure;
    return {
      when: 'before',
      mode: 'late',
      ...(applyAfterMs === undefined ? {} : { applyAfterMs }),
    };
  }
  if (!('status' in failure)) return { when, mode: failure.mode };
  const { status, retryAfterSeconds } = failure;
  const headers: Record<string, string> =
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
  const error =
    status === 429
      ? quotaExceeded(kind, 60, retryAfterSeconds)
      : status === 500
        ? internalError(headers)
        : serviceUnavailable(headers);
  return { when, mode: 'status', error };
}

function checkRates(rates: FaultRates): void {
  const probabilities = (Object.keys(MIXABLE) as MixedFault[]).map((name) => rates[name] ?? 0);
  const slow = rates.slowMs?.probability ?? 0;
  const outside = (p: number) => !(p >= 0 && p <= 1);
  if (probabilities.some(outside) || outside(slow) || (rates.slowMs?.ms ?? 0) < 0) {
    throw new Error('Fault rates are probabilities between 0 and 1, and slowMs.ms is at least 0');
  }
  const total = probabilities.reduce((sum, p) => sum + p, 0);
  if (total > 1 + 1e-9) throw new Error(`Fault rates add up to ${total}, more than 1`);
}

/**
 * Faults a test scripts: each rule matches requests (method, path, reads or writes) and meets the
 * next `count` of them. `before` refuses and changes nothing; `after` applies the request, then
 * loses its answer; `late` holds the request unanswered and applies it later, after its client
 * gave up — unless its workbook session was closed meanwhile.
 */
export type FaultMoment = 'before' | 'after';
export type FaultMode = 'status' | 'reset' | 'timeout' | 'late';

export interface FaultMatch {
  /** `PATCH`, `POST`, …; any when absent. */
  method?: string;
  /** A substring of, or a pattern for, the decoded path (`/v1.0/drives/…/range(address='A2')`). */
  path?: string | RegExp;
  /**
   * Graph requests that read, that write cells, or both (the default); `login` matches the token
   * and device-code endpoints, which no other rule does; `batch` matches a `POST $batch` itself
   * (not the requests inside it), which no other rule does.
   */
  only?: 'reads' | 'writes' | 'all' | 'login' | 'batch';
  /** A `$batch` holding a request whose URL contains this (or matches it): one batch of several. */
  holding?: string | RegExp;
}

export type InjectedFailure = { match?: FaultMatch; when?: FaultMoment } & (
  | { mode?: 'status'; status: 429 | 500 | 502 | 503 | 504; retryAfterSeconds?: number }
  | { mode: 'reset' | 'timeout' }
  | { mode: 'late'; applyAfterMs?: number }
);

/** The fault one request meets, with its moment settled. */
export type Fault =
  | { when: FaultMoment; mode: 'status'; status: number; retryAfterSeconds?: number }
  | { when: FaultMoment; mode: 'reset' | 'timeout' }
  | { when: 'before'; mode: 'late'; applyAfterMs?: number };

export interface Matched {
  method: string;
  path: string;
  kind: 'read' | 'write' | 'login' | 'batch';
  /** Inside a `$batch`, only status faults can be answered (in the batch's own responses). */
  inBatch: boolean;
  /** For a `$batch`, the decoded URLs of the requests it holds. */
  holds?: string[];
}

interface Rule {
  remaining: number;
  failure: InjectedFailure;
}

export class Faults {
  private rules: Rule[] = [];

  /** Adds a rule after those already waiting; a request meets the first rule that matches it. */
  add(count: number, failure: InjectedFailure): void {
    if (count > 0) this.rules.push({ remaining: count, failure: { ...failure } });
  }

  clear(): void {
    this.rules = [];
  }

  get pending(): number {
    return this.rules.reduce((sum, rule) => sum + rule.remaining, 0);
  }

  take(request: Matched): Fault | undefined {
    const rule = this.rules.find((each) => matches(each.failure, request));
    if (!rule) return undefined;
    if (--rule.remaining === 0) this.rules = this.rules.filter((each) => each !== rule);
    return faultOf(rule.failure);
  }
}

function matches(failure: InjectedFailure, request: Matched): boolean {
  const { method, path, only = 'all', holding } = failure.match ?? {};
  if (request.inBatch && (failure.mode ?? 'status') !== 'status') return false;
  if (only === 'login' ? request.kind !== 'login' : request.kind === 'login') return false;
  if (only === 'batch' ? request.kind !== 'batch' : request.kind === 'batch') return false;
  if (only === 'reads' && request.kind !== 'read') return false;
  if (only === 'writes' && request.kind !== 'write') return false;
  if (method !== undefined && method.toUpperCase() !== request.method) return false;
  if (typeof path === 'string' && !request.path.includes(path)) return false;
  if (path instanceof RegExp && !path.test(request.path)) return false;
  if (holding !== undefined) {
    const holds = request.holds ?? [];
    const found = holds.some((url) =>
      typeof holding === 'string' ? url.includes(holding) : holding.test(url),
    );
    if (!found) return false;
  }
  return true;
}

function faultOf(failure: InjectedFailure): Fault {
  const when = failure.when ?? 'before';
  if (failure.mode === 'late') {
    const { applyAfterMs } = failure;
    return {
      when: 'before',
      mode: 'late',
      ...(applyAfterMs === undefined ? {} : { applyAfterMs }),
    };
  }
  if (failure.mode === 'reset' || failure.mode === 'timeout') return { when, mode: failure.mode };
  if (!('status' in failure)) throw new Error('A status fault needs its status');
  const { status, retryAfterSeconds } = failure;
  return {
    when,
    mode: 'status',
    status,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
  };
}

/**
 * What the emulator does to traffic besides answering it: the per-user write quota, faults a test
 * injects, added latency, and the record of every request for tests to inspect.
 */
import { internalError, quotaExceeded, serviceUnavailable, type ApiError } from './errors.ts';

export type RequestKind = 'read' | 'write' | 'token';

export interface QuotaSettings {
  /** Write requests allowed per principal in any window (Google: 60). */
  writesPerWindow: number;
  /** Length of the sliding window in ms (Google: 60,000). */
  windowMs: number;
}

export interface InjectedFailure {
  status: 429 | 500 | 503;
  retryAfterSeconds?: number;
  /** Which API requests fail: writes, reads or both (default). Token requests never do. */
  only?: 'writes' | 'reads' | 'all';
}

export interface RequestRecord {
  at: number;
  method: string;
  path: string;
  kind: RequestKind;
  status: number;
  /** Principal (e-mail) the request ran as, when it had one. */
  principal?: string;
  /** Number of requests inside a spreadsheets.batchUpdate. */
  requestCount?: number;
}

export interface EmulatorStats {
  /** Read requests answered with success. */
  reads: number;
  /** Write requests applied. */
  writes: number;
  /** API requests refused with an error of any kind: quota, injected fault, auth, bad request. */
  rejected: number;
  requests: RequestRecord[];
}

export class Traffic {
  latencyMs = 0;
  quotaRetryAfterSeconds: number | null = null;
  private quotaSettings: QuotaSettings | null = null;
  private readonly writeTimes = new Map<string, number[]>();
  private fault: { remaining: number; failure: InjectedFailure } | undefined;
  private log: RequestRecord[] = [];

  get quota(): QuotaSettings | null {
    return this.quotaSettings;
  }

  /** Setting the quota starts every principal's window afresh. */
  set quota(settings: QuotaSettings | null) {
    this.quotaSettings = settings ? { ...settings } : null;
    this.writeTimes.clear();
  }

  /** Replaces any failure still pending: the next `count` matching requests fail (0 clears it). */
  failNext(count: number, failure: InjectedFailure): void {
    this.fault = count > 0 ? { remaining: count, failure: { ...failure } } : undefined;
  }

  /** The injected failure for this request, if one is due. */
  takeFault(kind: 'read' | 'write'): ApiError | undefined {
    const fault = this.fault;
    const only = fault?.failure.only ?? 'all';
    if (!fault || (only !== 'all' && only !== `${kind}s`)) return undefined;
    if (--fault.remaining === 0) this.fault = undefined;
    const { status, retryAfterSeconds } = fault.failure;
    const headers: Record<string, string> =
      retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
    if (status === 429) return quotaExceeded(kind, 60, retryAfterSeconds);
    return status === 500 ? internalError(headers) : serviceUnavailable(headers);
  }

  /** Counts a write against its principal's quota, or refuses it when the window is full. */
  admitWrite(principal: string, now: number): ApiError | undefined {
    const quota = this.quotaSettings;
    if (!quota) return undefined;
    const recent = (this.writeTimes.get(principal) ?? []).filter((at) => at > now - quota.windowMs);
    if (recent.length >= quota.writesPerWindow) {
      this.writeTimes.set(principal, recent);
      return quotaExceeded('write', quota.writesPerWindow, this.quotaRetryAfterSeconds);
    }
    this.writeTimes.set(principal, [...recent, now]);
    return undefined;
  }

  record(entry: RequestRecord): void {
    const { principal, requestCount, ...always } = entry;
    this.log.push({
      ...always,
      ...(principal === undefined ? {} : { principal }),
      ...(requestCount === undefined ? {} : { requestCount }),
    });
  }

  stats(): EmulatorStats {
    const api = this.log.filter((entry) => entry.kind !== 'token');
    const ok = (entry: RequestRecord): boolean => entry.status < 400;
    return {
      reads: api.filter((entry) => entry.kind === 'read' && ok(entry)).length,
      writes: api.filter((entry) => entry.kind === 'write' && ok(entry)).length,
      rejected: api.filter((entry) => !ok(entry)).length,
      requests: this.log.map((entry) => ({ ...entry })),
    };
  }

  resetStats(): void {
    this.log = [];
  }
}

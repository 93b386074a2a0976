/**
 * What the emulator does to traffic besides answering it: the per-user write quota, faults a test
 * injects, added latency, and the record of every request for tests to inspect.
 */
import { quotaExceeded, type ApiError } from './errors.ts';
import { Faults, type FaultMode, type FaultMoment } from './faults.ts';
import { HeldTraffic } from '../helpers/held-traffic.ts';

export type RequestKind = 'read' | 'write' | 'token';

export interface QuotaSettings {
  /** Write requests allowed per principal in any window (Google: 60). */
  writesPerWindow: number;
  /** Length of the sliding window in ms (Google: 60,000). */
  windowMs: number;
}

export interface RequestRecord {
  /** When the request was received, in ms since the epoch. */
  at: number;
  /** When its answer (or reset) went out; absent while it is held and for held requests. */
  answeredAt?: number;
  method: string;
  path: string;
  kind: RequestKind;
  /** Status of the HTTP answer; 0 when none was given (see `answer`). */
  status: number;
  /** How the client was answered: over HTTP, by a reset socket, or never (held until it closed). */
  answer: 'http' | 'reset' | 'none';
  /** Whether the request ran on the spreadsheet: for a write, whether its change landed. */
  applied: boolean;
  /** The fault injected into this request, if any. */
  fault?: { when: FaultMoment; mode: FaultMode };
  /** Principal (e-mail) the request ran as, when it had one. */
  principal?: string;
  /** Number of requests inside a spreadsheets.batchUpdate. */
  requestCount?: number;
  /** For a `late` request once it ran: the status it would have answered (400: refused whole). */
  lateStatus?: number;
}

export interface EmulatorStats {
  /** Read requests answered with success. */
  reads: number;
  /** Write requests applied, whatever their client was told. */
  writes: number;
  /**
   * API requests that changed nothing and failed: quota, injected fault before applying, auth,
   * bad request.
   */
  rejected: number;
  /** API requests applied whose client never heard of their success: faults after applying. */
  unacknowledged: number;
  requests: RequestRecord[];
}

export class Traffic extends HeldTraffic<RequestKind> {
  latencyMs = 0;
  quotaRetryAfterSeconds: number | null = null;
  private quotaSettings: QuotaSettings | null = null;
  private readonly writeTimes = new Map<string, number[]>();
  readonly faults = new Faults();
  private log: RequestRecord[] = [];
  /** What a test runs when the next request of a kind has arrived, before it is applied. */
  private arrivals: { kind: RequestKind; then: () => void }[] = [];

  beforeNext(kind: RequestKind, then: () => void): void {
    this.arrivals.push({ kind, then });
  }

  /** Called once a request is admitted, just before it runs: the first hook for its kind fires. */
  arriving(kind: RequestKind): void {
    const index = this.arrivals.findIndex((hook) => hook.kind === kind);
    if (index < 0) return;
    const [hook] = this.arrivals.splice(index, 1);
    hook?.then();
  }

  get quota(): QuotaSettings | null {
    return this.quotaSettings;
  }

  /** Setting the quota starts every principal's window afresh. */
  set quota(settings: QuotaSettings | null) {
    this.quotaSettings = settings ? { ...settings } : null;
    this.writeTimes.clear();
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

  /** Keeps a request in the log; the entry returned is the one kept, to note its answer on. */
  record(entry: RequestRecord): RequestRecord {
    const { principal, requestCount, fault, ...always } = entry;
    const kept: RequestRecord = {
      ...always,
      ...(principal === undefined ? {} : { principal }),
      ...(requestCount === undefined ? {} : { requestCount }),
      ...(fault === undefined ? {} : { fault: { ...fault } }),
    };
    this.log.push(kept);
    return kept;
  }

  stats(): EmulatorStats {
    const api = this.log.filter((entry) => entry.kind !== 'token');
    const ok = (entry: RequestRecord): boolean => entry.answer === 'http' && entry.status < 400;
    return {
      reads: api.filter((entry) => entry.kind === 'read' && ok(entry)).length,
      writes: api.filter((entry) => entry.kind === 'write' && entry.applied).length,
      rejected: api.filter((entry) => !entry.applied && !ok(entry)).length,
      unacknowledged: api.filter((entry) => entry.applied && !ok(entry)).length,
      requests: this.log.map((entry) => ({
        ...entry,
        ...(entry.fault ? { fault: { ...entry.fault } } : {}),
      })),
    };
  }

  resetStats(): void {
    this.log = [];
  }
}

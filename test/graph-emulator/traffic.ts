/**
 * What the emulator does to traffic besides answering it: the per-app throttling budget, the log
 * of every request for tests to inspect, requests held by a `late` fault, and hooks a test runs
 * right after a request ran (a person editing between a client's read and its write).
 */
import { tooManyRequests, type GraphError } from './errors.ts';
import { Faults, type FaultMode, type FaultMoment } from './faults.ts';
import { HeldTraffic } from '../helpers/held-traffic.ts';

export interface ThrottleSettings {
  /** Graph requests (each request inside a `$batch` counts) an app may make per window. */
  requestsPerWindow: number;
  windowMs: number;
  /** Retry-After of the 429; by default the seconds until the window has room again. */
  retryAfterSeconds?: number;
}

export interface RequestRecord {
  at: number;
  /** When its answer (or reset) went out; absent while held and for requests never answered. */
  answeredAt?: number;
  method: string;
  /** The decoded path, `/v1.0/drives/…` or `/login/{tenant}/oauth2/v2.0/token`. */
  path: string;
  kind: 'login' | 'read' | 'write' | 'batch';
  /** Status of the HTTP answer; 0 when none was given (see `answer`). */
  status: number;
  answer: 'http' | 'reset' | 'none';
  /** For a write: whether its change landed (in the file or its session's copy). */
  applied: boolean;
  /** The `workbook-session-id` it carried. */
  sessionId?: string;
  /** The app's client id, and the user for a delegated token. */
  clientId?: string;
  user?: string;
  /** The `id` of the request inside its `$batch`. */
  batchRequestId?: string;
  fault?: { when: FaultMoment; mode: FaultMode };
  /** For a `late` request once it ran: the status it would have answered. */
  lateStatus?: number;
}

/** Counts over the log, as the Google emulator's `stats()` gives them. */
export interface TrafficCounts {
  /** Graph reads answered with success. */
  reads: number;
  /** Writes applied, whatever their client was told. */
  writes: number;
  /** Graph requests that changed nothing and failed: throttled, faulted before, refused. */
  rejected: number;
  /** Writes applied whose client never heard of their success: faults after applying, late ones. */
  unacknowledged: number;
}

export class Traffic extends HeldTraffic<'read' | 'write'> {
  latencyMs = 0;
  readonly faults = new Faults();
  private throttleSettings: ThrottleSettings | null = null;
  private readonly times = new Map<string, number[]>();
  private log: RequestRecord[] = [];

  get throttle(): ThrottleSettings | null {
    return this.throttleSettings;
  }

  /** Setting a budget starts every app's window afresh. */
  set throttle(settings: ThrottleSettings | null) {
    this.throttleSettings = settings ? { ...settings } : null;
    this.times.clear();
  }

  /** Counts a request against its app's budget, or answers the 429 when the window is full. */
  admit(clientId: string, now: number): GraphError | undefined {
    const budget = this.throttleSettings;
    if (!budget) return undefined;
    const recent = (this.times.get(clientId) ?? []).filter((at) => at > now - budget.windowMs);
    if (recent.length >= budget.requestsPerWindow) {
      this.times.set(clientId, recent);
      const freeAt = (recent[0] ?? now) + budget.windowMs;
      const seconds = budget.retryAfterSeconds ?? Math.max(1, Math.ceil((freeAt - now) / 1000));
      return tooManyRequests(seconds);
    }
    this.times.set(clientId, [...recent, now]);
    return undefined;
  }

  record(entry: RequestRecord): RequestRecord {
    const kept = Object.fromEntries(
      Object.entries(entry).filter(([, value]) => value !== undefined),
    ) as unknown as RequestRecord;
    this.log.push(kept);
    return kept;
  }

  requests(): RequestRecord[] {
    return this.log.map((entry) => ({ ...entry }));
  }

  counts(): TrafficCounts {
    const graph = this.log.filter((entry) => entry.kind === 'read' || entry.kind === 'write');
    const ok = (entry: RequestRecord) => entry.answer === 'http' && entry.status < 400;
    return {
      reads: graph.filter((entry) => entry.kind === 'read' && ok(entry)).length,
      writes: graph.filter((entry) => entry.kind === 'write' && entry.applied).length,
      rejected: graph.filter((entry) => !entry.applied && !ok(entry)).length,
      unacknowledged: graph.filter((entry) => entry.applied && !ok(entry)).length,
    };
  }

  resetLog(): void {
    this.log = [];
  }
}

/**
 * What the emulator does to traffic besides answering it: the per-app throttling budget, the log
 * of every request for tests to inspect, requests held by a `late` fault, and hooks a test runs
 * right after a request ran (a person editing between a client's read and its write).
 */
import { tooManyRequests, type GraphError } from './errors.ts';
import { Faults, type FaultMode, type FaultMoment } from './faults.ts';

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

export class Traffic {
  latencyMs = 0;
  readonly faults = new Faults();
  private throttleSettings: ThrottleSettings | null = null;
  private readonly times = new Map<string, number[]>();
  private log: RequestRecord[] = [];
  private held: (() => void)[] = [];
  private hooks: { kind: 'read' | 'write'; then: () => void }[] = [];

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

  resetLog(): void {
    this.log = [];
  }

  /** Keeps a held request to run at `applyHeld()`, or by itself after `afterMs`. */
  hold(run: () => void, afterMs: number | undefined): void {
    let done = false;
    const once = () => {
      if (done) return;
      done = true;
      this.held = this.held.filter((each) => each !== once);
      run();
    };
    this.held.push(once);
    if (afterMs !== undefined) setTimeout(once, afterMs).unref();
  }

  applyHeld(): number {
    const held = [...this.held];
    for (const run of held) run();
    return held.length;
  }

  get heldCount(): number {
    return this.held.length;
  }

  afterNext(kind: 'read' | 'write', then: () => void): void {
    this.hooks.push({ kind, then });
  }

  /** A request of `kind` has run (or was refused): the first hook waiting for its kind fires. */
  ran(kind: 'read' | 'write'): void {
    const index = this.hooks.findIndex((hook) => hook.kind === kind);
    if (index < 0) return;
    const [hook] = this.hooks.splice(index, 1);
    hook?.then();
  }
}

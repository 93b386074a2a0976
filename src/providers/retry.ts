import type { UpstreamEvent } from './provider.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Problem } from '../errors/problem.ts';

/** How one failed attempt should be handled. */
export interface Verdict {
  /** Whether trying again may succeed (rate limits, outages), and how soon at the earliest. */
  retry: boolean;
  retryAfterMs?: number;
  /**
   * For a write: whether it may have been applied although it failed (an error after the
   * request was sent, or a lost answer), so that it must not be sent again blind.
   */
  mayHaveApplied?: boolean;
  /**
   * For a write: refused whole as invalid (400). A batch that recreates a tag an earlier attempt
   * created is refused so, which Google does not document: the caller checks the tag.
   */
  refusedWhole?: boolean;
  /** The answer for the client if no more attempts are made. */
  problem: Problem;
}

export interface RetryPolicy {
  baseMs: number;
  maxMs: number;
  /** Stands in for time and randomness in tests. */
  now?: () => number;
  random?: () => number;
  wait?: (ms: number) => Promise<unknown>;
}

export const defaultRetryPolicy: RetryPolicy = { baseMs: 500, maxMs: 32_000 };

/** The longest one request to a provider may take before it is given up on. */
const maxAttemptMs = 20_000;

/**
 * How long one request to a provider may wait for its answer (ms), given the deadline of the
 * whole call (epoch ms): at most a third of the time left, so that a request that hangs still
 * leaves time to learn what became of it, and never under a second.
 */
export function attemptTimeout(deadline: number, now: number = Date.now()): number {
  return Math.max(1000, Math.min(maxAttemptMs, Math.floor((deadline - now) / 3)));
}

/**
 * Spaces the tries of one request: exponential backoff with full jitter, never sooner than a
 * Retry-After asks, and never past `deadline` (epoch ms).
 */
export class Backoff {
  #tries = 0;

  constructor(
    private readonly deadline: number,
    private readonly policy: RetryPolicy = defaultRetryPolicy,
  ) {}

  /** Waits before the next try; throws the verdict's problem, with a Retry-After, if none fits. */
  async wait(verdict: Verdict): Promise<void> {
    const { policy } = this;
    const now = policy.now ?? Date.now;
    const random = policy.random ?? Math.random;
    const exponential = policy.baseMs * 2 ** this.#tries++;
    const delay = Math.max(
      random() * Math.min(policy.maxMs, exponential),
      verdict.retryAfterMs ?? 0,
    );
    if (now() + delay > this.deadline) {
      const seconds = Math.max(1, Math.ceil((verdict.retryAfterMs ?? exponential) / 1000));
      verdict.problem.headers['retry-after'] = String(seconds);
      throw verdict.problem;
    }
    await (policy.wait ?? sleep)(delay);
  }
}

/**
 * Calls `attempt` until it succeeds, retrying what `judge` calls retryable, spaced by a
 * `Backoff` until `deadline`: then the last problem is thrown, with a Retry-After of its own.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  judge: (error: unknown) => Verdict,
  deadline: number,
  policy: RetryPolicy = defaultRetryPolicy,
  /** Called before each try after the first. */
  onRetry: () => void = () => {},
): Promise<T> {
  const backoff = new Backoff(deadline, policy);
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      const verdict = judge(error);
      if (!verdict.retry) throw verdict.problem;
      await backoff.wait(verdict);
      onRetry();
    }
  }
}

/** How a request that failed for good is counted: rate limited, failed, or a lost write answer. */
export function failedOutcome(
  request: 'read' | 'write',
  verdict: Verdict,
): 'rate_limited' | 'failed' | 'ambiguous' {
  if (verdict.problem.code === 'provider-rate-limited') return 'rate_limited';
  return request === 'write' && verdict.mayHaveApplied === true ? 'ambiguous' : 'failed';
}

/**
 * A read retried as `withRetries` does, each try and its end told to `onUpstream` (metrics):
 * the one way both providers read.
 */
export function countedRead<T>(
  attempt: () => Promise<T>,
  judge: (error: unknown) => Verdict,
  deadline: number,
  policy: RetryPolicy,
  onUpstream: ((event: UpstreamEvent) => void) | undefined,
): Promise<T> {
  return withRetries(
    async () => {
      const answer = await attempt();
      onUpstream?.({ request: 'read', retry: false, outcome: 'ok' });
      return answer;
    },
    (error) => {
      const verdict = judge(error);
      onUpstream?.({ request: 'read', retry: false, outcome: failedOutcome('read', verdict) });
      return verdict;
    },
    deadline,
    policy,
    () => onUpstream?.({ request: 'read', retry: true }),
  );
}

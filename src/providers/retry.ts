import { setTimeout as sleep } from 'node:timers/promises';
import type { Problem } from '../errors/problem.ts';

/** How one failed attempt should be handled. */
export interface Verdict {
  /** Whether trying again may succeed (rate limits, outages), and how soon at the earliest. */
  retry: boolean;
  retryAfterMs?: number;
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

/**
 * Calls `attempt` until it succeeds, retrying what `judge` calls retryable with exponential
 * backoff and full jitter, never sooner than a Retry-After asks, and never past `deadline`
 * (epoch ms): then the last problem is thrown, with a Retry-After of its own.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  judge: (error: unknown) => Verdict,
  deadline: number,
  policy: RetryPolicy = defaultRetryPolicy,
): Promise<T> {
  const now = policy.now ?? Date.now;
  const random = policy.random ?? Math.random;
  const wait = policy.wait ?? sleep;
  for (let tries = 0; ; tries++) {
    try {
      return await attempt();
    } catch (error) {
      const verdict = judge(error);
      if (!verdict.retry) throw verdict.problem;
      const backoff = random() * Math.min(policy.maxMs, policy.baseMs * 2 ** tries);
      const delay = Math.max(backoff, verdict.retryAfterMs ?? 0);
      if (now() + delay > deadline) {
        const seconds = Math.max(
          1,
          Math.ceil((verdict.retryAfterMs ?? policy.baseMs * 2 ** tries) / 1000),
        );
        verdict.problem.headers['retry-after'] = String(seconds);
        throw verdict.problem;
      }
      await wait(delay);
    }
  }
}

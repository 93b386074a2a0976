import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import type { SheetStore } from '../store/store.ts';

export interface RateLimitOptions {
  /** Requests per minute from one client address; 0 turns the limit off. */
  perAddress: number;
  /** Requests per minute with one API key; 0 turns the limit off. */
  perKey: number;
}

const windowMs = 60_000;
/** The key a request was authenticated with, for the per-key limit to count by. */
const keyIds = new WeakMap<FastifyRequest, string>();

function tooMany(after: string | number): Problem {
  return new Problem('rate-limited', `Too many requests; try again in ${after} seconds.`);
}

/**
 * Limits requests per client address for the whole server, and returns a check for requests
 * per API key to run once a key is known. Counts live in the store when it is shared by several
 * servers (PostgreSQL), so that the limits hold across them; otherwise in memory.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  store: SheetStore,
  options: RateLimitOptions,
): Promise<(request: FastifyRequest, keyId: string) => Promise<void>> {
  const countHit = store.countHit?.bind(store);
  const shared =
    countHit === undefined
      ? {}
      : {
          store: class SharedCounter {
            incr(
              key: string,
              callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
              timeWindow: number,
            ): void {
              countHit(key, timeWindow).then(
                ({ count, resetInMs }) => callback(null, { current: count, ttl: resetInMs }),
                (error: Error) => callback(error),
              );
            }
            child(): SharedCounter {
              return this;
            }
          },
        };
  await app.register(rateLimit, {
    global: options.perAddress > 0,
    max: options.perAddress,
    timeWindow: windowMs,
    hook: 'onRequest',
    keyGenerator: (request) => `address:${request.ip}`,
    enableDraftSpec: true,
    skipOnError: true,
    ...shared,
    errorResponseBuilder: (_request, context) => tooMany(Math.ceil(context.ttl / 1000)),
  });
  if (options.perKey === 0) return async () => undefined;
  const limit = app.createRateLimit({
    max: options.perKey,
    timeWindow: windowMs,
    keyGenerator: (request) =>
      `key:${(request as FastifyRequest & { keyId?: string }).keyId ?? ''}`,
    ...shared,
  });
  return async (request, keyId) => {
    keyIds.set(request, keyId);
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      const problem = tooMany(result.ttlInSeconds);
      problem.headers['retry-after'] = String(result.ttlInSeconds);
      problem.headers['ratelimit-limit'] = String(result.max);
      problem.headers['ratelimit-remaining'] = '0';
      problem.headers['ratelimit-reset'] = String(result.ttlInSeconds);
      throw problem;
    }
  };
}

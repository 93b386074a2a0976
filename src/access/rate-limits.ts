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
/** The RateLimit headers of the key's budget, for requests the key limit let through. */
const keyBudgets = new WeakMap<FastifyRequest, Record<string, string>>();

/** Counts a request against the budget of the API key it carries; throws 429 past it. */
export type KeyLimit = (request: FastifyRequest, keyId: string) => Promise<void>;

function tooMany(seconds: number, headers: Record<string, string> = {}): Problem {
  return new Problem(
    'rate-limited',
    `Too many requests; try again in ${seconds} seconds.`,
    {},
    headers,
  );
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
): Promise<KeyLimit> {
  const countHit = store.database.countHit?.bind(store.database);
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
    global: false,
    timeWindow: windowMs,
    enableDraftSpec: true,
    skipOnError: true,
    ...shared,
    errorResponseBuilder: (_request, context) => tooMany(Math.ceil(context.ttl / 1000)),
  });
  if (options.perAddress > 0) {
    // A hook of the whole app, not of each route: it runs before the management API's and the
    // row API's own hooks, which check credentials, so that a request refused for a wrong token
    // counts too, and guessing meets 429 like any other flood. Health probes are never limited.
    const perAddress = app.rateLimit({
      max: options.perAddress,
      keyGenerator: (request) => `address:${request.ip}`,
    });
    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.rateLimit === false) return;
      await perAddress.call(app, request, reply);
    });
  }
  if (options.perKey === 0) return async () => undefined;
  // An answer has room for one set of RateLimit headers: those of the limit nearer to running
  // out. The address limit has set its own by the time the key is known, so the choice is made
  // as the answer leaves.
  app.addHook('onSend', async (request, reply) => {
    const budget = keyBudgets.get(request);
    if (budget === undefined) return;
    const addressRemaining = reply.getHeader('ratelimit-remaining');
    if (
      addressRemaining === undefined ||
      Number(budget['ratelimit-remaining']) <= Number(addressRemaining)
    ) {
      void reply.headers(budget);
    }
  });
  // Each key has a bucket of its own, so that one key spending its budget leaves others alone.
  const limit = app.createRateLimit({
    max: options.perKey,
    timeWindow: windowMs,
    keyGenerator: (request) => `key:${keyIds.get(request) ?? ''}`,
    ...shared,
  });
  return async (request, keyId) => {
    keyIds.set(request, keyId);
    const result = await limit(request);
    if (result.isAllowed) return;
    const budget = {
      'ratelimit-limit': String(result.max),
      'ratelimit-remaining': String(result.isExceeded ? 0 : result.remaining),
      'ratelimit-reset': String(result.ttlInSeconds),
    };
    if (result.isExceeded) {
      throw tooMany(result.ttlInSeconds, { 'retry-after': budget['ratelimit-reset'], ...budget });
    }
    keyBudgets.set(request, budget);
  };
}

import type { FastifyInstance } from 'fastify';
import { Problem } from '../errors/problem.ts';
import { sendProblem } from './error-handler.ts';

export interface HealthDeps {
  /** Resolves when the store answers (and its migrations are done); throws otherwise. */
  readiness?: (() => Promise<void>) | undefined;
  /** Aborted when the server starts shutting down: from then on it is not ready. */
  shutdown?: AbortSignal | undefined;
}

/** Longer than this, a store that has not answered counts as not answering. */
const probeTimeoutMs = 2000;

/** Outside the row and management APIs: no key, no rate limit, no line in the log unless wrong. */
const operational = {
  logLevel: 'warn',
  config: { rateLimit: false },
  schema: { hide: true },
} as const;

/**
 * `/healthz` answers while the process runs; `/readyz` while it can serve, for load balancers
 * to send requests only where they can be answered. Once the app closes, every other request
 * is refused with 503 (Fastify's own 503 is not a problem document, so it is off).
 */
export function registerHealthRoutes(app: FastifyInstance, deps: HealthDeps): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!closing || request.routeOptions.url === '/healthz') return;
    const problem = new Problem('not-ready', 'The server is shutting down; send it again.');
    return sendProblem(request, reply, problem);
  });

  app.get('/healthz', operational, async () => ({ status: 'ok' }));

  app.get('/readyz', operational, async (request, reply) => {
    if (closing || deps.shutdown?.aborted === true) {
      return sendProblem(request, reply, new Problem('not-ready', 'The server is shutting down.'));
    }
    try {
      await withTimeout(deps.readiness?.() ?? Promise.resolve(), probeTimeoutMs);
    } catch (error) {
      request.log.warn({ reqId: request.id, err: error }, 'not ready: the store does not answer');
      return sendProblem(
        request,
        reply,
        new Problem('not-ready', "The store does not answer; the server's log says why."),
      );
    }
    return { status: 'ready' };
  });
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

import type { FastifyInstance, RouteHandlerMethod } from 'fastify';
import { routeNotFound } from './error-handler.ts';

/** Request headers a file server reads: conditional and partial requests. */
const passedOn = [
  'if-none-match',
  'if-modified-since',
  'if-match',
  'if-unmodified-since',
  'range',
  'if-range',
];

/** Answer headers that belong to the inner hop, not to the client's connection. */
const hopByHop = new Set([
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'date',
]);

/**
 * A handler that answers from a small app of its own, built at its first request: for pages
 * whose plugins cost every start more than they are used (Swagger UI, the console's files). The
 * inner app gets the request's URL and conditional headers, and its answer is sent as it is,
 * but for a 404, which is this server's own (a problem document, route-not-found). A build that fails is tried
 * again at the next request. The inner app closes with `owner`.
 */
export function servedOnFirstUse(
  owner: FastifyInstance,
  build: () => Promise<FastifyInstance>,
): RouteHandlerMethod {
  let inner: Promise<FastifyInstance> | undefined;
  owner.addHook('onClose', async () => {
    await (await inner?.catch(() => undefined))?.close();
  });
  return async (request, reply) => {
    inner ??= build().catch((error: unknown) => {
      inner = undefined;
      throw error;
    });
    const headers: Record<string, string> = {};
    for (const name of passedOn) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await (await inner).inject({ method: 'GET', url: request.url, headers });
    if (answer.statusCode === 404)
      throw routeNotFound(request.method, request.url.split('?')[0] ?? '');
    for (const [name, value] of Object.entries(answer.headers)) {
      if (value !== undefined && !hopByHop.has(name)) void reply.header(name, value);
    }
    return reply.code(answer.statusCode).send(answer.rawPayload);
  };
}

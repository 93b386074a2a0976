import type { FastifyReply } from 'fastify';

/**
 * Aborts once the client's connection closed before its answer was sent. The response's `close`
 * is the event to watch: the request's fires as soon as its body has been read.
 */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  if (reply.raw.destroyed && !reply.raw.writableFinished) controller.abort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

import type { FastifyReply } from 'fastify';
import type { ClientGone } from '../sheets/write-queue.ts';

/**
 * Asked of the connection when the write queue needs to know, rather than watched with an
 * `AbortController` and a `close` listener on every write (a few microseconds each, for an
 * answer nearly always no). Once the answer is sent, the client leaving no longer matters.
 */
export function clientGoneSignal(reply: FastifyReply): ClientGone {
  const response = reply.raw;
  const socket = reply.request.raw.socket;
  return {
    get aborted() {
      return !response.writableFinished && (response.destroyed || socket.destroyed);
    },
  };
}

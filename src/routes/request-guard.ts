import type { FastifyInstance } from 'fastify';
import { Problem } from '../errors/problem.ts';

/** Origin form (`/path`) or absolute form (`http://host/path`), RFC 9112 section 3.2. */
const requestTarget = /^(\/|https?:\/\/)/i;
/** No sheet or key id holds a control character, and PostgreSQL cannot even compare NUL. */
const controlCharacter = /\p{Cc}/u;

/** Methods whose requests are read the same without a body as with an empty one. */
const bodyless = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);

/** Whether a request says a body follows: a length over zero, or a chunked one. */
function carriesBody(headers: Record<string, string | string[] | undefined>): boolean {
  const length = headers['content-length'];
  if (headers['transfer-encoding'] !== undefined) return true;
  return length !== undefined && length !== '0';
}

/**
 * Refuses, before anything else runs, what Node and the router let through but no endpoint
 * can answer: a request target that is not a path (`GET *` would otherwise match `/`), an
 * HTTP/1.1 request without Host (Node's own check answers without a body, so it is off), and
 * a path segment that decodes to a control character.
 */
export function registerRequestGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    const { raw } = request;
    if (!requestTarget.test(raw.url ?? '')) {
      throw new Problem(
        'invalid-url',
        'The request target must be a path starting with "/" (or an absolute http URL).',
      );
    }
    if (raw.httpVersion === '1.1' && raw.headers.host === undefined) {
      throw new Problem('malformed-request', 'An HTTP/1.1 request must carry a Host header.');
    }
    // Client wrappers send `Content-Type: application/json` on every request: a GET or DELETE
    // that carries no body is answered as if the header were not there.
    if (bodyless.has(request.method) && !carriesBody(raw.headers)) {
      delete request.headers['content-type'];
    }
    const params = Object.values((request.params ?? {}) as Record<string, unknown>);
    if (params.some((value) => typeof value === 'string' && controlCharacter.test(value))) {
      throw new Problem(
        'invalid-url',
        'The request path decodes to a control character (such as %00), which no id holds.',
      );
    }
  });
}

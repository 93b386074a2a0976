import type { FastifyRequest } from 'fastify';

/** The credential a request carries: `Authorization: Bearer <token>` or `X-Api-Key: <key>`. */
export function credentialOf(request: FastifyRequest): string | null {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return bearer?.[1] ?? authorization;
  }
  const key = request.headers['x-api-key'];
  return typeof key === 'string' && key !== '' ? key : null;
}

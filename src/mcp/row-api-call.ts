import type { FastifyInstance } from 'fastify';

/** Who an MCP request came from, as sent: its credential and where it came from. */
export interface Agent {
  /** The `Authorization` or `X-Api-Key` header as the agent sent it, if any. */
  authorization: { name: 'authorization' | 'x-api-key'; value: string } | null;
  /** The client address, so that per-address limits count the agent and not the server. */
  address: string;
  /** The `Host` the agent reached, so that host checks see what the agent sent. */
  host: string;
}

/** A request to the row or management API, made on an agent's behalf. */
export interface ApiCall {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path and query string, already encoded. */
  url: string;
  body?: unknown;
  idempotencyKey?: string;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  /** The parsed JSON body; a problem document when `status` is 400 or above. */
  body: unknown;
}

/**
 * Runs a request through the app's own routes, with the agent's credential and address: every
 * tool is then exactly a row API request, with its access checks, scopes, limits, idempotency,
 * DELETE switch and problem documents, and nothing of them is written twice.
 */
export async function callApi(
  app: FastifyInstance,
  agent: Agent,
  call: ApiCall,
): Promise<ApiAnswer> {
  const headers: Record<string, string> = { host: agent.host, accept: 'application/json' };
  if (agent.authorization !== null) headers[agent.authorization.name] = agent.authorization.value;
  if (call.idempotencyKey !== undefined)
    headers['idempotency-key'] = JSON.stringify(call.idempotencyKey);
  if (call.body !== undefined) headers['content-type'] = 'application/json';
  const answer = await app.inject({
    method: call.method,
    url: call.url,
    headers,
    remoteAddress: agent.address,
    ...(call.body === undefined ? {} : { payload: canonicalJson(call.body) }),
  });
  let body: unknown = null;
  if (answer.body !== '') {
    try {
      body = JSON.parse(answer.body) as unknown;
    } catch {
      body = answer.body;
    }
  }
  return { status: answer.statusCode, headers: answer.headers, body };
}

/**
 * JSON with object keys sorted: the same arguments, however an agent ordered them, make the same
 * body, so that a call retried with its `idempotency_key` is the same request.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

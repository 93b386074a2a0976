import { mayRetry, newIdempotencyKey, retryDelaysMs } from '../lib/idempotency-key.ts';
import { ApiProblem, problemOf, unreachable } from './problem.ts';
import { adminToken, signInNeeded } from './session.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Headers every request carries: the administrator token, when one is in use. */
export function authHeaders(token = adminToken()): Record<string, string> {
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

/** How a request is sent: its JSON body, a token other than the session's, more headers. */
export interface RequestOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
}

/**
 * One request to this server's public API. Answers 2xx with the response (its body not yet
 * read); throws an ApiProblem holding the answer's problem document otherwise. A row write
 * carries a fresh Idempotency-Key, and is sent again with the same key (and body) when it got
 * no answer or a 503: if the first one did apply, the retry is answered with its answer.
 */
export async function send(
  method: Method,
  path: string,
  { body, token, headers: more = {} }: RequestOptions = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...authHeaders(token),
    ...more,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const retries = method !== 'GET' && path.startsWith('/api/') ? retryDelaysMs : [];
  if (retries.length > 0) headers['idempotency-key'] ??= newIdempotencyKey();
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  const response = await fetchWithRetries(path, init, retries);
  if (!response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const problem = problemOf(response.status, response.statusText, type, await response.text());
    if (response.status === 401 && path.startsWith('/admin/') && token === undefined) {
      signInNeeded();
    }
    throw problem;
  }
  return response;
}

/** Sends a request, and again after each delay while it gets no answer or a 503. */
async function fetchWithRetries(
  path: string,
  init: RequestInit,
  delays: readonly number[],
): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    let response: Response | null = null;
    try {
      response = await fetch(path, init);
    } catch (error) {
      if (attempt >= delays.length) throw unreachable(error);
    }
    if (response !== null && (attempt >= delays.length || !mayRetry(response.status))) {
      return response;
    }
    await new Promise((resolve) => setTimeout(resolve, delays[attempt]));
  }
}

/** A JSON request: answers the parsed body (undefined for an empty one). */
export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  token?: string | null,
): Promise<T> {
  const text = await (await send(method, path, { body, token })).text();
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export { ApiProblem };

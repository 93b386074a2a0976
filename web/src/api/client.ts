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
 * read); throws an ApiProblem holding the answer's problem document otherwise.
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
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw unreachable(error);
  }
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

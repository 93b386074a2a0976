import { ApiProblem, problemOf, unreachable } from './problem.ts';
import { adminToken, signInNeeded } from './session.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Headers every request carries: the administrator token, when one is in use. */
export function authHeaders(token = adminToken()): Record<string, string> {
  return token === null ? {} : { authorization: `Bearer ${token}` };
}

/**
 * One JSON request to this server's public API. Answers 2xx with the parsed body (undefined for
 * 204); throws an ApiProblem holding the answer's problem document otherwise.
 */
export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  token?: string | null,
): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(token) };
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
  const text = await response.text();
  if (!response.ok) {
    const type = response.headers.get('content-type') ?? '';
    const problem = problemOf(response.status, response.statusText, type, text);
    if (response.status === 401 && path.startsWith('/admin/') && token === undefined) {
      signInNeeded();
    }
    throw problem;
  }
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

export { ApiProblem };

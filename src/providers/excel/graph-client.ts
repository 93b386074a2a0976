import type { GraphTokens } from './graph-tokens.ts';

/** A Graph request that failed: its status and Graph's error code, or no status if unanswered. */
export class GraphFailure extends Error {
  override name = 'GraphFailure';
  constructor(
    message: string,
    readonly status: number | undefined,
    readonly code: string | undefined,
    readonly retryAfterMs: number | undefined,
    /** Refused before it reached Graph (connection refused, name not resolved): not applied. */
    readonly neverSent = false,
    /** The codes of the error's nested `innerError` objects, outermost first. */
    readonly innerCodes: string[] = [],
  ) {
    super(message);
  }
}

export interface CallOptions {
  body?: unknown;
  /** The workbook session the request belongs to (`workbook-session-id`). */
  session?: string;
  /** How long to wait for the answer; a request that times out may still be applied. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Microsoft Graph over plain fetch: a bearer token from `tokens` on every request, JSON in and
 * out, and failures as GraphFailure. A 401 drops the token and the request is sent once more
 * with a new one (tokens expire early when revoked); retries of anything else are the caller's.
 */
export class GraphClient {
  constructor(
    private readonly graphUrl: string,
    private readonly tokens: GraphTokens,
  ) {}

  async call(method: string, path: string, options: CallOptions = {}): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.tokens.token(options.signal);
      const response = await this.#send(method, path, token, options);
      if (response.status === 401 && attempt === 0) {
        this.tokens.refused();
        continue;
      }
      const text = await response.text();
      const body: unknown = text === '' ? null : parse(text);
      if (response.ok) return body;
      const error = (body as { error?: GraphErrorBody } | null)?.error;
      throw new GraphFailure(
        error?.message ?? `status ${response.status}`,
        response.status,
        error?.code,
        retryAfter(response.headers.get('retry-after')),
        false,
        innerCodes(error),
      );
    }
  }

  async #send(method: string, path: string, token: string, options: CallOptions) {
    const signals = [
      ...(options.signal === undefined ? [] : [options.signal]),
      ...(options.timeoutMs === undefined ? [] : [AbortSignal.timeout(options.timeoutMs)]),
    ];
    try {
      return await fetch(`${this.graphUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(options.session === undefined ? {} : { 'workbook-session-id': options.session }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
        ...(signals.length === 0 ? {} : { signal: AbortSignal.any(signals) }),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      const neverSent = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String(cause));
      throw new GraphFailure(
        `${(error as Error).message}${cause === undefined ? '' : ` (${cause})`}`,
        undefined,
        undefined,
        undefined,
        neverSent,
      );
    }
  }
}

/** Graph's error object: a code, and more specific codes in nested `innerError` objects. */
export interface GraphErrorBody {
  code?: string;
  message?: string;
  innerError?: GraphErrorBody;
  innererror?: GraphErrorBody;
}

/** The codes of the nested `innerError` objects (Excel's second-level codes first). */
export function innerCodes(error: GraphErrorBody | undefined): string[] {
  const codes: string[] = [];
  let inner = error?.innerError ?? error?.innererror;
  for (let depth = 0; inner !== undefined && depth < 8; depth++) {
    if (typeof inner.code === 'string') codes.push(inner.code);
    inner = inner.innerError ?? inner.innererror;
  }
  return codes;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return { error: { message: text.slice(0, 200) } };
  }
}

/** Retry-After in milliseconds, from seconds or an HTTP date. */
export function retryAfter(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

import { Problem } from '../../errors/problem.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';

/**
 * Access tokens for Microsoft Graph. Every Graph call asks `token()`; a call answered 401 tells
 * `refused()`, so that the next `token()` fetches a new one instead of the cached one.
 */
export interface GraphTokens {
  /** A bearer token for Graph; throws a Problem naming what was wrong when none can be had. */
  token(signal?: AbortSignal): Promise<string>;
  /** Graph answered 401 to the last token: drop it. */
  refused(): void;
}

/** The app-only scope: the application permissions an administrator consented to. */
export const graphDefaultScope = 'https://graph.microsoft.com/.default';
/** A token is renewed this long before Microsoft says it expires (clocks drift, calls take time). */
const renewBeforeMs = 5 * 60_000;

/** What the identity platform answers at its token endpoint, success or failure. */
export interface TokenAnswer {
  access_token?: string;
  expires_in?: number | string;
  refresh_token?: string;
  error?: string;
  error_description?: string;
  error_codes?: number[];
}

/**
 * Tokens of the OAuth client-credentials grant: Sheetport as the application registered in
 * Microsoft Entra, with a client secret. A plain form POST rather than @azure/msal-node: MSAL
 * refuses authorities that are not https, which would force TLS on the test emulator, and this
 * grant is one request with nothing for a library to add.
 */
export function clientCredentialTokens(
  settings: Pick<MicrosoftSettings, 'tenantId' | 'clientId' | 'clientSecret' | 'loginUrl'>,
  now: () => number = Date.now,
): GraphTokens {
  const { tenantId, clientId, clientSecret } = settings;
  if (tenantId === undefined || clientId === undefined || clientSecret === undefined) {
    throw new Problem(
      'provider-not-configured',
      'Microsoft Graph access needs SHEETPORT_MICROSOFT_TENANT_ID, SHEETPORT_MICROSOFT_CLIENT_ID and SHEETPORT_MICROSOFT_CLIENT_SECRET.',
    );
  }
  const form = {
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
    scope: graphDefaultScope,
  };
  return cachedTokens(() => requestToken(settings.loginUrl, tenantId, form), now);
}

/**
 * Caches one token until shortly before it expires; concurrent callers share one request.
 * `refused()` drops the token at once, and a request in flight then is not used: its caller,
 * and anyone waiting with it, asks again (it may have been made for a sign-in just replaced).
 */
export function cachedTokens(
  fetchToken: (signal?: AbortSignal) => Promise<{ token: string; expiresInMs: number }>,
  now: () => number = Date.now,
): GraphTokens {
  let cached: { token: string; renewAt: number } | null = null;
  let pending: Promise<string> | null = null;
  /** One more at each drop: a token fetched before it is not kept nor handed out. */
  let generation = 0;
  const fetchFor = (asked: number, signal?: AbortSignal) => {
    const request = fetchToken(signal)
      .then(({ token, expiresInMs }) => {
        // A short-lived token is still used for half its life rather than not at all.
        const margin = Math.min(renewBeforeMs, expiresInMs / 2);
        if (asked === generation) cached = { token, renewAt: now() + expiresInMs - margin };
        return token;
      })
      .finally(() => {
        if (pending === request) pending = null;
      });
    return request;
  };
  return {
    async token(signal) {
      for (;;) {
        const asked = generation;
        if (cached !== null && now() < cached.renewAt) return cached.token;
        pending ??= fetchFor(asked, signal);
        const token = await pending;
        if (asked === generation) return token;
      }
    },
    refused() {
      generation += 1;
      cached = null;
      pending = null;
    },
  };
}

/** Form POST to the identity platform; the answer's status and JSON, whatever they are. */
export async function postForm(
  url: string,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ status: number; answer: TokenAnswer }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new Problem(
      'upstream-unavailable',
      `The Microsoft identity platform could not be reached (${(error as Error).message}).`,
      {},
      { 'retry-after': '1' },
    );
  }
  const answer = (await response.json().catch(() => ({}))) as TokenAnswer;
  return { status: response.status, answer };
}

/** One POST to `{login}{tenant}/oauth2/v2.0/token`; a refusal becomes a Problem naming why. */
export async function requestToken(
  loginUrl: string,
  tenantId: string,
  form: Record<string, string>,
  signal?: AbortSignal,
): Promise<{ token: string; expiresInMs: number; answer: TokenAnswer }> {
  const url = `${loginUrl}${encodeURIComponent(tenantId)}/oauth2/v2.0/token`;
  const { status, answer } = await postForm(url, form, signal);
  if (status >= 200 && status < 300 && typeof answer.access_token === 'string') {
    const seconds = Number(answer.expires_in ?? 3600);
    return {
      token: answer.access_token,
      expiresInMs: (Number.isFinite(seconds) ? seconds : 3600) * 1000,
      answer,
    };
  }
  throw tokenRefusal(status, answer, tenantId);
}

/**
 * Names what was wrong from the identity platform's AADSTS codes: an unknown tenant (90002), an
 * unknown application (700016), a wrong or expired secret (7000215, 7000222).
 */
export function tokenRefusal(status: number, answer: TokenAnswer, tenantId: string): Problem {
  const codes = answer.error_codes ?? [];
  const text = answer.error_description ?? answer.error ?? `status ${status}`;
  const has = (code: number) => codes.includes(code) || text.includes(`AADSTS${code}`);
  const firstLine = text.split(/\r?\n/)[0] ?? text;
  if (status >= 500 || status === 429) {
    return new Problem(
      'upstream-unavailable',
      `The Microsoft identity platform failed (${status}: ${firstLine}).`,
      {},
      { 'retry-after': '1' },
    );
  }
  let what = 'check the tenant id, client id and client secret';
  if (has(90002) || /tenant/i.test(firstLine)) {
    what = `tenant "${tenantId}" is unknown: check SHEETPORT_MICROSOFT_TENANT_ID`;
  } else if (has(700016) || answer.error === 'unauthorized_client') {
    what =
      'the application (client id) is not known in the tenant: check SHEETPORT_MICROSOFT_CLIENT_ID';
  } else if (has(7000215) || has(7000222) || answer.error === 'invalid_client') {
    what = 'the client secret is wrong or expired: check SHEETPORT_MICROSOFT_CLIENT_SECRET';
  }
  return new Problem(
    'provider-credentials-rejected',
    `Microsoft refused Sheetport's credentials: ${what} (${firstLine}).`,
    { provider: 'excel' },
  );
}

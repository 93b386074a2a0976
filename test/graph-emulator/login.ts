/** The identity platform's endpoints: `{tenant}/oauth2/v2.0/token` and `…/devicecode`. */
import { OAuthError } from './errors.ts';
import type { ServerDeps } from './graph-request.ts';
import { faulted, safeDecode, type Outcome } from './outcome.ts';

const LOGIN = /^\/login\/([^/]+)\/oauth2\/v2\.0\/(token|devicecode)$/;

export function login(
  deps: ServerDeps,
  pathname: string,
  method: string,
  text: string,
  at: number,
): Outcome {
  const record = { kind: 'login' as const };
  const path = safeDecode(pathname);
  const fault = deps.traffic.faults.take({ method, path, kind: 'login', inBatch: false });
  if (fault?.when === 'before' && fault.mode !== 'late')
    return faulted(fault, { applied: false, record });
  const found = LOGIN.exec(pathname);
  let ran: Outcome;
  if (!found || method !== 'POST') {
    ran = { status: 404, body: { error: 'not_found' }, answer: 'http', applied: false, record };
  } else {
    try {
      const form = new URLSearchParams(text);
      const tenant = safeDecode(found[1] ?? '');
      const body =
        found[2] === 'token'
          ? deps.identity.token(tenant, form, at)
          : deps.identity.deviceAuthorization(tenant, form, at);
      ran = { status: 200, body, answer: 'http', applied: true, record };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      ran = { status: error.status, body: error.body(), answer: 'http', applied: false, record };
    }
  }
  return fault && fault.mode !== 'late' ? faulted(fault, ran) : ran;
}

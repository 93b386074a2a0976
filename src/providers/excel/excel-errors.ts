import { Problem } from '../../errors/problem.ts';
import type { Verdict } from '../retry.ts';
import { GraphFailure } from './graph-client.ts';

/** What a failed call was about: the workbook in words, and what a 404 means for it. */
export interface CallContext {
  what: string;
  notFound: () => Problem;
}

/**
 * Reads a failed Graph call: 429, 5xx and an unanswered request are worth another try (a 5xx
 * or an unanswered write may have been applied), anything else is final.
 */
export function judgeGraphError(error: unknown, context: CallContext): Verdict {
  if (error instanceof Problem) {
    // From the token endpoint: unreachable is worth another try; refused credentials are not.
    return { retry: error.code === 'upstream-unavailable', problem: error };
  }
  if (!(error instanceof GraphFailure)) throw error;
  const { status, retryAfterMs } = error;
  const after = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === undefined) {
    return {
      retry: true,
      mayHaveApplied: !error.neverSent,
      problem: new Problem(
        'upstream-unavailable',
        `Microsoft Graph could not be reached (${error.message}).`,
      ),
    };
  }
  if (status === 429) {
    return {
      retry: true,
      ...after,
      problem: new Problem(
        'provider-rate-limited',
        `Microsoft Graph refused the change to ${context.what} for now (throttled: ${error.message}); nothing was changed. Try again after the Retry-After delay.`,
      ),
    };
  }
  if (status >= 500) {
    return {
      retry: true,
      mayHaveApplied: true,
      ...after,
      problem: new Problem(
        'upstream-unavailable',
        `Microsoft Graph failed (${status}: ${error.message}); nothing was changed. Try again after the Retry-After delay.`,
      ),
    };
  }
  return { retry: false, problem: finalProblem(error, status, context) };
}

function finalProblem(error: GraphFailure, status: number, context: CallContext): Problem {
  if (status === 401) {
    return new Problem(
      'provider-credentials-rejected',
      `Microsoft Graph rejected Sheetport's token (${error.message}); check SHEETPORT_MICROSOFT_TENANT_ID, SHEETPORT_MICROSOFT_CLIENT_ID and SHEETPORT_MICROSOFT_CLIENT_SECRET.`,
    );
  }
  if (status === 403) {
    return new Problem(
      'spreadsheet-forbidden',
      `Sheetport may not open ${context.what} (${error.message}): grant its application Files.ReadWrite.All, or Sites.Selected with write access to the workbook's site, with admin consent; where the tenant refuses application access to workbooks, sign in as a user (see the README).`,
    );
  }
  if (status === 404) return context.notFound();
  return new Problem(
    'provider-error',
    `Microsoft Graph refused the request on ${context.what} (${status} ${error.code ?? ''}: ${error.message}).`,
  );
}

/**
 * The codes by which Graph says a workbook session is closed, expired or otherwise unusable, at
 * the top level (`InvalidSessionId`, as Graph answers today) or as the second-level code Microsoft
 * asks clients to read first (its published list of Excel error codes: every
 * `invalidSession…` code). Codes compare without case, as Microsoft documents them.
 */
const sessionGoneCodes = new Set(
  [
    'InvalidSessionId',
    'SessionNotFound',
    'invalidSessionReCreatable',
    'invalidSessionAuthentication',
    'invalidSessionRestricted',
    'invalidSessionNotFound',
    'invalidSessionAccessConflict',
    'invalidSessionUnexpected',
    'invalidSessionUnsupportedWorkbook',
  ].map((code) => code.toLowerCase()),
);

/**
 * Graph's refusal of a request because its workbook session is gone (closed, expired, or made
 * unusable): the request was not applied, and nothing of that session can be any more. Any 4xx
 * carrying one of the session codes at either level counts: Microsoft pairs them with 404, 401,
 * 403 or 409 depending on the cause.
 */
export function sessionGone(error: unknown): boolean {
  if (!(error instanceof GraphFailure) || error.status === undefined) return false;
  if (error.status < 400 || error.status >= 500) return false;
  return [error.code, ...error.innerCodes].some(
    (code) => code !== undefined && sessionGoneCodes.has(code.toLowerCase()),
  );
}

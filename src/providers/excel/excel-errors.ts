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
      `Sheetport's application may not open ${context.what} (${error.message}): grant it Files.ReadWrite.All, or Sites.Selected with write access to the workbook's site, with admin consent (see the README).`,
    );
  }
  if (status === 404) return context.notFound();
  return new Problem(
    'provider-error',
    `Microsoft Graph refused the request on ${context.what} (${status} ${error.code ?? ''}: ${error.message}).`,
  );
}

/** Graph's answer to a request of a closed or expired workbook session: it was not applied. */
export function sessionGone(error: unknown): boolean {
  return error instanceof GraphFailure && error.status === 404 && error.code === 'InvalidSessionId';
}

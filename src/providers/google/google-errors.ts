import { Problem } from '../../errors/problem.ts';
import type { GoogleSource } from './google-source.ts';
import type { Verdict } from '../retry.ts';

/** The parts of an HTTP client error that matter here (gaxios' GaxiosError has them all). */
interface HttpError {
  status?: number;
  code?: string | number;
  message?: string;
  response?: { status?: number; data?: unknown; headers?: unknown };
}

interface GoogleErrorBody {
  error?: { code?: number; message?: string; status?: string } | string;
  error_description?: string;
}

/**
 * Reads a failed Google call: 429 and 5xx (and a dropped connection) are worth another try,
 * anything else is final. `context` names the spreadsheet and the address to share it with.
 */
export function judgeGoogleError(
  error: unknown,
  context: { what: string; email: string | null },
): Verdict {
  if (error instanceof Problem) return { retry: false, problem: error };
  const failure = (error ?? {}) as HttpError;
  const status = failure.response?.status ?? failure.status;
  const body = (failure.response?.data ?? {}) as GoogleErrorBody;
  const google = typeof body.error === 'object' ? body.error : undefined;
  const message = google?.message ?? body.error_description ?? failure.message ?? 'no details';
  const retryAfterMs = retryAfter(failure.response?.headers);
  if (status === undefined) {
    // Refused or unresolved, the request never reached Google; any other failure may have
    // reached it, and a write may have been applied before its answer was lost.
    const neverSent = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN'].includes(String(failure.code));
    return {
      retry: true,
      mayHaveApplied: !neverSent,
      problem: new Problem(
        'upstream-unavailable',
        `Google Sheets could not be reached (${message}).`,
      ),
    };
  }
  if (status === 429) {
    return {
      retry: true,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      problem: new Problem(
        'provider-rate-limited',
        `Google Sheets refused the change to ${context.what} for now (rate limit: ${message}); nothing was changed. Try again after the Retry-After delay.`,
      ),
    };
  }
  if (status >= 500) {
    return {
      retry: true,
      mayHaveApplied: true,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      problem: new Problem(
        'upstream-unavailable',
        `Google Sheets failed (${status}: ${message}); nothing was changed. Try again after the Retry-After delay.`,
      ),
    };
  }
  return {
    retry: false,
    ...(status === 400 && google?.status === 'INVALID_ARGUMENT' ? { refusedWhole: true } : {}),
    problem: finalProblem(status, google?.status, message, typeof body.error === 'string', context),
  };
}

function finalProblem(
  status: number,
  googleStatus: string | undefined,
  message: string,
  fromTokenEndpoint: boolean,
  context: { what: string; email: string | null },
): Problem {
  if (fromTokenEndpoint || status === 401) {
    return new Problem(
      'provider-credentials-rejected',
      `Google rejected Sheetport's credentials (${message}); check SHEETPORT_GOOGLE_CREDENTIALS.`,
    );
  }
  if (status === 404) {
    return new Problem(
      'spreadsheet-not-found',
      `Google Sheets has no spreadsheet ${context.what}; check the id or address.`,
    );
  }
  if (status === 403) {
    const share =
      context.email === null ? '' : ` Share it with ${context.email} (as an editor, for writes).`;
    return new Problem(
      'spreadsheet-forbidden',
      `Sheetport may not open spreadsheet ${context.what}.${share}`,
      context.email === null ? {} : { shareWith: context.email },
    );
  }
  if (status === 400 && googleStatus === 'INVALID_ARGUMENT' && /parse range/i.test(message)) {
    return new Problem(
      'tab-not-found',
      `Spreadsheet ${context.what} has no such tab (${message}).`,
    );
  }
  return new Problem(
    'provider-error',
    `Google Sheets refused the request (${status}: ${message}).`,
  );
}

/** Retry-After in milliseconds, from seconds or an HTTP date. */
function retryAfter(headers: unknown): number | undefined {
  // The HTTP client may hand over a fetch-style Headers object (of its own fetch) or a plain one.
  let value: unknown;
  if (typeof (headers as { get?: unknown } | null)?.get === 'function') {
    value = (headers as { get(name: string): unknown }).get('retry-after');
  } else if (typeof headers === 'object' && headers !== null) {
    value = (headers as Record<string, unknown>)['retry-after'];
  }
  if (typeof value !== 'string' || value === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** The plan a settle records: the push was closed with nothing applied. */
export const voidPlan = 'void';
export function outcomeUnknown(source: GoogleSource, cause: Problem): Problem {
  return new Problem(
    'upstream-outcome-unknown',
    `Google Sheets did not answer whether it applied this write to "${source.spreadsheetId}", and could not be asked before the deadline (${cause.detail}). It may or may not be in the spreadsheet; Sheetport reads the spreadsheet again before serving this sheet. Read the rows before sending the write again.`,
    {},
    { 'retry-after': cause.headers['retry-after'] ?? '1' },
  );
}

/** No attempt left: "nothing changed" only when no attempt sent can still land. */
export function giveUp(last: Problem | null, mayLand: boolean, source: GoogleSource): Problem {
  const problem =
    last ??
    new Problem(
      'upstream-unavailable',
      `The deadline for this write to "${source.spreadsheetId}" passed before it could be sent; nothing was changed.`,
      {},
      { 'retry-after': '1' },
    );
  return mayLand ? outcomeUnknown(source, problem) : problem;
}

/** The tab a sheet mirrors, by its id, is no longer in its spreadsheet. */
export function tabGone(source: GoogleSource): Problem {
  return new Problem(
    'tab-gone',
    `Tab "${source.tab}" (id ${source.tabId}) is no longer in spreadsheet ${source.spreadsheetId}: it was deleted, or moved to another spreadsheet. Reads serve the rows last read from it; writes are refused until it is back. Connect another tab as a new sheet to write there.`,
  );
}

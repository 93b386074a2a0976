/**
 * The refusals the emulator answers, in the shapes Microsoft publishes: Graph's
 * `{error: {code, message, innerError}}` and the identity platform's OAuth 2.0 error body.
 */
import { randomUUID } from 'node:crypto';

export class GraphError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The second-level code of Excel's published list (`invalidSessionReCreatable`, …). */
    readonly detail?: string,
  ) {
    super(message);
  }

  body() {
    const date = new Date().toISOString().slice(0, 19);
    const id = randomUUID();
    const detail = this.detail === undefined ? {} : { code: this.detail, message: this.message };
    return {
      error: {
        code: this.code,
        message: this.message,
        innerError: { ...detail, date, 'request-id': id, 'client-request-id': id },
      },
    };
  }
}

export const invalidToken = (message: string) =>
  new GraphError(401, 'InvalidAuthenticationToken', message);
export const invalidRequest = (message: string) => new GraphError(400, 'invalidRequest', message);
export const invalidArgument = (message: string) =>
  new GraphError(400, 'InvalidArgument', message, {}, 'invalidArgument');
export const rangeExceedsLimit = (message: string) =>
  new GraphError(400, 'invalidRequest', message, {}, 'rangeExceedsLimit');
export const nonBlankCellOffSheet = () =>
  new GraphError(
    400,
    'invalidRequest',
    "Can't insert new cells because it would push non-empty cells off the end of the worksheet.",
    {},
    'nonBlankCellOffSheet',
  );
export const driveItemNotFound = () =>
  new GraphError(404, 'itemNotFound', 'The resource could not be found.');
export const workbookItemNotFound = (what: string) =>
  new GraphError(
    404,
    'ItemNotFound',
    `The requested resource ${what} doesn't exist.`,
    {},
    'itemNotFound',
  );
export const accessDenied = () =>
  new GraphError(403, 'accessDenied', "The caller doesn't have permission to perform the action.");
/**
 * A request of a closed, unknown or expired session. Graph has answered it with the top-level
 * code `InvalidSessionId`; Microsoft's published list puts the meaning in the second-level code,
 * and a test may play another top-level code (`topCode`) to check that clients read that one.
 */
export const invalidSession = (topCode = 'InvalidSessionId') =>
  new GraphError(
    404,
    topCode,
    'The session specified in the request does not exist or is invalid due to a transient error.',
    {},
    'invalidSessionReCreatable',
  );
export const notWorkbook = () =>
  new GraphError(400, 'invalidRequest', 'The file is not a workbook the Excel API can open.');
export const noSuchRoute = (method: string, path: string) =>
  new GraphError(400, 'BadRequest', `Resource not found for the segment '${path}' (${method}).`);
export const methodNotAllowed = () =>
  new GraphError(405, 'MethodNotAllowed', 'The HTTP method is not allowed on this resource.');
export const wrongDimensions = () =>
  invalidArgument(
    "The number of rows or columns in the input array doesn't match the size or dimensions of the range.",
  );

const retryAfter = (seconds: number | undefined): Record<string, string> =>
  seconds === undefined ? {} : { 'retry-after': String(seconds) };

export const tooManyRequests = (seconds: number | undefined) =>
  new GraphError(
    429,
    'TooManyRequests',
    'The app or user has been throttled.',
    retryAfter(seconds),
    'tooManyRequestsUncategorized',
  );
export const serviceNotAvailable = (seconds: number | undefined) =>
  new GraphError(
    503,
    'serviceNotAvailable',
    'The service is temporarily unavailable.',
    retryAfter(seconds),
  );
export const gatewayTimeout = (seconds: number | undefined) =>
  new GraphError(
    504,
    'gatewayTimeout',
    'The operation did not complete in time.',
    retryAfter(seconds),
  );
export const internalServerError = (status: number, seconds: number | undefined) =>
  new GraphError(
    status,
    'internalServerError',
    'An internal server error occurred while processing the request.',
    retryAfter(seconds),
    'internalServerErrorUncategorized',
  );

/** A status fault's answer: the throttling and outage bodies Graph sends for each status. */
export function statusError(status: number, retryAfterSeconds: number | undefined): GraphError {
  if (status === 429) return tooManyRequests(retryAfterSeconds);
  if (status === 503) return serviceNotAvailable(retryAfterSeconds);
  if (status === 504) return gatewayTimeout(retryAfterSeconds);
  return internalServerError(status, retryAfterSeconds);
}

/** An error of the identity platform's token and device-code endpoints (AADSTS codes). */
export class OAuthError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly aadsts: number | undefined,
    description: string,
  ) {
    super(description);
  }

  body() {
    const prefix = this.aadsts === undefined ? '' : `AADSTS${this.aadsts}: `;
    const timestamp = new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z';
    const [traceId, correlationId] = [randomUUID(), randomUUID()];
    const trailer = `\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`;
    return {
      error: this.error,
      error_description: `${prefix}${this.message}${trailer}`,
      error_codes: this.aadsts === undefined ? [] : [this.aadsts],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      ...(this.aadsts === undefined
        ? {}
        : { error_uri: `https://login.microsoftonline.com/error?code=${this.aadsts}` }),
    };
  }
}

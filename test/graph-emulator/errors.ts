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
  ) {
    super(message);
  }

  body() {
    const date = new Date().toISOString().slice(0, 19);
    const id = randomUUID();
    return {
      error: {
        code: this.code,
        message: this.message,
        innerError: { date, 'request-id': id, 'client-request-id': id },
      },
    };
  }
}

export const invalidToken = (message: string) =>
  new GraphError(401, 'InvalidAuthenticationToken', message);
export const invalidRequest = (message: string) => new GraphError(400, 'invalidRequest', message);
export const invalidArgument = (message: string) => new GraphError(400, 'InvalidArgument', message);
export const driveItemNotFound = () =>
  new GraphError(404, 'itemNotFound', 'The resource could not be found.');
export const workbookItemNotFound = (what: string) =>
  new GraphError(404, 'ItemNotFound', `The requested resource ${what} doesn't exist.`);
export const invalidSession = () =>
  new GraphError(404, 'InvalidSessionId', 'The target session is invalid.');
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
    'Too many requests. Please retry after the time given in Retry-After.',
    retryAfter(seconds),
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
  new GraphError(status, 'generalException', 'An unexpected error occurred.', retryAfter(seconds));

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
    return {
      error: this.error,
      error_description: `${prefix}${this.message}`,
      error_codes: this.aadsts === undefined ? [] : [this.aadsts],
      timestamp: new Date().toISOString().replace('T', ' ').slice(0, 19) + 'Z',
      trace_id: randomUUID(),
      correlation_id: randomUUID(),
    };
  }
}

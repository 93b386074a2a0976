/**
 * The closed list of everything that can go wrong, each with its HTTP status and the stable `code`
 * clients can switch on. One handler (see `routes/error-handler.ts`) turns them into RFC 9457
 * problem documents; nothing else picks a status.
 */
export const problemKinds = {
  'sheet-not-found': { status: 404, title: 'Sheet not found' },
  'row-not-found': { status: 404, title: 'Row not found' },
  'key-not-found': { status: 404, title: 'API key not found' },
  'key-already-rotated': { status: 409, title: 'API key already rotated' },
  'webhook-not-found': { status: 404, title: 'Webhook not found' },
  'route-not-found': { status: 404, title: 'No such endpoint' },
  'invalid-url': { status: 400, title: 'Invalid URL' },
  'uri-too-long': { status: 414, title: 'URI too long' },
  unauthorized: { status: 401, title: 'Missing or wrong credentials' },
  forbidden: { status: 403, title: 'Not allowed with this key' },
  'host-not-allowed': { status: 403, title: 'Host not served' },
  'cross-site-refused': { status: 403, title: 'Cross-site request refused' },
  'rate-limited': { status: 429, title: 'Too many requests' },
  'too-many-streams': { status: 429, title: 'Too many event streams from this address' },
  'streams-unavailable': { status: 503, title: 'No room for another event stream' },
  'limit-exceeded': { status: 400, title: 'Over a limit' },
  'unknown-column': { status: 400, title: 'Unknown column' },
  'invalid-webhook': { status: 400, title: 'Invalid webhook' },
  'webhook-destination-refused': { status: 400, title: 'Webhook destination refused' },
  'empty-row': { status: 400, title: 'A mirrored sheet cannot hold an empty row' },
  'upsert-key-missing': { status: 400, title: 'Upsert key missing' },
  'invalid-filter': { status: 400, title: 'Malformed filter' },
  'invalid-id': { status: 400, title: 'Invalid _id' },
  'invalid-key': { status: 400, title: 'Invalid row key' },
  'invalid-parameter': { status: 400, title: 'Invalid query parameter' },
  'selection-required': { status: 400, title: 'No rows selected' },
  'invalid-body': { status: 400, title: 'Invalid request body' },
  'malformed-request': { status: 400, title: 'Malformed HTTP request' },
  'malformed-json': { status: 400, title: 'Malformed JSON' },
  // A header a person wrote that cannot be read: a sheet's header row, or a request's If-Match.
  'invalid-header': { status: 400, title: 'Invalid header' },
  'invalid-upload': { status: 400, title: 'Unreadable upload' },
  'delete-disabled': { status: 405, title: 'DELETE is disabled for this sheet' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'provider-read-only': { status: 403, title: 'The spreadsheet is read-only here' },
  'spreadsheet-forbidden': { status: 403, title: 'Spreadsheet not shared with Sheetport' },
  'spreadsheet-not-found': { status: 404, title: 'Spreadsheet not found' },
  'tab-not-found': { status: 404, title: 'Tab not found' },
  'tab-gone': { status: 409, title: 'The mirrored tab is gone from its spreadsheet' },
  'not-a-spreadsheet': { status: 400, title: 'The file is not a spreadsheet' },
  'unknown-provider': { status: 400, title: 'No such spreadsheet provider' },
  'provider-not-configured': { status: 400, title: 'No access to the provider configured' },
  'already-connected': { status: 409, title: 'The tab is already connected as a sheet' },
  'invalid-idempotency-key': { status: 400, title: 'Invalid Idempotency-Key' },
  'header-changed': { status: 409, title: 'The header row changed' },
  'idempotency-key-in-use': {
    status: 409,
    title: 'A request with this Idempotency-Key is running',
  },
  'idempotency-key-mismatch': {
    status: 422,
    title: 'The Idempotency-Key was used for another request',
  },
  'precondition-failed': { status: 412, title: 'The sheet changed since it was read' },
  'request-timeout': { status: 408, title: 'Request timeout' },
  // The client is gone, so this answer is only ever seen in the log and the metrics.
  'client-gone': { status: 499, title: 'The client closed the connection' },
  'body-too-large': { status: 413, title: 'Request body too large' },
  'headers-too-large': { status: 431, title: 'Request headers too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  'unsupported-upload': { status: 415, title: 'Unsupported file type' },
  'provider-rate-limited': { status: 429, title: 'The provider is rate-limiting writes' },
  'internal-error': { status: 500, title: 'Internal server error' },
  'provider-error': { status: 502, title: 'The provider refused the request' },
  'provider-credentials-rejected': { status: 502, title: 'The provider rejected our credentials' },
  'sign-in-required': { status: 502, title: 'Sign in to the provider again' },
  'upstream-unavailable': { status: 503, title: 'The provider is unavailable' },
  'store-unavailable': { status: 503, title: 'The database is unavailable' },
  'store-outcome-unknown': {
    status: 504,
    title: 'The database did not say whether it applied the write',
  },
  'upstream-outcome-unknown': {
    status: 504,
    title: 'The provider did not say whether it applied the write',
  },
  'not-ready': { status: 503, title: 'Not ready to serve' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof problemKinds;

/** Extra members of a problem document beyond the RFC's, e.g. `column` or `cells`. */
export type ProblemExtensions = Record<string, unknown>;

/** No sheet has this id (or it was deleted). */
export function sheetNotFound(sheetId: string): Problem {
  return new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
}

/** A 401 always names the scheme that would be accepted (RFC 9110, section 11.6.1). */
export function unauthorized(detail: string): Problem {
  return new Problem(
    'unauthorized',
    detail,
    {},
    { 'www-authenticate': 'Bearer realm="sheetport"' },
  );
}

/** A 405 always lists the methods the path does answer (RFC 9110, section 15.5.6). */
export function methodNotAllowed(detail: string, allowed: readonly string[]): Problem {
  return new Problem('method-not-allowed', detail, {}, { allow: allowed.join(', ') });
}

/** A sheet's header changed in its spreadsheet between planning a write and committing it. */
export function headerChanged(sheetName: string): Problem {
  return new Problem(
    'header-changed',
    `The header row of sheet "${sheetName}" changed in its spreadsheet while this request waited; nothing was written. Check the columns and send it again.`,
  );
}

export class Problem extends Error {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly extensions: ProblemExtensions = {},
    headers: Record<string, string> = {},
  ) {
    super(detail);
    this.name = 'Problem';
    this.status = problemKinds[code].status;
    this.headers = headers;
  }

  toDocument(instance?: string): Record<string, unknown> {
    return {
      type: `urn:sheetport:problem:${this.code}`,
      title: problemKinds[this.code].title,
      status: this.status,
      detail: this.detail,
      code: this.code,
      ...(instance === undefined ? {} : { instance }),
      ...this.extensions,
    };
  }
}

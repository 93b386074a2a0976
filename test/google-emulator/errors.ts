/**
 * The closed list of errors the emulator answers with, each with the HTTP code and the canonical
 * `status` Google puts in its JSON error body: `{"error":{"code","message","status","details"?}}`.
 * OAuth token-endpoint errors have a body of their own (`{"error","error_description"}`).
 */
export const apiErrorKinds = {
  'invalid-argument': { code: 400, status: 'INVALID_ARGUMENT' },
  unauthenticated: { code: 401, status: 'UNAUTHENTICATED' },
  'permission-denied': { code: 403, status: 'PERMISSION_DENIED' },
  'not-found': { code: 404, status: 'NOT_FOUND' },
  'resource-exhausted': { code: 429, status: 'RESOURCE_EXHAUSTED' },
  internal: { code: 500, status: 'INTERNAL' },
  unavailable: { code: 503, status: 'UNAVAILABLE' },
} as const satisfies Record<string, { code: number; status: string }>;

export type ApiErrorKind = keyof typeof apiErrorKinds;

/** One entry of `error.details`, e.g. a `google.rpc.ErrorInfo`. */
export type ErrorDetail = { '@type': string } & Record<string, unknown>;

/** One entry of the `errors` array Drive v3 still sends beside `details`. */
export type LegacyError = Record<string, string>;

export interface GoogleErrorBody {
  error: {
    code: number;
    message: string;
    status: string;
    details?: ErrorDetail[];
    errors?: LegacyError[];
  };
}

export class ApiError extends Error {
  readonly kind: ApiErrorKind;
  readonly details: ErrorDetail[] | undefined;
  readonly errors: LegacyError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    kind: ApiErrorKind,
    message: string,
    extra: {
      details?: ErrorDetail[];
      errors?: LegacyError[];
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.kind = kind;
    this.details = extra.details;
    this.errors = extra.errors;
    this.headers = extra.headers ?? {};
  }

  get code(): number {
    return apiErrorKinds[this.kind].code;
  }

  body(): GoogleErrorBody {
    const { code, status } = apiErrorKinds[this.kind];
    const error: GoogleErrorBody['error'] = { code, message: this.message, status };
    if (this.errors) error.errors = this.errors;
    if (this.details) error.details = this.details;
    return { error };
  }
}

const SERVICE = 'sheets.googleapis.com';

function errorInfo(reason: string, metadata: Record<string, string>): ErrorDetail {
  return {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason,
    domain: 'googleapis.com',
    metadata: { service: SERVICE, ...metadata },
  };
}

export const notFound = (): ApiError =>
  new ApiError('not-found', 'Requested entity was not found.');

export const callerLacksPermission = (): ApiError =>
  new ApiError('permission-denied', 'The caller does not have permission');

export const unparsableRange = (range: string): ApiError =>
  new ApiError('invalid-argument', `Unable to parse range: ${range}`);

export const invalidArgument = (message: string): ApiError =>
  new ApiError('invalid-argument', message);

/** A request of a batchUpdate that Google refuses, named by its place in the batch. */
export const invalidRequest = (index: number, kind: string, message: string): ApiError =>
  new ApiError('invalid-argument', `Invalid requests[${index}].${kind}: ${message}`);

export const missingCredentials = (): ApiError =>
  new ApiError('permission-denied', 'The request is missing a valid API key.');

export const invalidCredentials = (): ApiError =>
  new ApiError(
    'unauthenticated',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie ' +
      'or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.',
    {
      headers: {
        'www-authenticate': 'Bearer realm="https://accounts.google.com/", error="invalid_token"',
      },
    },
  );

export const apiKeyNotSupported = (): ApiError =>
  new ApiError(
    'unauthenticated',
    'API keys are not supported by this API. Expected OAuth2 access token or other authentication ' +
      'credentials that assert a principal. See https://cloud.google.com/docs/authentication',
    { details: [errorInfo('CREDENTIALS_MISSING', {})] },
  );

export const apiKeyInvalid = (): ApiError =>
  new ApiError('invalid-argument', 'API key not valid. Please pass a valid API key.', {
    details: [errorInfo('API_KEY_INVALID', {})],
  });

export const insufficientScopes = (): ApiError =>
  new ApiError('permission-denied', 'Request had insufficient authentication scopes.', {
    details: [errorInfo('ACCESS_TOKEN_SCOPE_INSUFFICIENT', {})],
  });

/** The answer to a request over a per-user quota, as Sheets words it. */
export function quotaExceeded(
  kind: 'read' | 'write',
  limit: number,
  retryAfterSeconds: number | null | undefined,
): ApiError {
  const [metric, name] = kind === 'write' ? ['Write', 'write'] : ['Read', 'read'];
  const headers: Record<string, string> = {};
  if (retryAfterSeconds != null) headers['retry-after'] = String(retryAfterSeconds);
  return new ApiError(
    'resource-exhausted',
    `Quota exceeded for quota metric '${metric} requests' and limit '${metric} requests per minute per user' ` +
      "of service 'sheets.googleapis.com' for consumer 'project_number:123456789012'.",
    {
      headers,
      details: [
        errorInfo('RATE_LIMIT_EXCEEDED', {
          quota_location: 'global',
          quota_metric: `sheets.googleapis.com/${name}_requests`,
          quota_limit: `${metric}RequestsPerMinutePerUser`,
          quota_limit_value: String(limit),
          consumer: 'projects/123456789012',
        }),
        {
          '@type': 'type.googleapis.com/google.rpc.Help',
          links: [
            {
              description: 'Request a higher quota limit.',
              url: 'https://cloud.google.com/docs/quotas/help/request_increase',
            },
          ],
        },
      ],
    },
  );
}

export const internalError = (headers: Record<string, string> = {}): ApiError =>
  new ApiError('internal', 'Internal error encountered.', { headers });

export const serviceUnavailable = (headers: Record<string, string> = {}): ApiError =>
  new ApiError('unavailable', 'The service is currently unavailable.', { headers });

/** An error of the OAuth 2.0 token endpoint (RFC 6749 §5.2), in Google's wording. */
export class OAuthError extends Error {
  readonly httpStatus: 400 | 401;
  readonly error: string;

  constructor(error: string, description: string, httpStatus: 400 | 401 = 400) {
    super(description);
    this.error = error;
    this.httpStatus = httpStatus;
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

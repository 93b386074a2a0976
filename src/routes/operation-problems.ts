import { Type } from '@sinclair/typebox';

/**
 * The problem statuses each documented operation can answer, in one place: a new kind of
 * problem in `errors/problem.ts` is documented by adding its status to the operations that can
 * answer it. The HTTP tests check every answer against the document, so a status missing here
 * fails them.
 */
const meanings = {
  400: 'The request is invalid: a parameter, filter, `_id`, column, header row or body; `code` says which.',
  401: 'Missing or wrong credentials: the administrator token, or an API key of this sheet.',
  403: 'Not allowed: an API key without a scope the request needs (`scope` names it; a write choosing rows by value needs `read` too), a spreadsheet that is not shared or is read-only here, or (on a server without an administrator token) a `Host` that is not this server or a cross-site management write.',
  404: 'Unknown sheet, row (an `_id` past the last row, or a `_key` that names no row: `row-not-found`), API key, webhook, spreadsheet or tab.',
  405: 'DELETE is switched off for this sheet (see the `Allow` header).',
  409: 'A conflict, `code` says which: the header row changed in the spreadsheet while the write waited, a request with this Idempotency-Key is still running or its outcome is not known yet, the tab is already connected as a sheet, or the key was already rotated; nothing was written.',
  412: "If-Match names a version the sheet has moved past, or a row's ETag when that row has changed since; nothing was written.",
  413: 'The body is larger than this server accepts.',
  414: 'A segment of the path is longer than this server reads (100 characters); ids are shorter.',
  415: 'The body is not JSON (or, for a new sheet, a multipart upload of a CSV or XLSX file).',
  422: 'The Idempotency-Key was used for another request (`idempotency-key-mismatch`); nothing was written.',
  429: 'Too many requests from this address or with this key, or too many live Idempotency-Keys (see `Retry-After`), or the spreadsheet service is limiting writes.',
  500: 'A fault of the server; it has been logged.',
  502: 'The spreadsheet service refused the request or its credentials.',
  503: 'The server is shutting down, or the database or the spreadsheet service is unavailable; send it again.',
  504: 'The database or the spreadsheet service did not say whether it applied the write or change.',
} as const satisfies Record<number, string>;

export type ProblemStatus = keyof typeof meanings;

/**
 * Any request: a Host or cross-site request refused (without an administrator token), over the
 * per-address rate limit, during shutdown, a fault.
 */
const always = [403, 429, 500, 503] as const;
/** Row API requests: the sheet's access rules, and a mirrored sheet re-read on the way. */
const rowRead = [...always, 400, 401, 403, 404, 414, 502] as const;
const rowWrite = [...rowRead, 409, 412, 413, 415, 422, 504] as const;
/** Management API requests: the administrator token. */
const admin = [...always, 401] as const;
const adminBody = [...admin, 400, 413, 415] as const;
/** Management requests naming a sheet, key or webhook in their path. */
const adminOne = [...admin, 400, 404, 414] as const;
/**
 * POST, PATCH and DELETE read a body when one is sent, even where they take none; their commit
 * may be cut off by the database going away, which then did not say whether it landed.
 */
const adminOneWrite = [...adminOne, 413, 415, 504] as const;

export const operationProblems = {
  readRows: rowRead,
  queryRows: rowRead,
  appendRows: rowWrite,
  replaceRows: rowWrite,
  patchRows: rowWrite,
  deleteRows: [...rowWrite, 405],
  readRow: [...rowRead, 405],
  replaceRow: [...rowWrite, 405],
  patchRow: [...rowWrite, 405],
  deleteRow: [...rowWrite, 405],
  streamEvents: rowRead,
  describeSheetApi: rowRead,
  createSheet: [...adminBody, 404, 409, 502, 504],
  listSheets: admin,
  getSheet: adminOne,
  updateSheet: adminOneWrite,
  deleteSheet: adminOneWrite,
  refreshSheet: [...adminOneWrite, 502, 504],
  createApiKey: adminOneWrite,
  listApiKeys: adminOne,
  rotateApiKey: [...adminOneWrite, 409],
  revokeApiKey: adminOneWrite,
  createWebhook: adminOneWrite,
  listWebhooks: adminOne,
  rotateWebhookSecret: adminOneWrite,
  deleteWebhook: adminOneWrite,
  listDeliveries: adminOne,
  getProviders: admin,
  startProviderSignIn: [...adminOneWrite, 502],
  getProviderSignIn: adminOne,
  signOutProvider: adminOneWrite,
} as const satisfies Record<string, readonly ProblemStatus[]>;

export type OperationId = keyof typeof operationProblems;

const noSignIn =
  'No such provider, or one that offers no sign-in (`route-not-found`); `providers` lists those that do.';

/** Where an operation answers a status for a reason of its own, said in its document. */
const ownMeanings: Partial<Record<OperationId, Partial<Record<ProblemStatus, string>>>> = {
  startProviderSignIn: {
    400: "The provider's sign-in is not configured (`provider-not-configured`); `detail` names the setting.",
    404: noSignIn,
    502: 'The provider refused the application or the tenant (`provider-credentials-rejected`); `detail` says which setting to check.',
  },
  getProviderSignIn: { 404: noSignIn },
  readRow: {
    405: 'POST to a row by its key (see the `Allow` header); new rows are POSTed to the sheet.',
  },
  replaceRow: { 405: 'POST to a row by its key (see the `Allow` header).' },
  patchRow: { 405: 'POST to a row by its key (see the `Allow` header).' },
  deleteRow: { 405: 'DELETE is switched off for this sheet (see the `Allow` header).' },
  signOutProvider: { 404: noSignIn },
  streamEvents: {
    429: 'Too many requests from this address or with this key, or too many event streams open from this address (`too-many-streams`); see `Retry-After`.',
    503: 'The server has no room for another event stream (`streams-unavailable`), is shutting down, or the database or the spreadsheet service is unavailable; send it again.',
  },
};

/**
 * The problem answers of an operation, as route `response` entries; `schema` is how the
 * problem document is referred to (a route's schemas name it by its `$id`).
 */
export function problemResponses(operation: OperationId, schema: object = Type.Ref('Problem')) {
  const responses: Record<number, { description: string; content: object }> = {};
  for (const status of [...operationProblems[operation]].sort((a, b) => a - b)) {
    responses[status] = {
      description: ownMeanings[operation]?.[status] ?? meanings[status],
      content: { 'application/problem+json': { schema } },
    };
  }
  return responses;
}

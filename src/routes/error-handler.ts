import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Duplex } from 'node:stream';
import { methodNotAllowed, Problem, problemKinds, type ProblemCode } from '../errors/problem.ts';
import { CommitOutcomeUnknown, outcomeUnknown } from '../store/dialect.ts';
import { uploadPartsText } from './upload-form.ts';
import { validationMessage } from './validation-message.ts';
import { bodyTooLarge } from './body-too-large.ts';

/** Framework and plugin errors that a client caused, by their stable codes. */
const clientErrors: Record<string, ProblemCode> = {
  FST_ERR_BAD_URL: 'invalid-url',
  FST_ERR_INVALID_URL: 'invalid-url',
  FST_ERR_MAX_PARAM_LENGTH: 'uri-too-long',
  FST_ERR_NOT_FOUND: 'route-not-found',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported-media-type',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'unsupported-media-type',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'unsupported-media-type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'body-too-large',
  FST_REQ_FILE_TOO_LARGE: 'body-too-large',
  FST_PARTS_LIMIT: 'invalid-body',
  FST_FILES_LIMIT: 'invalid-body',
  FST_FIELDS_LIMIT: 'invalid-body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'malformed-json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'malformed-json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'malformed-request',
  FST_PROTO_VIOLATION: 'invalid-body',
  FST_MP_PREMATURE_CLOSE: 'invalid-upload',
};

/** Any other error a client caused, by the status the framework or a plugin gave it. */
const clientStatuses: Partial<Record<number, ProblemCode>> = {
  404: 'route-not-found',
  405: 'method-not-allowed',
  408: 'request-timeout',
  413: 'body-too-large',
  414: 'uri-too-long',
  415: 'unsupported-media-type',
  431: 'headers-too-large',
};

/** Methods a path may answer, probed to tell 405 from 404: Fastify itself answers 404 to both. */
const probedMethods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** The longest path segment the router matches (find-my-way's `maxParamLength`). */
const maxSegmentLength = 100;

/**
 * Answers a request Node could not even parse (headers too large, a stalled client, bad
 * syntax) with a problem document too, written straight to the socket as there is no request.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new Problem(
          'headers-too-large',
          'The request line and headers are larger than 16 KiB; shorten the query string.',
        )
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new Problem(
            'request-timeout',
            'The request was not sent in time; the connection is closed.',
          )
        : new Problem('malformed-request', 'The request is not valid HTTP.');
  const body = JSON.stringify(problem.toDocument());
  socket.end(
    `HTTP/1.1 ${problem.status} ${problemKinds[problem.code].title}\r\n` +
      'Content-Type: application/problem+json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/**
 * Answers what the router refuses before any route or hook runs: a path that does not decode
 * (`%zz`, overlong UTF-8) or with a segment over the router's limit. Fastify's `frameworkErrors`.
 */
export function answerFrameworkError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void sendProblem(request, reply, toProblem(error));
}

/** Writes a problem document; every error answer goes through here. */
export function sendProblem(
  request: FastifyRequest,
  reply: FastifyReply,
  problem: Problem,
): FastifyReply {
  return reply
    .code(problem.status)
    .headers(problem.headers)
    .type('application/problem+json')
    .send(problem.toDocument(request.url));
}

/** Turns every error into a problem document; the only place where statuses are chosen. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const problem = toProblem(error, request.routeOptions.bodyLimit);
    // A fault of the server is an error with its stack; an outage it reports is a warning.
    // Request loggers are shared (see request-log.ts): the line names its request itself.
    const reqId = request.id;
    if (problem.code === 'internal-error')
      request.log.error({ reqId, err: error }, 'request failed');
    else if (problem.status >= 500) request.log.warn({ reqId, code: problem.code }, problem.detail);
    void sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = probedMethods.filter(
      (method) => request.server.findRoute({ method, url: request.url }) !== null,
    );
    const problem =
      allowed.length > 0
        ? methodNotAllowed(
            `${request.method} is not allowed on ${path}; it answers ${allowed.join(', ')}.`,
            allowed,
          )
        : routeNotFound(request.method, path);
    void sendProblem(request, reply, problem);
  });
}

/** No route answers `method` on `path`. */
export function routeNotFound(method: string, path: string): Problem {
  return new Problem(
    'route-not-found',
    `No endpoint answers ${method} ${path}; rows are served under /api/v1/<sheet_id>, sheets managed under /admin/v1/sheets.`,
  );
}

/** `bodyLimit`: the bytes the route takes in a body, which a body over it is told. */
function toProblem(error: FastifyError, bodyLimit?: number): Problem {
  if (error instanceof Problem) return error;
  // A change committed as the database went away, by a store operation that does not look
  // whether it landed (a row write does; a sheet's settings, say, do not).
  if (error instanceof CommitOutcomeUnknown) return outcomeUnknown();
  const code = clientErrors[error.code];
  if (code !== undefined) {
    if (
      code === 'body-too-large' &&
      bodyLimit !== undefined &&
      error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
    ) {
      return bodyTooLarge(bodyLimit, 'SHEETPORT_BODY_LIMIT', 'send fewer rows per request');
    }
    return new Problem(code, describe(code, error));
  }
  if (error.validation !== undefined) {
    const context =
      error.validationContext === 'querystring' ? 'query string' : error.validationContext;
    return new Problem(
      error.validationContext === 'body' ? 'invalid-body' : 'invalid-parameter',
      validationMessage(error.validation, context ?? 'request'),
    );
  }
  if (error instanceof SyntaxError && error.statusCode === 400) {
    // secure-json-parse refuses "__proto__" and "constructor.prototype" keys.
    return new Problem('malformed-json', `The JSON body was refused: ${error.message}.`);
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new Problem(
      clientStatuses[status] ?? 'malformed-request',
      `The request was refused: ${error.message}.`,
    );
  }
  return new Problem(
    'internal-error',
    'The server failed to handle this request; it has been logged.',
  );
}

function describe(code: ProblemCode, error: FastifyError): string {
  switch (code) {
    case 'invalid-url':
      return 'The request path does not decode: every % must begin an escape of UTF-8 text, such as %20 or %C3%A9.';
    case 'uri-too-long':
      return `A segment of the request path is longer than ${maxSegmentLength} characters; sheet ids are 22.`;
    case 'route-not-found':
      return 'No endpoint answers this request.';
    case 'unsupported-media-type':
      return 'Send the body as application/json (or multipart/form-data for file uploads to /admin/v1/sheets).';
    case 'body-too-large':
      return `The request body is larger than this server accepts (${error.message}); send fewer rows per request or raise SHEETPORT_BODY_LIMIT / SHEETPORT_UPLOAD_LIMIT.`;
    case 'malformed-json':
      return `The body is not valid JSON: ${error.message}.`;
    case 'malformed-request':
      return error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH'
        ? 'The body is not as long as its Content-Length header says.'
        : error.message;
    case 'invalid-body':
      return error.code.startsWith('FST_') && error.code.endsWith('_LIMIT')
        ? `An upload is ${uploadPartsText}, each sent once; this form has more parts.`
        : error.message;
    default:
      return error.message;
  }
}

import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { symbols } from 'pino';
import { stdoutLines } from './line-batch.ts';
import { redacted, redactKeys, redactUrl } from './redact-url.ts';

export interface LogSettings {
  level: string;
  /** pino-pretty's entry point, to write lines for a person (see log-format.ts); else JSON. */
  prettifier?: string | undefined;
  /** Where JSON lines go instead of stdout; tests read them here. */
  stream?: { write(line: string): void };
}

/** Headers that carry a credential; the request serializer logs the others as sent. */
const secretHeaders = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];
/** Other headers whose names say they carry one (`X-Auth-Token`, `X-Forwarded-Authorization`). */
const secretHeaderName = /auth|token|secret|passw|cookie|signature|api-?key|credential/i;

/**
 * The application logger: a line per request answered (see `RequestLog`), with the request's
 * method, URL (secrets replaced), address and headers (credentials replaced, the Referer's URL
 * redacted like the request's). Never a key or the administrator token, in any format.
 */
export function loggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  const { prettifier, stream } = settings;
  return {
    level: settings.level,
    serializers: { req: describeRequest },
    // Lines to stdout are written once per turn of the event loop, joined (see line-batch.ts).
    ...(prettifier === undefined
      ? { stream: stream ?? stdoutLines() }
      : {
          transport: {
            target: prettifier,
            options: {
              translateTime: 'SYS:HH:MM:ss.l',
              ignore: 'pid,hostname,req.headers,req.remotePort',
              singleLine: true,
            },
          },
        }),
  };
}

function describeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
    headers: loggedHeaders(request.headers),
  };
}

/** Headers fit for a log: a key pasted into any of them is replaced, as in the URL. */
function loggedHeaders(headers: FastifyRequest['headers']): Record<string, unknown> {
  const logged: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    // Chosen once for the header, not made afresh for each of its values.
    const redact =
      secretHeaders.includes(name) || secretHeaderName.test(name)
        ? redactWhole
        : // The page a request came from may carry secrets in its own URL.
          name === 'referer'
          ? redactUrl
          : redactKeys;
    logged[name] = Array.isArray(value) ? value.map((one) => redact(one)) : redact(value);
  }
  return logged;
}

function redactWhole(): string {
  return redacted;
}

/** pino's levels by name (info is 30, error 50), to tell whether a line would be written. */
const levelValues: Record<string, number> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/**
 * Request loggers are shared, never made per request: the application logger itself, or, for a
 * route given its own level (probes, `/metrics`), one child at that level made once. Lines about
 * a request carry its id themselves (`reqId`), as the request line does.
 */
export function sharedRequestLoggers(): NonNullable<FastifyServerOptions['childLoggerFactory']> {
  const atLevel = new Map<string, FastifyBaseLogger>();
  return function requestLogger(logger, _bindings, options) {
    const level = options.level;
    if (level === undefined || level === logger.level) return logger;
    let child = atLevel.get(level);
    if (child === undefined) {
      child = logger.child({}, { level });
      atLevel.set(level, child);
    }
    return child;
  };
}

/**
 * One line per request, written once it is answered: the request (method, URL with secrets
 * replaced, address, headers with credentials replaced), its status, its time and its id, and
 * the id of the sheet it names (row and management routes), so that one sheet's traffic can be
 * followed through the log. Nothing is computed when the line is not written: at `warn` and
 * above, and on routes quieted to `warn` (probes, `/metrics`). At `debug`, a line as each
 * request arrives too, to follow requests that wait long for their answer.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    const log = request.log;
    if ((levelValues[log.level] ?? 0) > 20) return;
    log.debug(describedRequest(request), 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const log = request.log;
    const failed = error !== null && error !== undefined;
    if ((levelValues[log.level] ?? 0) > (failed ? 50 : 30)) return;
    if (!failed && writeCompleted(log, request, reply)) return;
    const line = {
      ...describedRequest(request),
      res: { statusCode: reply.statusCode },
      responseTime: reply.elapsedTime,
    };
    if (failed) log.error({ ...line, err: error }, 'request errored');
    else log.info(line, 'request completed');
  }
}

/**
 * The line of a request answered, the one line every request writes: the same JSON line pino
 * would make of `log.info({ reqId, sheetId, req, res, responseTime }, 'request completed')` with
 * the options above (pino's default fields and formatters), joined here and handed to the
 * logger's stream. pino's general path (a serializer looked up and a value stringified for each
 * field) cost as much as a third of a cached read. False for a logger that is not pino's.
 */
function writeCompleted(
  log: FastifyBaseLogger,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  const pinoLog = log as unknown as Record<symbol, unknown>;
  const stream = pinoLog[symbols.streamSym] as { write(line: string): void } | undefined;
  const chindings = pinoLog[symbols.chindingsSym];
  if (stream === undefined || typeof chindings !== 'string') return false;
  const sheetId = sheetIdOf(request);
  stream.write(
    `{"level":30,"time":${Date.now()}${chindings}` +
      `,"reqId":${JSON.stringify(request.id)}` +
      (sheetId === null ? '' : `,"sheetId":${JSON.stringify(sheetId)}`) +
      `,"req":${JSON.stringify(describeRequest(request))}` +
      `,"res":{"statusCode":${reply.statusCode}},"responseTime":${reply.elapsedTime}` +
      `,"msg":"request completed"}\n`,
  );
  return true;
}

/** The sheet id a request names (row and management routes), keys in it replaced. */
function sheetIdOf(request: FastifyRequest): string | null {
  const sheetId = (request.params as { sheetId?: unknown } | null)?.sheetId;
  // A key sent where the sheet id goes (`/api/v1/<key>`) is a secret all the same.
  return typeof sheetId === 'string' ? redactKeys(sheetId) : null;
}

/** A request's id, the sheet it names, and the request itself (see `describeRequest`). */
function describedRequest(request: FastifyRequest) {
  const sheetId = sheetIdOf(request);
  return { reqId: request.id, ...(sheetId === null ? {} : { sheetId }), req: request };
}

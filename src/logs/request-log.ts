import {
  LogController,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import { redacted, redactKeys, redactUrl } from './redact-url.ts';

export interface LogSettings {
  level: string;
  /** pino-pretty's entry point, to write lines for a person (see log-format.ts); else JSON. */
  prettifier?: string | undefined;
  /** Where JSON lines go instead of stdout; tests read them here. */
  stream?: { write(line: string): void };
}

/** Headers that carry a credential; the request serializer logs the others. */
const secretHeaders = ['authorization', 'x-api-key', 'cookie', 'proxy-authorization'];
/** Other headers whose names say they carry one (`X-Auth-Token`, `X-Forwarded-Authorization`). */
const secretHeaderName = /auth|token|secret|passw|cookie|signature|api-?key|credential/i;

/**
 * The application logger: a line per request coming in and going out, with the request's
 * method, URL (secrets replaced), address and headers (credentials replaced, the Referer's URL
 * redacted like the request's). Never a key or the administrator token, in any format.
 */
export function loggerOptions(settings: LogSettings): FastifyServerOptions['logger'] {
  const { prettifier, stream } = settings;
  return {
    level: settings.level,
    redact: { paths: secretHeaders.map((name) => `req.headers["${name}"]`), censor: redacted },
    serializers: { req: describeRequest },
    ...(stream === undefined ? {} : { stream }),
    ...(prettifier !== undefined
      ? {
          transport: {
            target: prettifier,
            options: {
              translateTime: 'SYS:HH:MM:ss.l',
              ignore: 'pid,hostname,req.headers,req.remotePort',
              singleLine: true,
            },
          },
        }
      : {}),
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
    const text = (one: string) =>
      secretHeaderName.test(name)
        ? redacted
        : // The page a request came from may carry secrets in its own URL.
          name === 'referer'
          ? redactUrl(one)
          : redactKeys(one);
    logged[name] = Array.isArray(value) ? value.map(text) : text(value);
  }
  return logged;
}

/**
 * Fastify's request lines, each carrying the id of the sheet the request names (row and
 * management routes), so that one sheet's traffic can be followed through the log.
 */
export class RequestLog extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply): void {
    const sheetId = (request.params as { sheetId?: unknown } | null)?.sheetId;
    if (typeof sheetId === 'string') {
      // A key sent where the sheet id goes (`/api/v1/<key>`) is a secret all the same.
      request.log = request.log.child({ sheetId: redactKeys(sheetId) });
      reply.log = request.log;
    }
    super.incomingRequest(request, reply);
  }
}

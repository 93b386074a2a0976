import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Ajv, type ValidateFunction } from 'ajv';
import formats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import type { TestContext } from 'node:test';

interface Response {
  content?: Record<string, { schema?: unknown }>;
}
interface Operation {
  operationId?: string;
  responses: Record<string, Response>;
}
export interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** Bodies past this size are not kept: their status is still checked, not their content. */
const bodyCap = 1 << 20;

/**
 * Checks every answer a test server sends against its own OpenAPI document: the status must be
 * one the operation lists, and a JSON body must match the schema listed for it. Answers to
 * paths the document leaves out (health, metrics, the console, the docs) are not checked.
 * It listens on the HTTP server itself, so requests made with plain `fetch`, raw sockets or
 * `call` are all seen.
 */
export class AnswerGuard {
  readonly mismatches: string[] = [];
  #document: {
    doc: Document;
    paths: { pattern: RegExp; template: string }[];
    ajv: Ajv;
  } | null = null;
  readonly #validators = new Map<string, ValidateFunction>();
  readonly #source: () => Document;
  readonly #report: (mismatch: string) => void;

  /**
   * `options.document` replaces the app's own document (a test of the guard takes a status out
   * of it); `options.report` hears each mismatch as it is found, for a server in a process of
   * its own, which can be killed before it is asked for the list.
   */
  constructor(
    app: FastifyInstance,
    options: { document?: (doc: Document) => Document; report?: (mismatch: string) => void } = {},
  ) {
    const adjust = options.document ?? ((doc: Document) => doc);
    this.#source = () => adjust(app.swagger() as unknown as Document);
    this.#report = options.report ?? (() => undefined);
  }

  watch(server: Server): void {
    server.prependListener('request', (request: IncomingMessage, response: ServerResponse) =>
      this.#watch(request, response),
    );
  }

  /** Throws, listing them, when any answer did not match the document. */
  check(): void {
    if (this.mismatches.length === 0) return;
    const list = [...new Set(this.mismatches)].map((line) => `  - ${line}`).join('\n');
    throw new Error(`answers the OpenAPI document does not describe:\n${list}`);
  }

  #mismatch(line: string): void {
    this.mismatches.push(line);
    this.#report(line);
  }

  #watch(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    const keep = (chunk: unknown, encoding: unknown): void => {
      if (size > bodyCap || chunk === undefined || chunk === null) return;
      const bytes =
        typeof chunk === 'string'
          ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk)
            : null;
      if (bytes === null) return;
      size += bytes.length;
      if (size > bodyCap) chunks.length = 0;
      else chunks.push(bytes);
    };
    const write = response.write.bind(response) as (...args: unknown[]) => boolean;
    const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      keep(chunk, rest[0]);
      return write(chunk, ...rest);
    }) as typeof response.write;
    // Fastify passes its headers to writeHead, which does not keep them for getHeader.
    let type = '';
    const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
    response.writeHead = ((...args: unknown[]) => {
      type = contentType(args[1]) ?? contentType(args[2]) ?? type;
      return writeHead(...args);
    }) as typeof response.writeHead;
    // The answer is checked before its last bytes leave: a client that has it, then kills a
    // server process, finds the mismatch already reported.
    let checked = false;
    response.end = ((chunk?: unknown, ...rest: unknown[]) => {
      if (typeof chunk !== 'function') keep(chunk, rest[0]);
      // An answer to a client that has gone (a 499, say) is received by no one: not checked.
      if (!checked && !response.destroyed && !request.socket.destroyed) {
        checked = true;
        this.#checkSafely(request, response, size > bodyCap ? null : Buffer.concat(chunks), type);
      }
      return end(chunk, ...rest);
    }) as typeof response.end;
  }

  #checkSafely(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer | null,
    typeGiven: string,
  ): void {
    try {
      const type = String(response.getHeader('content-type') ?? '') || typeGiven;
      this.#checkAnswer(request, response, type, body);
    } catch (error) {
      this.#mismatch(`${request.method} ${request.url}: ${String(error)}`);
    }
  }

  #checkAnswer(
    request: IncomingMessage,
    response: ServerResponse,
    type: string,
    body: Buffer | null,
  ): void {
    const { doc, paths, ajv } = this.#loadDocument();
    let path = new URL(request.url ?? '/', 'http://host').pathname;
    // The router prefers the static segment: /api/v1/sheets/<id> is the alias of /api/v1/<id>.
    if (/^\/api\/v1\/sheets\/[^/]+/.test(path)) path = path.replace('/sheets/', '/');
    const template = paths.find(({ pattern }) => pattern.test(path))?.template;
    const method = request.method === 'HEAD' ? 'get' : (request.method ?? 'GET').toLowerCase();
    const operation = template === undefined ? undefined : doc.paths[template]?.[method];
    if (template === undefined || operation === undefined) return;
    const status = response.statusCode;
    const name = `${request.method} ${template} (${operation.operationId ?? '?'})`;
    const documented = operation.responses[String(status)];
    if (documented === undefined) {
      this.#mismatch(`${name} answered ${status}, which it does not document`);
      return;
    }
    if (request.method === 'HEAD' || status === 204 || status === 304) return;
    const media = type.split(';')[0]?.trim().toLowerCase() ?? '';
    if (documented.content === undefined) {
      if (body !== null && body.length > 0) {
        this.#mismatch(`${name} answered ${status} with a body, which it does not document`);
      }
      return;
    }
    if (documented.content[media] === undefined) {
      this.#mismatch(`${name} answered ${status} as "${media}", which it does not document`);
      return;
    }
    if (body === null || !media.includes('json')) return;
    const pointer = ['paths', template, method, 'responses', String(status), 'content', media]
      .map((part) => encodeURIComponent(part.replaceAll('~', '~0').replaceAll('/', '~1')))
      .join('/');
    const key = `sheetport-openapi#/${pointer}/schema`;
    let validate = this.#validators.get(key);
    if (validate === undefined) {
      validate = ajv.getSchema(key);
      if (validate === undefined) throw new Error(`no schema at ${key}`);
      this.#validators.set(key, validate);
    }
    if (!validate(JSON.parse(body.toString('utf8')))) {
      this.#mismatch(
        `${name} answered ${status} with a body that does not match its schema: ${ajv.errorsText(validate.errors)}`,
      );
    }
  }

  #loadDocument() {
    if (this.#document !== null) return this.#document;
    const doc = this.#source();
    const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
    formats.default(ajv);
    ajv.addFormat('binary', true);
    ajv.addSchema({ ...doc, $id: 'sheetport-openapi' });
    // Static segments take precedence over parameters, as in the router.
    const paths = Object.keys(doc.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
      }))
      .sort((a, b) => paramCount(a.template) - paramCount(b.template));
    this.#document = { doc, paths, ajv };
    return this.#document;
  }
}

/**
 * Checks every answer `app` sends against its document, failing the test when it ends on any
 * mismatch: for tests that build their app with `createApp` rather than through `build()`.
 */
export function guardAnswers(t: TestContext, app: FastifyInstance): void {
  const guard = new AnswerGuard(app);
  guard.watch(app.server);
  t.after(() => guard.check());
}

/** The Content-Type among headers given to writeHead, as an object or a flat list. */
function contentType(headers: unknown): string | undefined {
  if (Array.isArray(headers)) {
    const at = headers.findIndex((name) => String(name).toLowerCase() === 'content-type');
    return at === -1 ? undefined : String(headers[at + 1]);
  }
  if (typeof headers !== 'object' || headers === null) return undefined;
  const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type');
  return entry === undefined ? undefined : String(entry[1]);
}

const paramCount = (template: string) => template.split('{').length;

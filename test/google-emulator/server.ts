/**
 * The HTTP face of the emulator: routes Google's paths, authenticates, applies quota and injected
 * faults, runs the operation and answers in Google's JSON, keeping only the `fields` asked for. Each request is applied as soon as its
 * body has arrived, synchronously, so a spreadsheet sees requests one at a time in arrival order;
 * `latencyMs` then delays the answer. A write runs on a copy of the spreadsheet that replaces it only
 * on success, so a refused write changes nothing.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { scopesAllow, type Credentials, type Principal } from './auth.ts';
import { applyBatchUpdate } from './batch-update.ts';
import {
  ApiError,
  OAuthError,
  apiKeyInvalid,
  apiKeyNotSupported,
  callerLacksPermission,
  insufficientScopes,
  invalidCredentials,
  missingCredentials,
  notFound,
} from './errors.ts';
import { parseFields, selectFields } from './fields.ts';
import { copyTab } from './grid.ts';
import { parseJsonBody, type JsonObject } from './json.ts';
import { spreadsheetResource } from './spreadsheet-resource.ts';
import { boxOf, resolveRange, type Book } from './state.ts';
import type { RequestRecord, Traffic } from './traffic.ts';
import { appendValues } from './append.ts';
import {
  batchUpdateValues,
  clearValues,
  getValues,
  inputOption,
  renderOptions,
  updateValues,
  valueRange,
  withUpdatedData,
} from './values.ts';

export interface ServerDeps {
  books: Map<string, Book>;
  credentials: Credentials;
  traffic: Traffic;
}

interface Call {
  book: Book;
  query: URLSearchParams;
  body: JsonObject;
  range: string;
}

interface Operation {
  method: string;
  kind: 'read' | 'write';
  run: (call: Call) => { body: unknown; requestCount?: number };
}

const read = (call: Call) => (name: string) => call.query.get(name);

/** Operations by path suffix after `/v4/spreadsheets/{id}`; `{range}` stands for a values range. */
const operations: Record<string, Operation> = {
  '': {
    method: 'GET',
    kind: 'read',
    run: ({ book, query }) => ({
      body: spreadsheetResource(book, {
        ranges: query.getAll('ranges'),
        includeGridData: query.get('includeGridData') === 'true',
      }),
    }),
  },
  ':batchUpdate': {
    method: 'POST',
    kind: 'write',
    run: ({ book, body }) => {
      const { response, requestCount } = applyBatchUpdate(book, body);
      return { body: response, requestCount };
    },
  },
  '/values:batchGet': {
    method: 'GET',
    kind: 'read',
    run: (call) => {
      const options = renderOptions(read(call));
      const valueRanges = call.query.getAll('ranges').map((range) => {
        const resolved = resolveRange(call.book, range);
        return valueRange(resolved.tab, boxOf(resolved), options);
      });
      return { body: { spreadsheetId: call.book.id, valueRanges } };
    },
  },
  '/values:batchUpdate': {
    method: 'POST',
    kind: 'write',
    run: ({ book, body }) => ({ body: batchUpdateValues(book, body) }),
  },
  '/values/{range}': {
    method: 'GET',
    kind: 'read',
    run: (call) => ({ body: getValues(call.book, call.range, read(call)) }),
  },
  'PUT /values/{range}': {
    method: 'PUT',
    kind: 'write',
    run: (call) => {
      const input = inputOption(call.query.get('valueInputOption'));
      const written = updateValues(call.book, call.range, call.body, input, 'valueRange');
      return { body: withUpdatedData(written, read(call)) };
    },
  },
  '/values/{range}:append': {
    method: 'POST',
    kind: 'write',
    run: (call) => ({ body: appendValues(call.book, call.range, call.body, read(call)) }),
  },
  '/values/{range}:clear': {
    method: 'POST',
    kind: 'write',
    run: (call) => ({ body: clearValues(call.book, call.range) }),
  },
};

interface Route {
  id: string;
  range: string;
  operation: Operation;
}

function route(method: string, rawPath: string): Route | undefined {
  const match = /^\/v4\/spreadsheets\/([^/:]+)(.*)$/.exec(rawPath);
  if (!match) return undefined;
  const [, rawId = '', rest = ''] = match;
  const values = /^\/values\/(.+?)(:append|:clear)?$/.exec(rest);
  let key = rest;
  let range = '';
  if (values && !rest.startsWith('/values:')) {
    range = decodeURIComponent(values[1] ?? '');
    key = `${method === 'PUT' ? 'PUT ' : ''}/values/{range}${values[2] ?? ''}`;
  }
  const operation = operations[key];
  if (!operation || operation.method !== method) return undefined;
  return { id: decodeURIComponent(rawId), range, operation };
}

export function createListener(deps: ServerDeps): RequestListener {
  return (request, response) => {
    handle(deps, request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(
        JSON.stringify({ error: { code: 500, message: String(error), status: 'INTERNAL' } }),
      );
    });
  };
}

interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** What stats() shows of the request; unknown paths are not recorded. */
  record?: Pick<RequestRecord, 'kind' | 'principal' | 'requestCount'>;
}

async function handle(
  deps: ServerDeps,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://emulator');
  const method = request.method ?? 'GET';
  const text = await readBody(request);
  const at = Date.now();
  const outcome =
    url.pathname === '/token' && method === 'POST'
      ? token(deps, request, text)
      : api(deps, { request, url, method, text, at });
  if (outcome.record) {
    const path = decodeURIComponent(url.pathname);
    deps.traffic.record({ at, method, path, status: outcome.status, ...outcome.record });
  }
  if (deps.traffic.latencyMs > 0) await sleep(deps.traffic.latencyMs);
  response.writeHead(outcome.status, {
    'content-type': 'application/json; charset=UTF-8',
    ...outcome.headers,
  });
  response.end(JSON.stringify(outcome.body));
}

function token(deps: ServerDeps, request: IncomingMessage, text: string): Outcome {
  const record = { kind: 'token' as const };
  try {
    const body = deps.credentials.exchange(
      new URLSearchParams(text),
      request.headers.authorization,
    );
    return { status: 200, body, record };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { status: error.httpStatus, body: error.body(), record };
  }
}

interface Incoming {
  request: IncomingMessage;
  url: URL;
  method: string;
  text: string;
  at: number;
}

/** Authenticate → quota and faults → find the spreadsheet → check sharing → run → shape. */
function api(deps: ServerDeps, { request, url, method, text, at }: Incoming): Outcome {
  const found = route(method, url.pathname);
  if (!found) {
    return {
      status: 404,
      body: { error: { code: 404, message: 'Method not found.', status: 'NOT_FOUND' } },
    };
  }
  const { kind } = found.operation;
  let principal: Principal | undefined;
  try {
    principal = authenticate(deps, request, url, kind);
    const body = kind === 'write' ? parseJsonBody(text) : {};
    const fields = url.searchParams.get('fields');
    const mask = fields ? parseFields(fields) : undefined;
    const refusal =
      (kind === 'write' && principal ? deps.traffic.admitWrite(principal.email, at) : undefined) ??
      deps.traffic.takeFault(kind);
    if (refusal) throw refusal;
    const book = deps.books.get(found.id);
    if (!book) throw notFound();
    const allowed = principal
      ? book.sharedWith.has(principal.email) || (kind === 'read' && book.isPublic)
      : book.isPublic;
    if (!allowed) throw callerLacksPermission();
    const target = kind === 'write' ? { ...book, tabs: book.tabs.map(copyTab) } : book;
    const call = { book: target, query: url.searchParams, body, range: found.range };
    const result = found.operation.run(call);
    if (kind === 'write') book.tabs = target.tabs;
    return {
      status: 200,
      body: mask ? selectFields(result.body, mask) : result.body,
      record: { kind, principal: principal?.email, requestCount: result.requestCount },
    };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    const record = { kind, principal: principal?.email };
    return { status: error.code, body: error.body(), headers: error.headers, record };
  }
}

/** The principal of a Bearer token, or none for an API key on a read; refuses anything else. */
function authenticate(
  deps: ServerDeps,
  request: IncomingMessage,
  url: URL,
  kind: 'read' | 'write',
): Principal | undefined {
  const authorization = request.headers.authorization;
  if (authorization) {
    const token = /^Bearer\s+(.+)$/i.exec(authorization)?.[1];
    const principal = token ? deps.credentials.principal(token) : undefined;
    if (!principal) throw invalidCredentials();
    if (!scopesAllow(principal, kind)) throw insufficientScopes();
    return principal;
  }
  const header = request.headers['x-goog-api-key'];
  const key = url.searchParams.get('key') ?? (typeof header === 'string' ? header : null);
  if (key === null) throw missingCredentials();
  if (key !== deps.credentials.apiKeyValue) throw apiKeyInvalid();
  if (kind === 'write') throw apiKeyNotSupported();
  return undefined;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

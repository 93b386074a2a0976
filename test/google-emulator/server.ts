/**
 * The HTTP face of the emulator: routes Google's paths, authenticates, applies quota and injected
 * faults, runs the operation and answers in Google's JSON, keeping only the `fields` asked for.
 * Each request is applied as soon as its body has arrived, synchronously, so a spreadsheet sees
 * requests one at a time in arrival order; `latencyMs` then delays the answer. A write runs on a
 * draft of the spreadsheet that replaces it only on success, so a refused write changes nothing.
 * A fault `before` answers instead of running; a fault `after` runs first and replaces the answer.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { scopesAllow, type Credentials, type Principal, type ScopeNeed } from './auth.ts';
import { driveApiDisabled } from './drive.ts';
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
import type { Fault } from './faults.ts';
import { parseFields, selectFields, type FieldMask } from './fields.ts';
import { parseJsonBody, type JsonObject } from './json.ts';
import { route, type Route } from './routes.ts';
import { commit, draftOf, type Book } from './state.ts';
import type { RequestRecord, Traffic } from './traffic.ts';

export interface ServerDeps {
  books: Map<string, Book>;
  credentials: Credentials;
  traffic: Traffic;
  /** APIs the callers' Cloud project has enabled, beside Sheets. */
  services: { driveApiEnabled: boolean };
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

/** What the client gets and what the log keeps of one request. */
interface Outcome {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** Over HTTP with `status` and `body`, by destroying the socket, or never. */
  answer: RequestRecord['answer'];
  applied: boolean;
  /** Added to `latencyMs` before the answer. */
  slowMs?: number;
  /** What stats() shows of the request; unknown paths are not recorded. */
  record?: Pick<RequestRecord, 'kind' | 'principal' | 'requestCount' | 'fault'>;
  /** A `late` fault: runs the request when the emulator lets it land, whoever still listens. */
  late?: { run: () => Outcome; afterMs: number | undefined };
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
  let kept: RequestRecord | undefined;
  if (outcome.record) {
    const path = decodeURIComponent(url.pathname);
    const { status, answer, applied } = outcome;
    kept = deps.traffic.record({ at, method, path, status, answer, applied, ...outcome.record });
    deps.traffic.ran(outcome.record.kind);
  }
  const late = outcome.late;
  if (late && kept) {
    const record = kept;
    deps.traffic.hold(() => {
      const ran = late.run();
      record.applied = ran.applied;
      record.lateStatus = ran.status;
    }, late.afterMs);
  }
  // A held request stays open until the client gives up or the emulator closes its sockets.
  if (outcome.answer === 'none') return;
  const delay = deps.traffic.latencyMs + (outcome.slowMs ?? 0);
  if (delay > 0) await sleep(delay);
  if (outcome.answer === 'reset') {
    request.socket.destroy();
  } else {
    response.writeHead(outcome.status, {
      'content-type': 'application/json; charset=UTF-8',
      ...outcome.headers,
    });
    response.end(JSON.stringify(outcome.body));
  }
  if (kept) kept.answeredAt = Date.now();
}

function token(deps: ServerDeps, request: IncomingMessage, text: string): Outcome {
  const record = { kind: 'token' as const };
  try {
    const body = deps.credentials.exchange(
      new URLSearchParams(text),
      request.headers.authorization,
    );
    return { status: 200, body, answer: 'http', applied: true, record };
  } catch (error) {
    if (!(error instanceof OAuthError)) throw error;
    return { status: error.httpStatus, body: error.body(), answer: 'http', applied: false, record };
  }
}

interface Incoming {
  request: IncomingMessage;
  url: URL;
  method: string;
  text: string;
  at: number;
}

interface Admitted {
  principal: Principal | undefined;
  body: JsonObject;
  mask: FieldMask | undefined;
}

/** Authenticate → quota → fault → find the spreadsheet → check sharing → run → shape. */
function api(deps: ServerDeps, incoming: Incoming): Outcome {
  const found = route(incoming.method, incoming.url.pathname);
  if (!found) {
    return {
      status: 404,
      body: { error: { code: 404, message: 'Method not found.', status: 'NOT_FOUND' } },
      answer: 'http',
      applied: false,
    };
  }
  const { kind } = found.operation;
  let principal: Principal | undefined;
  let admitted: Admitted;
  try {
    const scope = found.operation.scope ?? kind;
    principal = authenticate(deps, incoming.request, incoming.url, scope);
    if (found.operation.service === 'drive' && !deps.services.driveApiEnabled) {
      throw driveApiDisabled();
    }
    admitted = admit(deps, incoming, found, principal);
  } catch (error) {
    return failed(error, { kind, principal: principal?.email });
  }
  const record = { kind, principal: principal?.email };
  const { fault, slowMs } = deps.traffic.faults.draw(kind);
  if (fault?.mode === 'late') {
    return {
      status: 0,
      body: undefined,
      answer: 'none',
      applied: false,
      record: { ...record, fault: { when: fault.when, mode: fault.mode } },
      late: { run: () => run(deps, found, incoming.url, admitted), afterMs: fault.applyAfterMs },
    };
  }
  if (fault?.when === 'before') return faulted(fault, { applied: false, slowMs, record });
  // A person editing while Google holds the request, before it applies.
  deps.traffic.arriving(kind);
  const outcome = run(deps, found, incoming.url, admitted);
  const ran = { ...outcome, slowMs, record: { ...record, ...outcome.record } };
  return fault ? faulted(fault, ran) : ran;
}

/** The checks that come before any fault, after credentials: body, fields, quota. */
function admit(
  deps: ServerDeps,
  incoming: Incoming,
  found: Route,
  principal: Principal | undefined,
): Admitted {
  const { kind } = found.operation;
  const body = incoming.method === 'GET' ? {} : parseJsonBody(incoming.text);
  const fields = incoming.url.searchParams.get('fields');
  const mask = fields ? parseFields(fields) : undefined;
  const overQuota =
    kind === 'write' && principal
      ? deps.traffic.admitWrite(principal.email, incoming.at)
      : undefined;
  if (overQuota) throw overQuota;
  return { principal, body, mask };
}

function run(deps: ServerDeps, found: Route, url: URL, admitted: Admitted): Outcome {
  const { kind } = found.operation;
  const { principal, body, mask } = admitted;
  try {
    const book = deps.books.get(found.id);
    const hidden = found.operation.notFound;
    if (!book) throw hidden?.(found.id) ?? notFound();
    const allowed = principal
      ? book.sharedWith.has(principal.email) || (kind === 'read' && book.isPublic)
      : book.isPublic;
    // Drive answers as if a file the caller may not see did not exist.
    if (!allowed) throw hidden?.(found.id) ?? callerLacksPermission();
    const target = kind === 'write' ? draftOf(book) : book;
    const call = { book: target, query: url.searchParams, body, param: found.param };
    const result = found.operation.run(call);
    if (kind === 'write') commit(book, target);
    return {
      status: 200,
      body: mask ? selectFields(result.body, mask) : result.body,
      answer: 'http',
      applied: true,
      record: { kind, requestCount: result.requestCount },
    };
  } catch (error) {
    return failed(error, { kind });
  }
}

function failed(error: unknown, record: Outcome['record']): Outcome {
  if (!(error instanceof ApiError)) throw error;
  const { code: status, headers } = error;
  return { status, body: error.body(), headers, answer: 'http', applied: false, record };
}

/** The answer a fault gives in place of the request's own; whatever ran stays applied. */
function faulted(
  fault: Exclude<Fault, { mode: 'late' }>,
  ran: Pick<Outcome, 'applied' | 'slowMs' | 'record'>,
): Outcome {
  const record = ran.record && { ...ran.record, fault: { when: fault.when, mode: fault.mode } };
  const base = { applied: ran.applied, slowMs: ran.slowMs, record };
  if (fault.mode === 'status') {
    const { error } = fault;
    const { code: status, headers } = error;
    return { ...base, status, body: error.body(), headers, answer: 'http' };
  }
  return { ...base, status: 0, body: undefined, answer: fault.mode === 'reset' ? 'reset' : 'none' };
}

/** The principal of a Bearer token, or none for an API key on a read; refuses anything else. */
function authenticate(
  deps: ServerDeps,
  request: IncomingMessage,
  url: URL,
  kind: ScopeNeed,
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

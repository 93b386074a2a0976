/**
 * The HTTP face of the emulator: the identity platform under `/login/` and Graph under `/v1.0/`.
 * Each request runs as soon as its body has arrived, synchronously, so a workbook sees requests one
 * at a time in arrival order. Throttling comes first, then an injected fault: `before` answers
 * instead of running, `after` runs first and replaces the answer, `late` holds the request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { runBatch } from './batch.ts';
import {
  GraphError,
  OAuthError,
  invalidToken,
  methodNotAllowed,
  noSuchRoute,
  statusError,
} from './errors.ts';
import type { Fault } from './faults.ts';
import { execute, type DriveState } from './graph-api.ts';
import type { Identity, Principal } from './identity.ts';
import { isWrite, METHODS, parseRoute, type GraphRoute } from './routes.ts';
import type { RequestRecord, Traffic } from './traffic.ts';

export interface ServerDeps {
  state: DriveState;
  identity: Identity;
  traffic: Traffic;
}

/** What the client gets and what the log keeps of one request. */
export interface Outcome {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  answer: RequestRecord['answer'];
  applied: boolean;
  record: Omit<RequestRecord, 'at' | 'method' | 'path' | 'status' | 'answer' | 'applied'>;
  /** A `late` fault: runs the request when the emulator lets it land, whoever still listens. */
  late?: { run: () => { status: number; applied: boolean }; afterMs: number | undefined };
}

export function createListener(deps: ServerDeps): RequestListener {
  return (request, response) => {
    handle(deps, request, response).catch((error: unknown) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { code: 'generalException', message: String(error) } }));
    });
  };
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
  const outcome = url.pathname.startsWith('/login/')
    ? login(deps, url.pathname, method, text, at)
    : graph(deps, { request, url, method, text, at });
  const path = safeDecode(url.pathname);
  const { status, answer, applied } = outcome;
  const kept = deps.traffic.record({
    at,
    method,
    path,
    status,
    answer,
    applied,
    ...outcome.record,
  });
  const late = outcome.late;
  if (late) {
    deps.traffic.hold(() => {
      const ran = late.run();
      kept.applied = ran.applied;
      kept.lateStatus = ran.status;
    }, late.afterMs);
  }
  // A held request stays open until the client gives up or the emulator closes its sockets.
  if (answer === 'none') return;
  if (deps.traffic.latencyMs > 0) await sleep(deps.traffic.latencyMs);
  if (answer === 'reset') {
    request.socket.destroy();
  } else {
    send(response, outcome);
  }
  kept.answeredAt = Date.now();
}

function send(response: ServerResponse, outcome: Outcome): void {
  const headers = { 'request-id': randomUUID(), ...outcome.headers };
  if (outcome.body === undefined) {
    response.writeHead(outcome.status, headers);
    response.end();
    return;
  }
  response.writeHead(outcome.status, {
    'content-type': 'application/json; charset=utf-8',
    ...headers,
  });
  response.end(JSON.stringify(outcome.body));
}

const LOGIN = /^\/login\/([^/]+)\/oauth2\/v2\.0\/(token|devicecode)$/;

function login(
  deps: ServerDeps,
  pathname: string,
  method: string,
  text: string,
  at: number,
): Outcome {
  const record = { kind: 'login' as const };
  const path = safeDecode(pathname);
  const fault = deps.traffic.faults.take({ method, path, kind: 'login', inBatch: false });
  if (fault?.when === 'before' && fault.mode !== 'late')
    return faulted(fault, { applied: false, record });
  const found = LOGIN.exec(pathname);
  let ran: Outcome;
  if (!found || method !== 'POST') {
    ran = { status: 404, body: { error: 'not_found' }, answer: 'http', applied: false, record };
  } else {
    try {
      const form = new URLSearchParams(text);
      const tenant = safeDecode(found[1] ?? '');
      const body =
        found[2] === 'token'
          ? deps.identity.token(tenant, form, at)
          : deps.identity.deviceAuthorization(tenant, form, at);
      ran = { status: 200, body, answer: 'http', applied: true, record };
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error;
      ran = { status: error.status, body: error.body(), answer: 'http', applied: false, record };
    }
  }
  return fault && fault.mode !== 'late' ? faulted(fault, ran) : ran;
}

interface Incoming {
  request: IncomingMessage;
  url: URL;
  method: string;
  text: string;
  at: number;
}

function graph(deps: ServerDeps, incoming: Incoming): Outcome {
  const { method, at } = incoming;
  const path = safeDecode(incoming.url.pathname);
  const relative = incoming.url.pathname.replace(/^\/v1\.0\//, '');
  const route = incoming.url.pathname.startsWith('/v1.0/') ? parseRoute(relative) : undefined;
  const record = { kind: 'read' as const };
  let principal: Principal;
  try {
    if (!route) throw noSuchRoute(method, path);
    if (!METHODS[route.op].methods.includes(method)) throw methodNotAllowed();
    principal = authenticate(deps, incoming.request, at);
  } catch (error) {
    return refused(error, record);
  }
  const body = method === 'GET' ? {} : parseBody(incoming.text);
  if (body instanceof GraphError) return refused(body, record);
  const header = incoming.request.headers['workbook-session-id'];
  const sessionId = typeof header === 'string' ? header : undefined;
  if (route.op === 'batch') return runBatch(deps, { body, principal, at, path });
  return single(deps, { route, method, body, sessionId, principal, now: at, path, inBatch: false });
}

export interface SingleRequest {
  route: GraphRoute;
  method: string;
  body: Record<string, unknown>;
  sessionId: string | undefined;
  principal: Principal;
  now: number;
  path: string;
  inBatch: boolean;
}

/** Throttle → fault → run, for a request on its own or inside a `$batch`. */
export function single(deps: ServerDeps, request: SingleRequest): Outcome {
  const kind: 'read' | 'write' = isWrite(request.route, request.method) ? 'write' : 'read';
  const { clientId, user } = request.principal;
  const record = { kind, clientId, user, sessionId: request.sessionId };
  const throttled = deps.traffic.admit(clientId, request.now);
  if (throttled) return refused(throttled, record);
  const { method, path, inBatch } = request;
  const fault = deps.traffic.faults.take({ method, path, kind, inBatch });
  const attempt = (now: number): Outcome => {
    const outcome = run(deps, { ...request, now }, record);
    deps.traffic.ran(kind);
    return outcome;
  };
  if (fault?.mode === 'late') {
    return {
      status: 0,
      answer: 'none',
      applied: false,
      record: { ...record, fault: { when: fault.when, mode: fault.mode } },
      late: { run: () => attempt(Date.now()), afterMs: fault.applyAfterMs },
    };
  }
  if (fault?.when === 'before') {
    deps.traffic.ran(kind);
    return faulted(fault, { applied: false, record });
  }
  const ran = attempt(request.now);
  return fault ? faulted(fault, ran) : ran;
}

function run(deps: ServerDeps, request: SingleRequest, record: Outcome['record']): Outcome {
  try {
    const ran = execute(deps.state, request);
    return { status: ran.status, body: ran.body, answer: 'http', applied: ran.applied, record };
  } catch (error) {
    return refused(error, record);
  }
}

export function refused(error: unknown, record: Outcome['record']): Outcome {
  if (!(error instanceof GraphError)) throw error;
  const { status, headers } = error;
  return { status, body: error.body(), headers, answer: 'http', applied: false, record };
}

/** The answer a fault gives in place of the request's own; whatever ran stays applied. */
function faulted(
  fault: Exclude<Fault, { mode: 'late' }>,
  ran: Pick<Outcome, 'applied' | 'record'>,
): Outcome {
  const record = { ...ran.record, fault: { when: fault.when, mode: fault.mode } };
  if (fault.mode === 'status') {
    const error = statusError(fault.status, fault.retryAfterSeconds);
    return {
      status: error.status,
      body: error.body(),
      headers: error.headers,
      answer: 'http',
      applied: ran.applied,
      record,
    };
  }
  return {
    status: 0,
    answer: fault.mode === 'reset' ? 'reset' : 'none',
    applied: ran.applied,
    record,
  };
}

const WWW_AUTHENTICATE = {
  'www-authenticate':
    'Bearer realm="", authorization_uri="https://login.microsoftonline.com/common/oauth2/authorize", client_id="00000003-0000-0000-c000-000000000000"',
};

function authenticate(deps: ServerDeps, request: IncomingMessage, now: number): Principal {
  const token = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
  const fail = (message: string) => {
    const error = invalidToken(message);
    return new GraphError(error.status, error.code, error.message, WWW_AUTHENTICATE);
  };
  if (!token) throw fail('Access token is empty.');
  const principal = deps.identity.principal(token, now);
  if (principal === 'expired') throw fail('Lifetime validation failed, the token is expired.');
  if (!principal) throw fail('IDX14100: JWT is not well formed, there are no dots (.).');
  return principal;
}

function parseBody(text: string): Record<string, unknown> | GraphError {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // answered below
  }
  return new GraphError(
    400,
    'BadRequest',
    'Unable to read JSON request payload. Please ensure Content-Type header is set and payload is of valid JSON format.',
  );
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

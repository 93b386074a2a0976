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
import { GraphError, invalidToken, methodNotAllowed, noSuchRoute } from './errors.ts';
import { single, type ServerDeps } from './graph-request.ts';
import type { Principal } from './identity.ts';
import { login } from './login.ts';
import { faulted, refused, safeDecode, type Outcome } from './outcome.ts';
import { METHODS, parseRoute } from './routes.ts';

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
  if (route.op === 'batch') return batchWithFaults(deps, { body, principal, at, path, method });
  return single(deps, { route, method, body, sessionId, principal, now: at, path, inBatch: false });
}

/**
 * A `$batch` as a whole can meet a fault of its own (rules with `only: 'batch'`): refused before
 * it runs, run with its answer lost or never sent, or held and run late, each of its requests
 * then meeting the workbook (and its sessions) as they are by then.
 */
function batchWithFaults(
  deps: ServerDeps,
  batch: {
    body: Record<string, unknown>;
    principal: Principal;
    at: number;
    path: string;
    method: string;
  },
): Outcome {
  const { body, principal, at, path, method } = batch;
  const requests = Array.isArray(body['requests']) ? (body['requests'] as unknown[]) : [];
  const holds = requests.map((request) => {
    const url = (request as { url?: unknown } | null)?.url;
    try {
      return typeof url === 'string' ? decodeURIComponent(url) : '';
    } catch {
      return String(url);
    }
  });
  const fault = deps.traffic.faults.take({ method, path, kind: 'batch', inBatch: false, holds });
  const record = { kind: 'batch' as const, clientId: principal.clientId, user: principal.user };
  const attempt = (now: number) => runBatch(deps, { body, principal, at: now, path });
  if (fault?.mode === 'late') {
    return {
      status: 0,
      answer: 'none',
      applied: false,
      record: { ...record, fault: { when: fault.when, mode: fault.mode } },
      late: { run: () => attempt(Date.now()), afterMs: fault.applyAfterMs },
    };
  }
  if (fault?.when === 'before') return faulted(fault, { applied: false, record });
  const ran = attempt(at);
  return fault ? faulted(fault, ran) : ran;
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

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

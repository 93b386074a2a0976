/**
 * JSON batching: up to 20 requests in one `POST $batch`, each answered on its own in
 * `responses[]` and none undone when another fails; `dependsOn` runs a request after the ones it
 * names, and answers 424 without running it when one of them failed.
 */
import { GraphError } from './errors.ts';
import type { Principal } from './identity.ts';
import { METHODS, parseRoute } from './routes.ts';
import { refused, single, type Outcome, type ServerDeps } from './server.ts';

export const MAX_BATCH_REQUESTS = 20;

interface BatchRequest {
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  dependsOn: string[];
}

const badBatch = (message: string) => new GraphError(400, 'BadRequest', message);

export function runBatch(
  deps: ServerDeps,
  batch: { body: Record<string, unknown>; principal: Principal; at: number; path: string },
): Outcome {
  const record = {
    kind: 'batch' as const,
    clientId: batch.principal.clientId,
    user: batch.principal.user,
  };
  let requests: BatchRequest[];
  try {
    requests = parseRequests(batch.body['requests']);
  } catch (error) {
    return refused(error, record);
  }
  const outcomes = new Map<string, Outcome>();
  const responses = order(requests).map((request) => {
    const failedDependency = request.dependsOn.some(
      (id) => (outcomes.get(id)?.status ?? 424) >= 400,
    );
    const outcome = failedDependency
      ? refused(
          new GraphError(424, 'FailedDependency', 'A request this one depends on failed.'),
          record,
        )
      : inner(deps, request, batch);
    outcomes.set(request.id, outcome);
    const headers = {
      ...(outcome.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...outcome.headers,
    };
    return {
      id: request.id,
      status: outcome.status,
      headers,
      ...(outcome.body === undefined ? {} : { body: outcome.body }),
    };
  });
  return { status: 200, body: { responses }, answer: 'http', applied: false, record };
}

function inner(
  deps: ServerDeps,
  request: BatchRequest,
  batch: { principal: Principal; at: number },
): Outcome {
  const relative = request.url.replace(/^\//, '').split('?')[0] ?? '';
  const route = parseRoute(relative);
  const path = `/v1.0/${safeDecode(relative)}`;
  const sessionId = request.headers['workbook-session-id'];
  const base = {
    kind: 'read' as const,
    clientId: batch.principal.clientId,
    batchRequestId: request.id,
  };
  let outcome: Outcome;
  if (!route || route.op === 'batch') {
    outcome = refused(
      new GraphError(400, 'BadRequest', `Invalid request URL '${request.url}'.`),
      base,
    );
  } else if (!METHODS[route.op].methods.includes(request.method)) {
    outcome = refused(
      new GraphError(405, 'MethodNotAllowed', 'The HTTP method is not allowed on this resource.'),
      base,
    );
  } else {
    outcome = single(deps, {
      route,
      method: request.method,
      body: request.body,
      sessionId,
      principal: batch.principal,
      now: Date.now(),
      path,
      inBatch: true,
    });
  }
  deps.traffic.record({
    at: batch.at,
    method: request.method,
    path,
    status: outcome.status,
    answer: 'http',
    applied: outcome.applied,
    ...outcome.record,
    batchRequestId: request.id,
  });
  return outcome;
}

function parseRequests(given: unknown): BatchRequest[] {
  if (!Array.isArray(given) || given.length === 0) throw badBatch('Invalid batch payload format.');
  if (given.length > MAX_BATCH_REQUESTS) {
    throw badBatch(`The batch request exceeds the limit of ${MAX_BATCH_REQUESTS} requests.`);
  }
  const requests = given.map(parseRequest);
  const ids = new Set(requests.map((request) => request.id));
  if (ids.size !== requests.length) throw badBatch('Batch request ids must be unique.');
  for (const request of requests) {
    if (request.dependsOn.some((id) => !ids.has(id))) {
      throw badBatch(`Request ${request.id} depends on a request that is not in the batch.`);
    }
  }
  return requests;
}

function parseRequest(value: unknown): BatchRequest {
  const object = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  const { id, method, url, headers = {}, body = {}, dependsOn = [] } = object;
  const valid =
    typeof id === 'string' &&
    typeof method === 'string' &&
    typeof url === 'string' &&
    !/^https?:/i.test(url) &&
    typeof headers === 'object' &&
    typeof body === 'object' &&
    Array.isArray(dependsOn) &&
    dependsOn.every((each) => typeof each === 'string');
  if (!valid) throw badBatch('Invalid batch payload format.');
  const lowered = Object.fromEntries(
    Object.entries(headers as Record<string, unknown>).map(([k, v]) => [
      k.toLowerCase(),
      String(v),
    ]),
  );
  return {
    id,
    method: method.toUpperCase(),
    url,
    headers: lowered,
    body: (body ?? {}) as Record<string, unknown>,
    dependsOn,
  };
}

/** The requests in an order where each comes after the ones it depends on; a cycle is refused. */
function order(requests: BatchRequest[]): BatchRequest[] {
  const done = new Set<string>();
  const ordered: BatchRequest[] = [];
  while (ordered.length < requests.length) {
    const next = requests.find((r) => !done.has(r.id) && r.dependsOn.every((id) => done.has(id)));
    // A cycle: what is left runs anyway and answers 424, as its dependencies never succeed.
    const chosen = next ?? requests.find((r) => !done.has(r.id));
    if (!chosen) break;
    done.add(chosen.id);
    ordered.push(chosen);
  }
  return ordered;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

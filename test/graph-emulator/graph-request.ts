/**
 * One Graph request on its own or inside a `$batch`: the app's throttling budget first, then an
 * injected fault (`before` answers instead of running, `after` runs first and replaces the answer,
 * `late` holds the request to run later), then the operation.
 */
import { execute, type DriveState } from './graph-api.ts';
import type { Identity, Principal } from './identity.ts';
import { faulted, refused, type Outcome } from './outcome.ts';
import { isWrite, type GraphRoute } from './routes.ts';
import type { Traffic } from './traffic.ts';

export interface ServerDeps {
  state: DriveState;
  identity: Identity;
  traffic: Traffic;
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

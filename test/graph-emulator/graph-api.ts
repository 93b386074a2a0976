/**
 * One Graph request, once authenticated and admitted: find the drive item (only within the
 * caller's tenant), its session, and run the operation on the file's workbook or the session's
 * copy of it.
 */
import {
  driveItemResource,
  itemKey,
  newSession,
  XLSX_MIME,
  type DriveItem,
  type Session,
  type Workbook,
} from './drive.ts';
import {
  accessDenied,
  driveItemNotFound,
  invalidRequest,
  invalidSession,
  notWorkbook,
} from './errors.ts';
import type { Principal } from './identity.ts';
import type { GraphRoute } from './routes.ts';
import { runOnNames } from './names-api.ts';
import { listWorksheets, runOnSheet, type Answer } from './workbook-api.ts';

export interface DriveState {
  items: Map<string, DriveItem>;
  /** Sharing URL → item key. */
  shares: Map<string, string>;
  /** A session unused this long is gone, as Excel's idle sessions expire (about 5 minutes). */
  sessionIdleMs: number;
  /** The top-level code of a refused session's answer (its second-level one stays). */
  sessionRefusalCode: string;
  /**
   * Whether app-only tokens (client credentials) may call the workbook API. Microsoft's reference
   * lists Application permissions as "Not supported" for it; false plays that, answering 403.
   */
  appTokensOpenWorkbooks: boolean;
}

export interface GraphCall {
  route: GraphRoute;
  method: string;
  body: Record<string, unknown>;
  sessionId: string | undefined;
  principal: Principal;
  now: number;
}

export interface Ran extends Answer {
  /** A write whose change landed. */
  applied: boolean;
}

export function execute(state: DriveState, call: GraphCall): Ran {
  const { route } = call;
  if (route.op === 'batch') throw invalidRequest('A $batch cannot be nested in a $batch.');
  // The signed-in user, as Graph's `GET /me` names them; an app token has no user.
  if (route.op === 'me') {
    const user = call.principal.user;
    if (user === undefined)
      throw invalidRequest('/me request is only valid with delegated authentication flow.');
    return { status: 200, body: { userPrincipalName: user, mail: user }, applied: false };
  }
  if (route.op === 'share') {
    const item = shared(state, route.shareId, call.principal);
    return { status: 200, body: driveItemResource(item), applied: false };
  }
  const item = state.items.get(itemKey(route.driveId, route.itemId));
  if (!item || item.tenant !== call.principal.tenant) throw driveItemNotFound();
  if (route.op === 'driveItem')
    return { status: 200, body: driveItemResource(item), applied: false };
  if (call.principal.user === undefined && !state.appTokensOpenWorkbooks) throw accessDenied();
  const workbook = item.workbook;
  if (!workbook || item.mimeType !== XLSX_MIME) throw notWorkbook();
  const session = sessionOf(state, item, call.sessionId, call.now);
  if (route.op === 'createSession') {
    const created = newSession(workbook, call.body['persistChanges'] === true);
    created.lastUsedAt = call.now;
    item.sessions.set(created.id, created);
    return {
      status: 201,
      body: { id: created.id, persistChanges: created.persistChanges },
      applied: false,
    };
  }
  if (route.op === 'closeSession' || route.op === 'refreshSession') {
    if (!session) throw invalidRequest('The workbook-session-id header is required.');
    if (route.op === 'closeSession') session.closed = true;
    return { status: 204, applied: false };
  }
  const target = session?.copy ?? workbook;
  if (route.op === 'worksheets') return { ...listWorksheets(target), applied: false };
  if (
    route.op === 'names' ||
    route.op === 'nameAdd' ||
    route.op === 'name' ||
    route.op === 'nameRange' ||
    route.op === 'nameRangeAction'
  ) {
    const named = runOnNames(target, route, call.method, call.body);
    if (call.method === 'GET') return { ...named, applied: false };
    if (target === workbook) touch(item, call.now);
    return { ...named, applied: true };
  }
  if (call.method === 'GET')
    return { ...runOnSheet(target, route, 'GET', call.body), applied: false };
  const answer = runOnSheet(target, route, call.method, call.body);
  if (target === workbook) touch(item, call.now);
  return { ...answer, applied: true };
}

/** A change reached the file: its eTag and modification time move. */
export function touch(item: DriveItem, now: number): void {
  item.version++;
  item.lastModified = now;
}

/** The session a request names; an unknown, closed or expired one refuses the request. */
function sessionOf(
  state: DriveState,
  item: DriveItem,
  id: string | undefined,
  now: number,
): Session | undefined {
  if (id === undefined) return undefined;
  const session = item.sessions.get(id);
  if (!session || session.closed) throw invalidSession(state.sessionRefusalCode);
  if (now - session.lastUsedAt > state.sessionIdleMs) {
    session.closed = true;
    throw invalidSession(state.sessionRefusalCode);
  }
  session.lastUsedAt = now;
  return session;
}

function shared(state: DriveState, shareId: string, principal: Principal): DriveItem {
  const url = shareId.startsWith('u!') ? decodeShareUrl(shareId.slice(2)) : undefined;
  const key = url === undefined ? undefined : state.shares.get(url);
  const item = key === undefined ? undefined : state.items.get(key);
  if (!item || item.tenant !== principal.tenant) throw driveItemNotFound();
  return item;
}

function decodeShareUrl(encoded: string): string | undefined {
  if (!/^[A-Za-z0-9_-]+$/.test(encoded)) return undefined;
  return Buffer.from(encoded, 'base64url').toString('utf8');
}

export type { Workbook };

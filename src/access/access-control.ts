import type { FastifyRequest } from 'fastify';
import { Problem, unauthorized } from '../errors/problem.ts';
import type { AccessMode, Sheet, SheetSettings } from '../model/sheet.ts';
import type { ApiKeyRecord, SheetStore } from '../store/store.ts';
import { hashSecret, parseApiKey, sameSecret, type Scope } from './api-keys.ts';
import { credentialOf } from './credentials.ts';
import { expired } from './key-expiry.ts';
import { requiredScopes } from './required-scopes.ts';

export interface AccessOptions {
  /**
   * Without it the server listens on loopback only, and every caller there without a credential
   * is the administrator; a caller that sends an API key is held to that key all the same.
   */
  adminToken: string | undefined;
}

/** Who made a request, once checked; a key with what it may do. */
export type Caller =
  | { kind: 'admin' }
  | { kind: 'key'; keyId: string; scopes: readonly string[]; expiresAt: string | null }
  | { kind: 'anonymous' };

/** Whether a caller may read the sheet it was let in to: any but a key without `read`. */
export function mayRead(caller: Caller): boolean {
  return caller.kind !== 'key' || caller.scopes.includes('read');
}

/** A credential checked without a sheet to check it against: what it opens. */
export type Identity =
  { kind: 'admin' } | { kind: 'key'; keyId: string; sheetId: string; scopes: Scope[] };

export function accessOf(sheet: Sheet): AccessMode {
  return sheet.settings.access ?? 'open';
}

/** Origins allowed by default: none for private sheets, any for sheets anyone may read. */
export function allowedOriginsOf(sheet: Sheet): string[] {
  return sheet.settings.allowedOrigins ?? (accessOf(sheet) === 'private' ? [] : ['*']);
}

/** With an administrator token the server faces a network, and new sheets start private. */
export function newSheetSettings(adminTokenSet: boolean): SheetSettings {
  return { deleteEnabled: true, access: adminTokenSet ? 'private' : 'open' };
}

/**
 * Decides who may do what. The administrator token opens everything; a sheet's API key opens
 * that sheet alone, within its scopes; without a credential, a sheet's access mode decides.
 * Answers never tell a caller without rights whether a sheet exists.
 */
export class AccessControl {
  readonly #adminHash: string | null;

  constructor(
    private readonly store: SheetStore,
    options: AccessOptions,
  ) {
    this.#adminHash = options.adminToken === undefined ? null : hashSecret(options.adminToken);
  }

  get adminTokenSet(): boolean {
    return this.#adminHash !== null;
  }

  /**
   * Guards /admin/v1. Without a token, local callers are the administrator, but only without a
   * credential: one that sends an API key is that key, which opens no management route.
   */
  admin(request: FastifyRequest): void {
    const credential = credentialOf(request);
    if (this.#adminHash === null) {
      if (credential === null) return;
      throw unauthorized(
        "No administrator token is set, so the management API is open to local callers that send no credential; an API key opens only its sheet's row API.",
      );
    }
    if (credential === null || !sameSecret(this.#adminHash, credential)) {
      throw unauthorized(
        'The management API needs the administrator token: send Authorization: Bearer <SHEETPORT_ADMIN_TOKEN>.',
      );
    }
  }

  /**
   * Guards a row API request; `sheet` is null for an id no sheet has. A request that carries an
   * API key is held to that key, its sheet and its scopes, whether or not a token is set: only
   * a local caller without any credential, on a server without a token, is the administrator.
   */
  async row(request: FastifyRequest, sheet: Sheet | null): Promise<Caller> {
    const credential = credentialOf(request);
    if (this.#adminHash === null && credential === null) return { kind: 'admin' };
    if (credential !== null && this.#adminHash !== null && sameSecret(this.#adminHash, credential))
      return { kind: 'admin' };
    const needed = requiredScopes(request.method, (request.query ?? {}) as Record<string, unknown>);
    if (credential === null) {
      const access = sheet === null ? 'private' : accessOf(sheet);
      const missing = needed.find((scope) => scope !== 'read');
      if (access === 'open' || (access === 'public-read' && missing === undefined))
        return { kind: 'anonymous' };
      throw unauthorized(
        `This request needs an API key of the sheet with the ${needed.map((s) => `"${s}"`).join(' and ')} scope${needed.length > 1 ? 's' : ''}: send Authorization: Bearer <key> or X-Api-Key: <key>.`,
      );
    }
    const key = await this.#validKey(credential, sheet);
    const missing = needed.filter((scope) => !key.scopes.includes(scope));
    const [scope] = missing;
    if (scope !== undefined) {
      throw new Problem(
        'forbidden',
        `This request needs the ${needed.map((s) => `"${s}"`).join(', ')} scope${needed.length > 1 ? 's' : ''}${needed.length > 1 ? ` (${reasonOf(needed)})` : ''}; this API key may ${key.scopes.join(', ')}, not ${missing.join(', ')}. Create a key with ${missing.length > 1 ? 'those scopes' : 'that scope'}.`,
        { scope, missing },
      );
    }
    return { kind: 'key', keyId: key.id, scopes: key.scopes, expiresAt: key.expiresAt };
  }

  /**
   * Who sends a request that names no sheet (the MCP endpoint): the administrator (by token, or
   * any local caller of a server without one that sends no credential), or the holder of a valid
   * API key, held to its sheet and scopes. Anything else answers 401.
   */
  async identify(request: FastifyRequest): Promise<Identity> {
    const credential = credentialOf(request);
    if (credential === null) {
      if (this.#adminHash === null) return { kind: 'admin' };
      throw unauthorized(
        'Send the administrator token or an API key: Authorization: Bearer <token or key>.',
      );
    }
    if (this.#adminHash !== null && sameSecret(this.#adminHash, credential))
      return { kind: 'admin' };
    const key = await this.#validKey(credential);
    return { kind: 'key', keyId: key.id, sheetId: key.sheetId, scopes: key.scopes as Scope[] };
  }

  /**
   * The stored key a credential is, its secret right and not expired, and a key of `sheet` when
   * one is asked for (null: an id no sheet has); 401 otherwise.
   */
  async #validKey(credential: string, sheet?: Sheet | null): Promise<ApiKeyRecord> {
    const parsed = parseApiKey(credential);
    const key = parsed === null ? null : await this.store.findKey(parsed.id);
    // The hash is compared even for a key of another sheet, so timing tells nothing either way.
    if (
      parsed === null ||
      key === null ||
      !sameSecret(key.hash, parsed.secret) ||
      (sheet !== undefined && key.sheetId !== sheet?.id)
    ) {
      const detail =
        sheet === undefined
          ? 'The API key is not valid.'
          : 'The API key is not valid for this sheet.';
      throw unauthorized(detail);
    }
    // Checked here, where every use of a key is (rows, event streams, MCP), and only once the
    // caller has shown the secret: saying "expired" tells nothing to one who has not.
    if (expired(key.expiresAt, Date.now())) {
      throw unauthorized(
        `The API key expired at ${key.expiresAt}; use the key that replaced it, or create one.`,
      );
    }
    return key;
  }
}

/** Why a request needs more than the scope of its method. */
function reasonOf(needed: readonly Scope[]): string {
  return needed.includes('create')
    ? 'an upsert creates rows, changes rows, and chooses them by their values'
    : 'it chooses rows by their values, which tells what they hold; choose them by _id to write without read';
}

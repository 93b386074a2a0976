/**
 * The identity platform's side: app registrations per tenant, the client-credentials,
 * device-code and refresh-token grants, and the access tokens Graph checks. Tokens are opaque
 * random strings here (the real ones are JWTs a client must not read either).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { DeviceCodes } from './device-codes.ts';
import { oauthErrors } from './oauth-errors.ts';

export interface AppCredentials {
  tenant: string;
  clientId: string;
  clientSecret: string;
}

/** Who a token speaks for: the app itself, or a user signed in through the app. */
export interface Principal {
  tenant: string;
  clientId: string;
  /** The user's sign-in name for a delegated token; absent for an app token. */
  user?: string;
}

interface AccessToken extends Principal {
  expiresAt: number;
}

interface RefreshToken extends Principal {
  scope: string;
  revoked: boolean;
}

const GRAPH_DEFAULT = 'https://graph.microsoft.com/.default';

export class Identity {
  accessTokenLifetimeSeconds = 3599;
  readonly deviceCodes = new DeviceCodes();
  /** Microsoft keeps a used refresh token valid; true makes it invalid once used. */
  revokeUsedRefreshTokens = false;
  private readonly apps = new Map<string, AppCredentials>();
  private readonly tenants = new Set<string>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, RefreshToken>();

  registerApp(input: Partial<AppCredentials> = {}): AppCredentials {
    const app = {
      tenant: input.tenant ?? randomUUID(),
      clientId: input.clientId ?? randomUUID(),
      clientSecret: input.clientSecret ?? randomBytes(30).toString('base64url'),
    };
    this.tenants.add(app.tenant);
    this.apps.set(`${app.tenant}/${app.clientId}`, app);
    return { ...app };
  }

  /** The principal of a Bearer token: 'expired' past its lifetime, undefined when unknown. */
  principal(token: string, now: number): Principal | 'expired' | undefined {
    const found = this.accessTokens.get(token);
    if (!found) return undefined;
    if (found.expiresAt <= now) return 'expired';
    const { tenant, clientId, user } = found;
    return user === undefined ? { tenant, clientId } : { tenant, clientId, user };
  }

  expireAccessTokens(): void {
    for (const token of this.accessTokens.values()) token.expiresAt = 0;
  }

  /** Revokes the refresh tokens of `user` (every user when absent), as a sign-out everywhere. */
  revokeRefreshTokens(user?: string): number {
    let count = 0;
    for (const token of this.refreshTokens.values()) {
      if (token.revoked || (user !== undefined && token.user !== user)) continue;
      token.revoked = true;
      count++;
    }
    return count;
  }

  /** `POST {tenant}/oauth2/v2.0/devicecode`. */
  deviceAuthorization(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    return this.deviceCodes.start(
      this.appTenant(tenant, clientId),
      clientId,
      form.get('scope') ?? '',
      now,
    );
  }

  /** `POST {tenant}/oauth2/v2.0/token`. */
  token(tenant: string, form: URLSearchParams, now: number) {
    const grant = form.get('grant_type');
    if (grant === 'client_credentials') return this.clientCredentials(tenant, form, now);
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      return this.deviceCodeGrant(tenant, form, now);
    }
    if (grant === 'refresh_token') return this.refreshGrant(tenant, form, now);
    throw oauthErrors.unsupportedGrant();
  }

  private clientCredentials(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    if (tenant === 'common' || tenant === 'organizations') throw oauthErrors.noTenant();
    const app = this.apps.get(`${tenant}/${clientId}`);
    if (!app || form.get('client_secret') !== app.clientSecret) throw oauthErrors.wrongSecret();
    const scope = form.get('scope');
    if (scope !== GRAPH_DEFAULT) throw oauthErrors.scopeNotDefault(scope ?? '');
    return this.issue({ tenant, clientId }, now);
  }

  private deviceCodeGrant(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    const approved = this.deviceCodes.redeem(clientId, form.get('device_code') ?? '', now);
    const { scope, ...principal } = approved;
    return this.issueDelegated(principal, scope, now);
  }

  private refreshGrant(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    const found = this.refreshTokens.get(form.get('refresh_token') ?? '');
    if (!found || found.clientId !== clientId) throw oauthErrors.unknownRefreshToken();
    if (found.revoked) throw oauthErrors.revokedRefreshToken();
    if (this.revokeUsedRefreshTokens) found.revoked = true;
    const { user = '' } = found;
    return this.issueDelegated({ tenant: found.tenant, clientId, user }, found.scope, now);
  }

  private issue(principal: Principal, now: number) {
    const accessToken = `eyJ0eXAiOiJKV1QiLCJhbGciOiJub25lIn0.${randomBytes(24).toString('base64url')}`;
    const expiresIn = this.accessTokenLifetimeSeconds;
    this.accessTokens.set(accessToken, { ...principal, expiresAt: now + expiresIn * 1000 });
    return {
      token_type: 'Bearer',
      expires_in: expiresIn,
      ext_expires_in: expiresIn,
      access_token: accessToken,
    };
  }

  private issueDelegated(principal: Required<Principal>, requested: string, now: number) {
    const issued = this.issue(principal, now);
    const scope = requested
      .split(/\s+/)
      .filter((each) => each !== '' && each !== 'offline_access')
      .join(' ');
    const offline = requested.split(/\s+/).includes('offline_access');
    if (!offline) return { ...issued, scope };
    const refreshToken = `0.A${randomBytes(48).toString('base64url')}`;
    this.refreshTokens.set(refreshToken, { ...principal, scope: requested, revoked: false });
    return { ...issued, scope, refresh_token: refreshToken };
  }

  /** The client id of a request, refusing an unknown tenant or an app not registered in it. */
  private requireClient(tenant: string, clientId: string | null): string {
    const anyTenant = tenant === 'common' || tenant === 'organizations';
    if (!anyTenant && !this.tenants.has(tenant)) throw oauthErrors.tenantNotFound(tenant);
    const known =
      clientId !== null &&
      (anyTenant ? this.tenantOf(clientId) !== undefined : this.apps.has(`${tenant}/${clientId}`));
    if (!known) throw oauthErrors.clientNotFound(clientId ?? '', tenant);
    return clientId;
  }

  private tenantOf(clientId: string): string | undefined {
    return [...this.apps.values()].find((app) => app.clientId === clientId)?.tenant;
  }

  private appTenant(tenant: string, clientId: string): string {
    return tenant === 'common' || tenant === 'organizations'
      ? (this.tenantOf(clientId) ?? tenant)
      : tenant;
  }
}

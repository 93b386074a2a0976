/**
 * The identity platform's side: app registrations per tenant, the client-credentials,
 * device-code and refresh-token grants, and the access tokens Graph checks. Tokens are opaque
 * random strings here (the real ones are JWTs a client must not read either).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { OAuthError } from './errors.ts';

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

interface DeviceCode {
  tenant: string;
  clientId: string;
  scope: string;
  userCode: string;
  expiresAt: number;
  state: 'pending' | 'approved' | 'declined';
  user?: string;
  lastPollAt?: number;
  redeemed: boolean;
}

const GRAPH_DEFAULT = 'https://graph.microsoft.com/.default';

export class Identity {
  accessTokenLifetimeSeconds = 3599;
  /** RFC 8628 `interval`: polling sooner answers `slow_down`; 0 lets a test poll at once. */
  deviceCodeIntervalSeconds = 5;
  deviceCodeLifetimeSeconds = 900;
  /** Microsoft keeps a used refresh token valid; true makes it invalid once used. */
  revokeUsedRefreshTokens = false;
  private readonly apps = new Map<string, AppCredentials>();
  private readonly tenants = new Set<string>();
  private readonly accessTokens = new Map<string, AccessToken>();
  private readonly refreshTokens = new Map<string, RefreshToken>();
  private readonly deviceCodes = new Map<string, DeviceCode>();

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
    const scope = form.get('scope') ?? '';
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = randomBytes(6).toString('hex').slice(0, 9).toUpperCase();
    this.deviceCodes.set(deviceCode, {
      tenant: this.appTenant(tenant, clientId),
      clientId,
      scope,
      userCode,
      expiresAt: now + this.deviceCodeLifetimeSeconds * 1000,
      state: 'pending',
      redeemed: false,
    });
    const verificationUri = 'https://microsoft.com/devicelogin';
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: verificationUri,
      expires_in: this.deviceCodeLifetimeSeconds,
      interval: this.deviceCodeIntervalSeconds,
      message: `To sign in, use a web browser to open the page ${verificationUri} and enter the code ${userCode} to authenticate.`,
    };
  }

  /** The person at the browser entering `userCode` and consenting, as `user`. */
  settleDeviceCode(userCode: string, outcome: 'approved' | 'declined', user: string): void {
    const code = [...this.deviceCodes.values()].find((each) => each.userCode === userCode);
    if (!code || code.state !== 'pending') throw new Error(`No pending device code ${userCode}`);
    code.state = outcome;
    code.user = user;
  }

  expireDeviceCodes(): void {
    for (const code of this.deviceCodes.values()) code.expiresAt = 0;
  }

  /** `POST {tenant}/oauth2/v2.0/token`. */
  token(tenant: string, form: URLSearchParams, now: number) {
    const grant = form.get('grant_type');
    if (grant === 'client_credentials') return this.clientCredentials(tenant, form, now);
    if (grant === 'urn:ietf:params:oauth:grant-type:device_code') {
      return this.deviceCodeGrant(tenant, form, now);
    }
    if (grant === 'refresh_token') return this.refreshGrant(tenant, form, now);
    throw new OAuthError(
      400,
      'unsupported_grant_type',
      70003,
      'The app requested an unsupported grant type.',
    );
  }

  private clientCredentials(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    if (tenant === 'common' || tenant === 'organizations') {
      throw new OAuthError(
        400,
        'invalid_request',
        50059,
        'No tenant-identifying information found in either the request or implied by any provided credentials.',
      );
    }
    const app = this.apps.get(`${tenant}/${clientId}`);
    if (!app || form.get('client_secret') !== app.clientSecret) {
      throw new OAuthError(
        401,
        'invalid_client',
        7000215,
        'Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID.',
      );
    }
    const scope = form.get('scope');
    if (scope !== GRAPH_DEFAULT) {
      throw new OAuthError(
        400,
        'invalid_scope',
        1002012,
        `The provided value for scope ${scope ?? ''} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`,
      );
    }
    return this.issue({ tenant, clientId }, now);
  }

  private deviceCodeGrant(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    const code = this.deviceCodes.get(form.get('device_code') ?? '');
    if (!code || code.clientId !== clientId || code.redeemed) {
      throw new OAuthError(400, 'invalid_grant', 70000, 'Provided grant is invalid or malformed.');
    }
    if (code.expiresAt <= now) {
      throw new OAuthError(
        400,
        'expired_token',
        70020,
        'The provided value for the input parameter device_code is not valid. This device code has expired.',
      );
    }
    const tooSoon =
      code.lastPollAt !== undefined &&
      now - code.lastPollAt < this.deviceCodeIntervalSeconds * 1000;
    code.lastPollAt = now;
    if (code.state === 'declined') {
      throw new OAuthError(
        400,
        'authorization_declined',
        70000,
        'The user declined the sign-in request.',
      );
    }
    if (code.state === 'pending') {
      if (tooSoon)
        throw new OAuthError(400, 'slow_down', 70016, 'Polling faster than the interval allows.');
      throw new OAuthError(
        400,
        'authorization_pending',
        70016,
        'OAuth 2.0 device flow error. Authorization is pending. Continue polling.',
      );
    }
    code.redeemed = true;
    return this.issueDelegated(
      { tenant: code.tenant, clientId, user: code.user ?? '' },
      code.scope,
      now,
    );
  }

  private refreshGrant(tenant: string, form: URLSearchParams, now: number) {
    const clientId = this.requireClient(tenant, form.get('client_id'));
    const presented = form.get('refresh_token') ?? '';
    const found = this.refreshTokens.get(presented);
    if (!found || found.clientId !== clientId) {
      throw new OAuthError(
        400,
        'invalid_grant',
        9002313,
        'Invalid request. Request is malformed or invalid.',
      );
    }
    if (found.revoked) {
      throw new OAuthError(
        400,
        'invalid_grant',
        50173,
        'The provided grant has expired due to it being revoked, a fresh auth token is needed.',
      );
    }
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
    if (!anyTenant && !this.tenants.has(tenant)) {
      throw new OAuthError(
        400,
        'invalid_request',
        90002,
        `Tenant '${tenant}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud.`,
      );
    }
    const known =
      clientId !== null &&
      (anyTenant ? this.tenantOf(clientId) !== undefined : this.apps.has(`${tenant}/${clientId}`));
    if (!known) {
      throw new OAuthError(
        400,
        'unauthorized_client',
        700016,
        `Application with identifier '${clientId ?? ''}' was not found in the directory '${tenant}'.`,
      );
    }
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

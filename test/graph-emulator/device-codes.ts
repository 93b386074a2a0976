/**
 * The device authorization grant (RFC 8628) as the identity platform runs it: a code the app
 * polls with while a person enters the user code at the verification page and approves or
 * declines.
 */
import { randomBytes } from 'node:crypto';
import { oauthErrors } from './oauth-errors.ts';

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

/** What an approved code signs in: a user of a tenant through an app, to a scope. */
export interface Approved {
  tenant: string;
  clientId: string;
  user: string;
  scope: string;
}

const VERIFICATION_URI = 'https://microsoft.com/devicelogin';

export class DeviceCodes {
  /** RFC 8628 `interval`: polling sooner answers `slow_down`; 0 lets a test poll at once. */
  intervalSeconds = 5;
  lifetimeSeconds = 900;
  private readonly codes = new Map<string, DeviceCode>();

  start(tenant: string, clientId: string, scope: string, now: number) {
    const deviceCode = randomBytes(32).toString('base64url');
    const userCode = randomBytes(6).toString('hex').slice(0, 9).toUpperCase();
    const expiresAt = now + this.lifetimeSeconds * 1000;
    this.codes.set(deviceCode, {
      tenant,
      clientId,
      scope,
      userCode,
      expiresAt,
      state: 'pending',
      redeemed: false,
    });
    return {
      device_code: deviceCode,
      user_code: userCode,
      verification_uri: VERIFICATION_URI,
      expires_in: this.lifetimeSeconds,
      interval: this.intervalSeconds,
      message: `To sign in, use a web browser to open the page ${VERIFICATION_URI} and enter the code ${userCode} to authenticate.`,
    };
  }

  /** The person at the browser entering `userCode` and consenting (or not), as `user`. */
  settle(userCode: string, outcome: 'approved' | 'declined', user: string): void {
    const code = [...this.codes.values()].find((each) => each.userCode === userCode);
    if (!code || code.state !== 'pending') throw new Error(`No pending device code ${userCode}`);
    code.state = outcome;
    code.user = user;
  }

  expireAll(): void {
    for (const code of this.codes.values()) code.expiresAt = 0;
  }

  /** A poll of the token endpoint: the sign-in once approved, else the refusal RFC 8628 names. */
  redeem(clientId: string, deviceCode: string, now: number): Approved {
    const code = this.codes.get(deviceCode);
    if (!code || code.clientId !== clientId) throw oauthErrors.unknownDeviceCode();
    if (code.redeemed) throw oauthErrors.deviceCodeRedeemed();
    if (code.expiresAt <= now) throw oauthErrors.deviceCodeExpired();
    const tooSoon =
      code.lastPollAt !== undefined && now - code.lastPollAt < this.intervalSeconds * 1000;
    code.lastPollAt = now;
    if (code.state === 'declined') throw oauthErrors.declined();
    if (code.state === 'pending') throw tooSoon ? oauthErrors.slowDown() : oauthErrors.pending();
    code.redeemed = true;
    return { tenant: code.tenant, clientId, user: code.user ?? '', scope: code.scope };
  }
}

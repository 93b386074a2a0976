import { Problem } from '../../errors/problem.ts';
import { postForm, tokenRefusal, type TokenAnswer } from './graph-tokens.ts';

/**
 * The OAuth device authorization grant (RFC 8628) against the Microsoft identity platform: the
 * server asks for a user code, a person enters it at the verification page and consents, and
 * the server, polling the token endpoint meanwhile, receives a refresh token it keeps.
 */

/** Delegated access to the files the user can reach, and a refresh token to keep it. */
export const delegatedScope = 'https://graph.microsoft.com/Files.ReadWrite offline_access';

/** Where a delegated sign-in is sent: no secret, only the application and the tenant. */
export interface SignInSettings {
  clientId: string;
  /** A tenant id or domain, `common` (any account) or `consumers` (personal accounts only). */
  tenant: string;
  loginUrl: string;
}

/** A device code the identity platform handed out, with what the person must do. */
export interface DeviceCode {
  deviceCode: string;
  userCode: string;
  verificationUri: string;
  /** Epoch milliseconds after which the code is worth nothing. */
  expiresAt: number;
  /** Seconds to wait between polls, as the identity platform asked. */
  intervalSeconds: number;
  message: string;
}

/** The tokens a completed sign-in gives. */
export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  expiresInMs: number;
}

/** What a poll of the token endpoint means for the flow. */
export type PollStep =
  | { kind: 'wait'; intervalSeconds: number }
  | { kind: 'signed-in'; tokens: SignedIn }
  | { kind: 'failed'; reason: 'declined' | 'expired' | 'refused'; detail: string };

/** RFC 8628 section 3.5: `slow_down` adds five seconds to the interval, for good. */
const slowDownSeconds = 5;

/**
 * The step a token endpoint answer leads to, for `intervalSeconds` the current interval. A
 * throttled or failing identity platform (429, 5xx) is waited out like a pending one: the code's
 * expiry ends the flow.
 */
export function nextStep(status: number, answer: TokenAnswer, intervalSeconds: number): PollStep {
  if (status === 200 && typeof answer.access_token === 'string') {
    if (typeof answer.refresh_token !== 'string') {
      return {
        kind: 'failed',
        reason: 'refused',
        detail: 'Microsoft gave no refresh token: the application must be allowed offline_access.',
      };
    }
    const seconds = Number(answer.expires_in ?? 3600);
    return {
      kind: 'signed-in',
      tokens: {
        accessToken: answer.access_token,
        refreshToken: answer.refresh_token,
        expiresInMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000,
      },
    };
  }
  if (status === 429 || status >= 500) return { kind: 'wait', intervalSeconds };
  const detail = firstLine(answer, status);
  switch (answer.error) {
    case 'authorization_pending':
      return { kind: 'wait', intervalSeconds };
    case 'slow_down':
      return { kind: 'wait', intervalSeconds: intervalSeconds + slowDownSeconds };
    // `access_denied` is RFC 8628's name; Microsoft answers `authorization_declined`.
    case 'authorization_declined':
    case 'access_denied':
      return { kind: 'failed', reason: 'declined', detail: 'The sign-in was declined.' };
    case 'expired_token':
      return {
        kind: 'failed',
        reason: 'expired',
        detail: 'The code expired before the sign-in was completed.',
      };
    default:
      return { kind: 'failed', reason: 'refused', detail };
  }
}

function firstLine(answer: TokenAnswer, status: number): string {
  const text = answer.error_description ?? answer.error ?? `status ${status}`;
  return text.split(/\r?\n/)[0] ?? text;
}

const endpoint = (settings: SignInSettings, path: 'devicecode' | 'token') =>
  `${settings.loginUrl}${encodeURIComponent(settings.tenant)}/oauth2/v2.0/${path}`;

interface DeviceCodeAnswer extends TokenAnswer {
  device_code?: string;
  user_code?: string;
  verification_uri?: string;
  expires_in?: number | string;
  interval?: number | string;
  message?: string;
}

/** Asks for a device code; a refusal (unknown application or tenant) is a Problem naming it. */
export async function requestDeviceCode(
  settings: SignInSettings,
  now: () => number = Date.now,
): Promise<DeviceCode> {
  const { status, answer } = await postForm(endpoint(settings, 'devicecode'), {
    client_id: settings.clientId,
    scope: delegatedScope,
  });
  const given = answer as DeviceCodeAnswer;
  if (
    status !== 200 ||
    typeof given.device_code !== 'string' ||
    typeof given.user_code !== 'string' ||
    typeof given.verification_uri !== 'string'
  ) {
    throw tokenRefusal(status === 200 ? 502 : status, answer, settings.tenant);
  }
  const expiresIn = Number(given.expires_in ?? 900);
  const interval = Number(given.interval ?? 5);
  return {
    deviceCode: given.device_code,
    userCode: given.user_code,
    verificationUri: given.verification_uri,
    expiresAt: now() + (Number.isFinite(expiresIn) ? expiresIn : 900) * 1000,
    intervalSeconds: Number.isFinite(interval) && interval >= 0 ? interval : 5,
    message: given.message ?? `Open ${given.verification_uri} and enter ${given.user_code}.`,
  };
}

/** Waits `ms`, or rejects as soon as `signal` aborts. */
export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', abort, { once: true });
  });

/**
 * Polls the token endpoint for a device code until the person completes the sign-in, declines
 * it, or the code expires: the interval the identity platform asked for between polls, longer
 * after each `slow_down`. Unreachable is waited out like pending. Aborting `signal` stops it.
 */
export async function pollDeviceCode(
  settings: SignInSettings,
  code: DeviceCode,
  signal: AbortSignal,
  clock: { now: () => number; sleep: Sleep } = { now: Date.now, sleep },
): Promise<Exclude<PollStep, { kind: 'wait' }>> {
  let interval = code.intervalSeconds;
  for (;;) {
    await clock.sleep(interval * 1000, signal);
    if (clock.now() >= code.expiresAt) {
      return {
        kind: 'failed',
        reason: 'expired',
        detail: 'The code expired before the sign-in was completed.',
      };
    }
    const form = {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      client_id: settings.clientId,
      device_code: code.deviceCode,
    };
    let step: PollStep;
    try {
      const { status, answer } = await postForm(endpoint(settings, 'token'), form, signal);
      step = nextStep(status, answer, interval);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      step = { kind: 'wait', intervalSeconds: interval };
    }
    if (step.kind !== 'wait') return step;
    interval = step.intervalSeconds;
  }
}

import type { CredentialStore } from '../../store/provider-credentials.ts';
import type { ProviderSignIn, SignInStarted, SignInStatus } from '../sign-in.ts';
import { microsoftCredential } from './delegated-tokens.ts';
import {
  delegatedScope,
  pollDeviceCode,
  requestDeviceCode,
  type DeviceCode,
  type PollStep,
  type SignInSettings,
} from './device-code.ts';

type Ended = Exclude<PollStep, { kind: 'wait' }>;

export interface MicrosoftSignInOptions extends SignInSettings {
  graphUrl: string;
  /** Told when the stored sign-in changed, so that tokens of the old one are dropped. */
  changed?: () => void;
  /** Told when keeping a completed sign-in failed (the store refused). */
  failed?: (error: unknown) => void;
}

/**
 * Delegated sign-in by device code: `start` asks Microsoft for a user code and polls for its
 * completion in the background; the refresh token it brings is kept in the store. One sign-in
 * runs at a time per server (a new one replaces it); a completed sign-in is in the store, which
 * every server sharing it sees, while a pending one is known to the server that started it.
 */
export class MicrosoftSignIn implements ProviderSignIn {
  readonly #options: MicrosoftSignInOptions;
  readonly #credentials: CredentialStore;
  #pending: { code: DeviceCode; abort: AbortController; done: Promise<SignInStatus> } | null = null;
  #failure: Extract<SignInStatus, { state: 'failed' }> | null = null;
  /**
   * Changes of the kept sign-in, one after another: a completed sign-in is kept only if it is
   * still the one pending when its turn comes, and a sign-out's delete follows any keep begun
   * before it. So the last word wins: a sign-in cancelled or replaced stores nothing.
   */
  #turn: Promise<unknown> = Promise.resolve();

  constructor(options: MicrosoftSignInOptions, credentials: CredentialStore) {
    this.#options = options;
    this.#credentials = credentials;
  }

  async start(): Promise<SignInStarted> {
    const code = await requestDeviceCode(this.#options);
    this.#pending?.abort.abort();
    const abort = new AbortController();
    const done = pollDeviceCode(this.#options, code, abort.signal)
      .then((ended) => this.#settle(code, ended, abort.signal))
      .catch((error: unknown) => {
        if (abort.signal.aborted) return { state: 'signed-out' } as const;
        this.#options.failed?.(error);
        return this.#fail(code, {
          kind: 'failed',
          reason: 'refused',
          detail: 'The sign-in could not be kept: the database refused it. Try again.',
        });
      });
    this.#pending = { code, abort, done };
    this.#failure = null;
    return started(code);
  }

  async completion(): Promise<SignInStatus> {
    return this.#pending === null ? this.status() : this.#pending.done;
  }

  async status(): Promise<SignInStatus> {
    if (this.#pending !== null) return { state: 'pending', ...started(this.#pending.code) };
    const kept = await this.#credentials.get(microsoftCredential);
    if (kept !== null) {
      return { state: 'signed-in', account: kept.account, signedInAt: kept.createdAt };
    }
    return this.#failure ?? { state: 'signed-out' };
  }

  async signOut(): Promise<boolean> {
    const pending = this.#pending;
    this.#pending = null;
    this.#failure = null;
    pending?.abort.abort();
    const removed = await this.#inTurn(() => this.#credentials.delete(microsoftCredential));
    this.#options.changed?.();
    return removed || pending !== null;
  }

  close(): void {
    this.#pending?.abort.abort();
    this.#pending = null;
  }

  async #settle(code: DeviceCode, ended: Ended, signal: AbortSignal): Promise<SignInStatus> {
    if (ended.kind === 'failed') return this.#fail(code, ended);
    const { accessToken, refreshToken } = ended.tokens;
    const account = this.#pending?.code === code ? await this.#account(accessToken, signal) : null;
    // Signed out, or another sign-in started, while this one was completed or its account
    // asked for: it is not kept. Checked in turn, so no sign-out can slip in before the keep.
    const kept = await this.#inTurn(async () => {
      if (this.#pending?.code !== code) return false;
      const now = new Date().toISOString();
      await this.#credentials.put({
        provider: microsoftCredential,
        account,
        refreshToken,
        clientId: this.#options.clientId,
        tenant: this.#options.tenant,
        scope: delegatedScope,
        createdAt: now,
        updatedAt: now,
      });
      // A sign-in started meanwhile stays pending, and will replace this one in its turn.
      if (this.#pending?.code === code) this.#pending = null;
      return true;
    });
    if (kept) this.#options.changed?.();
    return this.status();
  }

  #inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#turn.then(work, work);
    this.#turn = result.catch(() => undefined);
    return result;
  }

  #fail(code: DeviceCode, failed: Extract<Ended, { kind: 'failed' }>): SignInStatus {
    const status = { state: 'failed', reason: failed.reason, detail: failed.detail } as const;
    if (this.#pending?.code === code) {
      this.#pending = null;
      this.#failure = status;
    }
    return status;
  }

  /** Who signed in, by Graph's `GET me`; null when Graph would not say (the sign-in stands). */
  async #account(accessToken: string, cancelled: AbortSignal): Promise<string | null> {
    try {
      const response = await fetch(`${this.#options.graphUrl}me`, {
        headers: { authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.any([cancelled, AbortSignal.timeout(10_000)]),
      });
      if (!response.ok) return null;
      const me = (await response.json()) as Record<string, unknown>;
      const name = me.userPrincipalName ?? me.mail ?? me.displayName;
      return typeof name === 'string' && name !== '' ? name : null;
    } catch {
      return null;
    }
  }
}

/** What the person signing in is shown of a device code. */
function started({ userCode, verificationUri, expiresAt, message }: DeviceCode): SignInStarted {
  return { userCode, verificationUri, expiresAt: new Date(expiresAt).toISOString(), message };
}

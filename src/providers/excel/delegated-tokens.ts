import { Problem } from '../../errors/problem.ts';
import type { CredentialStore, ProviderCredential } from '../../store/provider-credentials.ts';
import { delegatedScope, type SignInSettings } from './device-code.ts';
import { cachedTokens, postForm, tokenRefusal, type GraphTokens } from './graph-tokens.ts';

/** The name a Microsoft sign-in's refresh token is kept under in the store. */
export const microsoftCredential = 'microsoft';

/** The problem of a sign-in that is missing, or that Microsoft no longer honours. */
export function signInRequired(why: string): Problem {
  return new Problem(
    'sign-in-required',
    `${why} An administrator must sign in to Microsoft: \`sheetport sign-in excel\`, or "Sign in with Microsoft" in the console.`,
    { provider: 'excel' },
  );
}

/**
 * Access tokens of the signed-in user, from the refresh token kept in the store: each refresh
 * rotates it, and the new one is stored before the access token is handed out, so that a crash
 * right after never leaves the store holding a spent token. Servers sharing the store refresh
 * one at a time (the credential's lock), each with the token the one before it stored.
 */
export function delegatedTokens(
  settings: Pick<SignInSettings, 'loginUrl'>,
  credentials: CredentialStore,
  now: () => number = Date.now,
): GraphTokens & { signedIn(): Promise<boolean> } {
  const refresh = (signal?: AbortSignal) =>
    credentials.exclusive(microsoftCredential, async () => {
      let spent: string | null = null;
      for (;;) {
        const record = await credentials.get(microsoftCredential);
        if (record === null) throw signInRequired('No one is signed in to Microsoft.');
        if (record.refreshToken === spent) {
          throw signInRequired(
            'Microsoft refused the sign-in kept by Sheetport (revoked, expired, or the password changed).',
          );
        }
        spent = record.refreshToken;
        const answer = await redeem(settings, record, signal);
        // Refused: unless a process outside the lock (`sheetport sign-in excel`) rotated it meanwhile.
        if (answer === 'refused') continue;
        if (await credentials.rotate(microsoftCredential, record.refreshToken, answer.refreshToken))
          return { token: answer.accessToken, expiresInMs: answer.expiresInMs };
        // Someone signed in anew (or out) while this token was redeemed: its access token is of
        // the sign-in replaced, and is not used. The one kept now is redeemed instead.
        spent = null;
      }
    });
  const tokens = cachedTokens(refresh, now);
  return {
    token: (signal) => tokens.token(signal),
    refused: () => tokens.refused(),
    signedIn: async () => (await credentials.get(microsoftCredential)) !== null,
  };
}

/** One refresh-token grant: new tokens, `refused` (invalid_grant), or a Problem. */
async function redeem(
  settings: Pick<SignInSettings, 'loginUrl'>,
  record: ProviderCredential,
  signal?: AbortSignal,
): Promise<{ accessToken: string; refreshToken: string; expiresInMs: number } | 'refused'> {
  const url = `${settings.loginUrl}${encodeURIComponent(record.tenant)}/oauth2/v2.0/token`;
  const form = {
    grant_type: 'refresh_token',
    client_id: record.clientId,
    refresh_token: record.refreshToken,
    scope: delegatedScope,
  };
  const { status, answer } = await postForm(url, form, signal);
  if (status === 200 && typeof answer.access_token === 'string') {
    const seconds = Number(answer.expires_in ?? 3600);
    return {
      accessToken: answer.access_token,
      // Microsoft rotates the token at each refresh; one that did not keeps the old one.
      refreshToken: answer.refresh_token ?? record.refreshToken,
      expiresInMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : 3600) * 1000,
    };
  }
  if (answer.error === 'invalid_grant') return 'refused';
  throw tokenRefusal(status, answer, record.tenant);
}

/**
 * The tokens the Excel provider uses: the signed-in user's when someone signed in (they reach
 * personal OneDrive too, and only what that user may), else the application's own (app-only),
 * else a problem saying to sign in. The store is asked at each token, so that a sign-in or
 * sign-out made on any server sharing it (or by `sheetport sign-out excel`) counts at once.
 */
export function microsoftTokens(
  delegated: GraphTokens & { signedIn(): Promise<boolean> },
  appOnly: GraphTokens | null,
): GraphTokens {
  let last: GraphTokens | null = null;
  return {
    async token(signal) {
      if (await delegated.signedIn()) {
        last = delegated;
        return delegated.token(signal);
      }
      // Signed out: the user's last access token is not used again.
      delegated.refused();
      if (appOnly === null) {
        throw signInRequired(
          'No one is signed in to Microsoft, and no client secret is set for app-only access.',
        );
      }
      last = appOnly;
      return appOnly.token(signal);
    },
    refused() {
      last?.refused();
    },
  };
}

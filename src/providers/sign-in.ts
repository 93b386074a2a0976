import type { CredentialStore } from '../store/provider-credentials.ts';

/** A sign-in just started: what the person signing in is shown. */
export interface SignInStarted {
  /** The code the person enters. */
  userCode: string;
  /** The page where they enter it. */
  verificationUri: string;
  /** When the code stops working (ISO 8601). */
  expiresAt: string;
  /** The provider's instructions, in words. */
  message: string;
}

/** Where a provider's sign-in stands, as the console and `sheetport sign-in-status` show it. */
export type SignInStatus =
  | { state: 'signed-out' }
  | ({ state: 'pending' } & SignInStarted)
  | { state: 'signed-in'; account: string | null; signedInAt: string }
  | { state: 'failed'; reason: 'declined' | 'expired' | 'refused'; detail: string };

/**
 * Signing in to a provider as a user, for documents its application cannot reach on its own:
 * started by the server, completed by the person at the provider's page. A completed sign-in is
 * kept in the store's credentials, so every server sharing the store uses it.
 */
export interface ProviderSignIn {
  /** Starts a sign-in, replacing one under way; a refusal of the application is a Problem. */
  start(): Promise<SignInStarted>;
  status(): Promise<SignInStatus>;
  /** Resolves once the sign-in under way ends (at once when none is), with where it stands. */
  completion(): Promise<SignInStatus>;
  /** Ends a sign-in under way and forgets the kept one; false when there was neither. */
  signOut(): Promise<boolean>;
  /** Stops waiting for a sign-in under way, as the server closes. */
  close(): void;
}

/** What a provider opens with besides its settings: where a sign-in is kept, and a log. */
export interface ProviderContext {
  /** The store's credentials; without them, a provider opens without its sign-in. */
  credentials?: CredentialStore;
  /** Told of a failure in the background (e.g. keeping a completed sign-in), for the log. */
  onError?: (error: unknown, what: string) => void;
}

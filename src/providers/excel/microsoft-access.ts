import type { CredentialStore } from '../../store/provider-credentials.ts';
import type { LiveProvider } from '../registry.ts';
import { delegatedTokens, microsoftTokens } from './delegated-tokens.ts';
import { ExcelProvider } from './excel-provider.ts';
import { clientCredentialTokens, type GraphTokens } from './graph-tokens.ts';
import { MicrosoftSignIn } from './microsoft-sign-in.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';

/** The tenant of a delegated sign-in when none is set: any work, school or personal account. */
export const anyAccountTenant = 'common';

/** How Sheetport reaches Microsoft Graph: the user signed in, the application, or both. */
export interface MicrosoftAccess {
  /** Null without an application (client) id: nothing to sign in to. */
  signIn: MicrosoftSignIn | null;
  /** The tokens the Excel provider uses (see `microsoftTokens`); null when neither path is set. */
  tokens: GraphTokens | null;
}

/**
 * The delegated path needs only the application id (and a tenant, `common` by default); the
 * app-only path needs the tenant and a client secret too. With both, a sign-in wins while it
 * lasts (signing out falls back to the application's own access).
 */
export function microsoftAccess(
  settings: Pick<
    MicrosoftSettings,
    'tenantId' | 'clientId' | 'clientSecret' | 'loginUrl' | 'graphUrl'
  >,
  credentials: CredentialStore,
  onStoreError?: (error: unknown) => void,
): MicrosoftAccess {
  const { clientId } = settings;
  if (clientId === undefined) return { signIn: null, tokens: null };
  const appOnly =
    settings.tenantId !== undefined && settings.clientSecret !== undefined
      ? clientCredentialTokens(settings)
      : null;
  const delegated = delegatedTokens(settings, credentials);
  const signIn = new MicrosoftSignIn(
    {
      clientId,
      tenant: settings.tenantId ?? anyAccountTenant,
      loginUrl: settings.loginUrl,
      graphUrl: settings.graphUrl,
      // Tokens of a sign-in that was replaced or ended are not used again.
      changed: () => delegated.refused(),
      ...(onStoreError === undefined ? {} : { failed: onStoreError }),
    },
    credentials,
  );
  return { signIn, tokens: microsoftTokens(delegated, appOnly) };
}

/**
 * The Excel provider reaching Graph with `access`'s tokens: the signed-in user's, else the
 * application's. Configured with the application id alone, so that someone can sign in.
 */
export function openExcelWith(
  settings: MicrosoftSettings,
  access: MicrosoftAccess,
): Promise<LiveProvider | null> {
  return Promise.resolve(
    access.tokens === null ? null : new ExcelProvider(settings, access.tokens),
  );
}

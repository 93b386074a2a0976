import type { CredentialStore } from '../../store/provider-credentials.ts';
import type { LiveProvider } from '../registry.ts';
import type { ProviderContext, ProviderSignIn } from '../sign-in.ts';
import { delegatedTokens, microsoftTokens } from './delegated-tokens.ts';
import { openExcel } from './excel-kind.ts';
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
 * The Excel provider and its sign-in: with the store's credentials, reaching Graph as the
 * signed-in user else as the application (configured with the application id alone, so that
 * someone can sign in); without them, as the application only.
 */
export async function openExcelAccess(
  settings: MicrosoftSettings,
  { credentials, onError }: ProviderContext,
): Promise<{ provider: LiveProvider | null; signIn: ProviderSignIn | null }> {
  if (credentials === undefined) return { provider: await openExcel(settings), signIn: null };
  const access = microsoftAccess(
    settings,
    credentials,
    onError && ((error) => onError(error, 'keeping the Microsoft sign-in failed')),
  );
  return {
    provider: access.tokens === null ? null : new ExcelProvider(settings, access.tokens),
    signIn: access.signIn,
  };
}

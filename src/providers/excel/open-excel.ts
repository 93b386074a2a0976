import { ExcelProvider } from './excel-provider.ts';
import { clientCredentialTokens } from './graph-tokens.ts';
import type { MicrosoftSettings } from './microsoft-settings.ts';

/** Excel access as the application itself (a client secret), when configured; null otherwise. */
export function openExcel(settings: MicrosoftSettings): ExcelProvider | null {
  const { tenantId, clientId, clientSecret } = settings;
  if (tenantId === undefined || clientId === undefined || clientSecret === undefined) return null;
  return new ExcelProvider(settings, clientCredentialTokens(settings));
}

import { Type } from '@sinclair/typebox';
import type { ConnectRequest, LiveProvider, ProviderKind } from '../registry.ts';
import type { GoogleSettings } from './google-settings.ts';
import { googleSource } from './google-source.ts';
import { parseSpreadsheetId } from './spreadsheet-ref.ts';

/** Google Sheets as the registry knows it, whether or not this server has Google access. */
export const googleKind: ProviderKind = {
  name: 'google',
  requestSchema: Type.Object(
    {
      provider: Type.Literal('google'),
      spreadsheetId: Type.String({
        minLength: 1,
        description: 'The spreadsheet id, or its address as the browser shows it.',
      }),
      tab: Type.Optional(
        Type.String({
          description:
            'The tab to serve; the first by default. "*" makes a sheet of every tab, named "<name> / <tab>".',
        }),
      ),
    },
    { additionalProperties: false, title: 'Google Sheets tab' },
  ),
  sourceSchema: Type.Object({
    provider: Type.Literal('google'),
    spreadsheetId: Type.String(),
    tab: Type.String(),
    tabId: Type.Integer(),
  }),
  statusSchema: Type.Object({
    configured: Type.Boolean(),
    canWrite: Type.Boolean(),
    shareWith: Type.Union([Type.String(), Type.Null()], {
      description: 'The address to share spreadsheets with.',
    }),
  }),
  unconfigured: { configured: false, canWrite: false, shareWith: null },
  setupHint:
    'set SHEETPORT_GOOGLE_CREDENTIALS (or SHEETPORT_GOOGLE_API_KEY for read-only sheets), as the README explains.',
  parseSource(source): ConnectRequest {
    const tab = typeof source['tab'] === 'string' ? source['tab'] : undefined;
    return { document: parseSpreadsheetId(String(source['spreadsheetId'])), tab };
  },
  tabOf(source) {
    const google = googleSource(source);
    return { document: google.spreadsheetId, id: String(google.tabId), title: google.tab };
  },
};

/**
 * Google access, when it is configured; null otherwise. Google's client libraries take a while
 * to load, so a server without Google access never loads them.
 */
export async function openGoogle(settings: GoogleSettings): Promise<LiveProvider | null> {
  if (settings.credentials === undefined && settings.apiKey === undefined) return null;
  const { googleIdentity } = await import('./google-auth.ts');
  const identity = googleIdentity(settings);
  if (identity === null) return null;
  const { GoogleProvider } = await import('./google-provider.ts');
  return new GoogleProvider(identity, settings);
}

/**
 * The real Google clients, configured to talk to an emulator instead of Google.
 *
 * The one trick: google-auth-library's JWT gets its token through gtoken, which posts to the
 * hard-coded https://oauth2.googleapis.com/token and ignores the key's `token_uri`. But gtoken sends
 * through the JWT client's `transporter` (a Gaxios instance), and Gaxios runs its request
 * interceptors after it has resolved the URL and before it fetches, so an interceptor that swaps
 * that one URL for the emulator's token URL redirects the token request and nothing else. The same
 * transporter carries the Sheets requests, which already go to the emulator through `rootUrl`.
 */
import { sheets, type sheets_v4 } from '@googleapis/sheets';
import { gaxios, JWT, OAuth2Client } from 'google-auth-library';
import type { GoogleSheetsEmulator, ServiceAccountKey } from './index.ts';

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';
export const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

/** A Gaxios whose requests to Google's token endpoint go to `tokenUrl` instead. */
export function tokenRedirectingTransporter(tokenUrl: string): gaxios.Gaxios {
  const transporter = new gaxios.Gaxios();
  transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url.href === GOOGLE_TOKEN_URL) options.url = new URL(tokenUrl);
      return options;
    },
  });
  return transporter;
}

/** A service-account client, as Sheetport builds one from a key file, signing in at the emulator. */
export function serviceAccountClient(
  emulator: GoogleSheetsEmulator,
  key: ServiceAccountKey,
  options: { scopes?: string[]; forceRefreshOnFailure?: boolean } = {},
): JWT {
  return new JWT({
    email: key.client_email,
    key: key.private_key,
    scopes: options.scopes ?? [SHEETS_SCOPE],
    forceRefreshOnFailure: options.forceRefreshOnFailure ?? false,
    transporter: tokenRedirectingTransporter(emulator.tokenUrl),
  });
}

/** An OAuth client holding a refresh token; its token URL is configurable, so no trick is needed. */
export function refreshTokenClient(
  emulator: GoogleSheetsEmulator,
  credentials: { clientId: string; clientSecret: string; refreshToken: string },
): OAuth2Client {
  const client = new OAuth2Client({
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    endpoints: { oauth2TokenUrl: emulator.tokenUrl },
  });
  client.setCredentials({ refresh_token: credentials.refreshToken });
  return client;
}

/** The Sheets v4 client, with `auth` an auth client or an API key. */
export function sheetsClient(
  emulator: GoogleSheetsEmulator,
  auth: JWT | OAuth2Client | string,
): sheets_v4.Sheets {
  return sheets({ version: 'v4', auth, rootUrl: `${emulator.url}/` });
}

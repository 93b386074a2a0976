import { readFileSync } from 'node:fs';
import { JWT, OAuth2Client, type AuthClient } from 'google-auth-library';
import { ConfigError } from '../../errors/config-error.ts';
import type { GoogleSettings } from './google-settings.ts';

/** Who Sheetport is to Google. */
export interface GoogleIdentity {
  auth: OAuth2Client | string;
  /** The address spreadsheets must be shared with, when there is one. */
  email: string | null;
  canWrite: boolean;
}

/**
 * Sheets to read and write; Drive's read-only file metadata to learn a spreadsheet's version
 * (a user's credentials must have been consented to both, see the README).
 */
const scopes = [
  'https://www.googleapis.com/auth/spreadsheets',
  'https://www.googleapis.com/auth/drive.metadata.readonly',
];
/** The token endpoint google-auth-library has built in (gtoken offers no option to change it). */
const googleTokenUrl = 'https://oauth2.googleapis.com/token';

interface KeyFile {
  type?: string;
  client_email?: string;
  private_key?: string;
  private_key_id?: string;
  client_id?: string;
  client_secret?: string;
  refresh_token?: string;
}

/** Builds the Google identity from the settings; null when no Google access is configured. */
export function googleIdentity(settings: GoogleSettings): GoogleIdentity | null {
  if (settings.credentials === undefined) {
    return settings.apiKey === undefined
      ? null
      : { auth: settings.apiKey, email: null, canWrite: false };
  }
  const key = readKeyFile(settings.credentials);
  if (key.type === 'service_account' && key.client_email && key.private_key) {
    const auth = new JWT({
      email: key.client_email,
      key: key.private_key,
      keyId: key.private_key_id,
      scopes,
    });
    redirectTokenRequests(auth, settings.tokenUrl);
    return { auth, email: key.client_email, canWrite: true };
  }
  if (key.type === 'authorized_user' && key.client_id && key.client_secret && key.refresh_token) {
    const auth = new OAuth2Client({
      clientId: key.client_id,
      clientSecret: key.client_secret,
      endpoints: { oauth2TokenUrl: settings.tokenUrl },
    });
    auth.setCredentials({ refresh_token: key.refresh_token });
    return { auth, email: null, canWrite: true };
  }
  throw new ConfigError(
    'SHEETPORT_GOOGLE_CREDENTIALS must hold a service-account key ("type": "service_account") or an OAuth client with a refresh token ("type": "authorized_user").',
  );
}

function readKeyFile(credentials: string): KeyFile {
  const text = credentials.trimStart().startsWith('{') ? credentials : readKey(credentials);
  try {
    return JSON.parse(text) as KeyFile;
  } catch {
    throw new ConfigError('SHEETPORT_GOOGLE_CREDENTIALS is not valid JSON.');
  }
}

function readKey(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `SHEETPORT_GOOGLE_CREDENTIALS names a file that cannot be read (${(error as Error).message}).`,
    );
  }
}

/**
 * Sends a client's requests for Google's built-in token endpoint to the configured one instead,
 * so that a proxy, a private endpoint or an emulator can stand in for it. The service-account
 * client hands its HTTP client to gtoken, which has the endpoint built in.
 */
function redirectTokenRequests(auth: AuthClient, tokenUrl: string): void {
  if (tokenUrl === googleTokenUrl) return;
  auth.transporter.interceptors.request.add({
    resolved: async (options) => {
      if (options.url.href === googleTokenUrl) options.url = new URL(tokenUrl);
      return options;
    },
  });
}

/**
 * Who is calling: service-account keys whose RS256 JWT assertions the token endpoint verifies,
 * OAuth clients with refresh tokens, API keys, and the access tokens handed out for them.
 */
import { generateKeyPairSync, randomBytes, randomInt, verify, type KeyObject } from 'node:crypto';
import { DRIVE_METADATA_SCOPES } from './drive.ts';
import { OAuthError } from './errors.ts';

/** A service-account key file, field for field as the Cloud console hands it out. */
export interface ServiceAccountKey {
  type: 'service_account';
  project_id: string;
  private_key_id: string;
  private_key: string;
  client_email: string;
  client_id: string;
  auth_uri: string;
  token_uri: string;
  auth_provider_x509_cert_url: string;
  client_x509_cert_url: string;
  universe_domain: string;
}

export interface OAuthClientCredentials {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

export interface Principal {
  email: string;
  scopes: string[];
}

export interface TokenResponse {
  access_token: string;
  expires_in: number;
  token_type: 'Bearer';
  scope?: string;
}

const PROJECT_ID = 'sheetport-emulator';
const ACCESS_TOKEN_SECONDS = 3599;
const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';
/** Audiences Google accepts in a JWT-bearer assertion; gtoken always signs the first. */
const GOOGLE_TOKEN_AUDIENCES = [
  'https://oauth2.googleapis.com/token',
  'https://www.googleapis.com/oauth2/v4/token',
  'https://accounts.google.com/o/oauth2/token',
];

const digits = (count: number): string =>
  Array.from({ length: count }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');

export class Credentials {
  private readonly keys = new Map<string, { key: ServiceAccountKey; publicKey: KeyObject }>();
  private readonly clients = new Map<
    string,
    { secret: string; refreshTokens: Map<string, { email: string; scopes: string[] }> }
  >();
  private readonly tokens = new Map<string, Principal & { expiresAt: number }>();
  readonly apiKeyValue = `AIza${randomBytes(27).toString('base64url').slice(0, 35)}`;

  constructor(private readonly tokenUrl: string) {}

  serviceAccount(name = 'sheetport'): ServiceAccountKey {
    const email = `${name}@${PROJECT_ID}.iam.gserviceaccount.com`;
    const known = this.keys.get(email);
    if (known) return { ...known.key };
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const key: ServiceAccountKey = {
      type: 'service_account',
      project_id: PROJECT_ID,
      private_key_id: randomBytes(20).toString('hex'),
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      client_email: email,
      client_id: digits(21),
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: this.tokenUrl,
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
      universe_domain: 'googleapis.com',
    };
    this.keys.set(email, { key, publicKey });
    return { ...key };
  }

  oauthClient(email = 'user@example.com', scopes = [SHEETS_SCOPE]): OAuthClientCredentials {
    const clientId = `${digits(12)}-${randomBytes(16).toString('hex')}.apps.googleusercontent.com`;
    const clientSecret = `GOCSPX-${randomBytes(21).toString('base64url').slice(0, 28)}`;
    const refreshToken = `1//0${randomBytes(72).toString('base64url')}`;
    this.clients.set(clientId, {
      secret: clientSecret,
      refreshTokens: new Map([[refreshToken, { email, scopes }]]),
    });
    return { clientId, clientSecret, refreshToken };
  }

  /** The principal behind a live access token. */
  principal(accessToken: string, now = Date.now()): Principal | undefined {
    const token = this.tokens.get(accessToken);
    return token && token.expiresAt > now ? token : undefined;
  }

  /** Makes every access token handed out so far expire, as an hour passing would. */
  expireAccessTokens(): void {
    this.tokens.clear();
  }

  /** POST /token, with the form fields and the Authorization header of the request. */
  exchange(form: URLSearchParams, authorization: string | undefined): TokenResponse {
    const grantType = form.get('grant_type');
    if (grantType === 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return this.jwtBearer(form.get('assertion') ?? '');
    }
    if (grantType === 'refresh_token') return this.refresh(form, authorization);
    throw new OAuthError('unsupported_grant_type', `Invalid grant_type: ${grantType ?? ''}`);
  }

  private issue(email: string, scopes: string[]): TokenResponse {
    const accessToken = `ya29.${randomBytes(96).toString('base64url')}`;
    this.tokens.set(accessToken, {
      email,
      scopes,
      expiresAt: Date.now() + ACCESS_TOKEN_SECONDS * 1000,
    });
    return { access_token: accessToken, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer' };
  }

  private jwtBearer(assertion: string): TokenResponse {
    const [header, payload, signature] = assertion.split('.');
    const claims = decodeSegment(payload);
    if (
      !header ||
      !payload ||
      signature === undefined ||
      !claims ||
      decodeSegment(header)?.alg !== 'RS256'
    ) {
      throw new OAuthError('invalid_grant', 'Invalid JWT Signature.');
    }
    const iss = typeof claims.iss === 'string' ? claims.iss : '';
    const account = this.keys.get(iss);
    if (!account) throw new OAuthError('invalid_grant', 'Invalid grant: account not found');
    const signed = verify(
      'RSA-SHA256',
      Buffer.from(`${header}.${payload}`),
      account.publicKey,
      Buffer.from(signature, 'base64url'),
    );
    if (!signed) throw new OAuthError('invalid_grant', 'Invalid JWT Signature.');
    const now = Math.floor(Date.now() / 1000);
    const { iat, exp, aud, scope } = claims;
    const timely =
      typeof iat === 'number' &&
      typeof exp === 'number' &&
      exp > now &&
      iat <= now + 300 &&
      exp - iat <= 3600;
    if (!timely) {
      throw new OAuthError(
        'invalid_grant',
        'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.',
      );
    }
    if (typeof aud !== 'string' || ![...GOOGLE_TOKEN_AUDIENCES, this.tokenUrl].includes(aud)) {
      throw new OAuthError('invalid_grant', 'Invalid JWT: Failed audience check.');
    }
    if (typeof scope !== 'string' || scope.trim() === '') {
      throw new OAuthError('invalid_scope', 'Invalid OAuth scope or ID token audience provided.');
    }
    return this.issue(iss, scope.split(/\s+/));
  }

  private refresh(form: URLSearchParams, authorization: string | undefined): TokenResponse {
    let clientId = form.get('client_id') ?? '';
    let clientSecret = form.get('client_secret') ?? '';
    if (authorization?.startsWith('Basic ')) {
      const decoded = Buffer.from(authorization.slice(6), 'base64').toString();
      [clientId = '', clientSecret = ''] = decoded.split(':').map(decodeURIComponent);
    }
    const client = this.clients.get(clientId);
    if (!client) throw new OAuthError('invalid_client', 'The OAuth client was not found.', 401);
    if (client.secret !== clientSecret) throw new OAuthError('invalid_client', 'Unauthorized', 401);
    // A refresh token carries the scopes the user consented to; asking for more needs consent.
    const grant = client.refreshTokens.get(form.get('refresh_token') ?? '');
    if (!grant) throw new OAuthError('invalid_grant', 'Bad Request');
    return { ...this.issue(grant.email, grant.scopes), scope: grant.scopes.join(' ') };
  }
}

function decodeSegment(segment: string | undefined): Record<string, unknown> | undefined {
  if (!segment) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString());
    return typeof value === 'object' && value !== null
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

const WRITE_SCOPES = [
  SHEETS_SCOPE,
  'https://www.googleapis.com/auth/drive',
  'https://www.googleapis.com/auth/drive.file',
];
const READ_SCOPES = [
  ...WRITE_SCOPES,
  'https://www.googleapis.com/auth/spreadsheets.readonly',
  'https://www.googleapis.com/auth/drive.readonly',
];

/** What a method needs: a read or a write of the Sheets API, or Drive's file metadata. */
export type ScopeNeed = 'read' | 'write' | 'drive-metadata';

/** Whether a token's scopes allow a read or a write of the Sheets API, or a Drive metadata read. */
export function scopesAllow(principal: Principal, kind: ScopeNeed): boolean {
  const needed =
    kind === 'write' ? WRITE_SCOPES : kind === 'read' ? READ_SCOPES : DRIVE_METADATA_SCOPES;
  return principal.scopes.some((scope) => needed.includes(scope));
}

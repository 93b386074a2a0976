import { Type, type Static } from '@sinclair/typebox';

/** Google's settings, from the `SHEETPORT_GOOGLE_*` variables of `googleEnv`. */
export interface GoogleSettings {
  /** A service-account key or an OAuth `authorized_user` file: JSON text or a path to it. */
  credentials: string | undefined;
  /** Read-only access to spreadsheets shared publicly, when there are no credentials. */
  apiKey: string | undefined;
  apiUrl: string;
  /** The Drive API root, asked for a spreadsheet's version; Drive's own when not given. */
  driveUrl?: string;
  tokenUrl: string;
  deadlineMs: number;
  /** Upstream writes allowed per window; Google's quota is per minute, tests use shorter ones. */
  writesPerMinute: number;
  writeWindowMs?: number;
  /** Sheets reads per minute of the identity, of which watching takes a share; 60 when unset. */
  readsPerMinute?: number;
  /** Characters of push tags a spreadsheet may hold (see `reservePushTag`); 16,000 when unset. */
  tagBudgetChars?: number;
  /** How long a tag is kept past its push's deadline; 5 minutes when unset (tests: shorter). */
  tagRetentionMs?: number;
}

/** The variables that configure Google access, for the configuration schema to include. */
export const googleEnv = {
  SHEETPORT_GOOGLE_CREDENTIALS: Type.Optional(Type.String({ minLength: 1 })),
  SHEETPORT_GOOGLE_API_KEY: Type.Optional(Type.String({ minLength: 1 })),
  SHEETPORT_GOOGLE_API_URL: Type.String({
    default: 'https://sheets.googleapis.com/',
    pattern: '^https?://',
  }),
  SHEETPORT_GOOGLE_DRIVE_URL: Type.String({
    default: 'https://www.googleapis.com/',
    pattern: '^https?://',
  }),
  SHEETPORT_GOOGLE_TOKEN_URL: Type.String({
    default: 'https://oauth2.googleapis.com/token',
    pattern: '^https?://',
  }),
  SHEETPORT_GOOGLE_DEADLINE_MS: Type.Integer({ default: 30_000, minimum: 1000, maximum: 600_000 }),
  SHEETPORT_GOOGLE_WRITES_PER_MINUTE: Type.Integer({ default: 60, minimum: 1 }),
  SHEETPORT_GOOGLE_READS_PER_MINUTE: Type.Integer({ default: 60, minimum: 1 }),
  SHEETPORT_GOOGLE_TAG_BUDGET_CHARS: Type.Integer({ default: 16_000, minimum: 500 }),
};

/** The settings from the variables of `googleEnv`, once the schema has checked them. */
export function googleSettings(
  env: Static<ReturnType<typeof Type.Object<typeof googleEnv>>>,
): GoogleSettings {
  return {
    credentials: env.SHEETPORT_GOOGLE_CREDENTIALS,
    apiKey: env.SHEETPORT_GOOGLE_API_KEY,
    // The client library joins paths onto the root URL, which must end in a slash.
    apiUrl: env.SHEETPORT_GOOGLE_API_URL.replace(/\/?$/, '/'),
    driveUrl: env.SHEETPORT_GOOGLE_DRIVE_URL.replace(/\/?$/, '/'),
    tokenUrl: env.SHEETPORT_GOOGLE_TOKEN_URL,
    deadlineMs: env.SHEETPORT_GOOGLE_DEADLINE_MS,
    writesPerMinute: env.SHEETPORT_GOOGLE_WRITES_PER_MINUTE,
    readsPerMinute: env.SHEETPORT_GOOGLE_READS_PER_MINUTE,
    tagBudgetChars: env.SHEETPORT_GOOGLE_TAG_BUDGET_CHARS,
  };
}

import { Type, type Static } from '@sinclair/typebox';

/** How Sheetport reaches Microsoft Graph (see the README's configuration table). */
export interface MicrosoftSettings {
  /** The Microsoft Entra tenant: its id (a GUID) or a domain such as contoso.onmicrosoft.com. */
  tenantId: string | undefined;
  /** The application (client) id registered in the tenant. */
  clientId: string | undefined;
  /** The application's client secret, for app-only access. */
  clientSecret: string | undefined;
  /** The identity platform's root, ending in a slash. */
  loginUrl: string;
  /** Graph's root with its version, ending in a slash. */
  graphUrl: string;
  /** How long a write may wait for Graph, retries included. */
  deadlineMs: number;
  /** Upstream write requests allowed per window; tests use shorter windows. */
  writesPerMinute: number;
  writeWindowMs?: number;
}

/** The variables that configure Microsoft Graph access, for the configuration schema to include. */
export const microsoftEnv = {
  SHEETPORT_MICROSOFT_TENANT_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.\\-]+$' })),
  SHEETPORT_MICROSOFT_CLIENT_ID: Type.Optional(Type.String({ minLength: 1 })),
  SHEETPORT_MICROSOFT_CLIENT_SECRET: Type.Optional(Type.String({ minLength: 1 })),
  SHEETPORT_MICROSOFT_LOGIN_URL: Type.String({
    default: 'https://login.microsoftonline.com/',
    pattern: '^https?://',
  }),
  SHEETPORT_MICROSOFT_GRAPH_URL: Type.String({
    default: 'https://graph.microsoft.com/v1.0/',
    pattern: '^https?://',
  }),
  SHEETPORT_MICROSOFT_DEADLINE_MS: Type.Integer({
    default: 30_000,
    minimum: 1000,
    maximum: 600_000,
  }),
  SHEETPORT_MICROSOFT_WRITES_PER_MINUTE: Type.Integer({ default: 120, minimum: 1 }),
};

/** The settings from the variables of `microsoftEnv`, once the schema has checked them. */
export function microsoftSettings(
  env: Static<ReturnType<typeof Type.Object<typeof microsoftEnv>>>,
): MicrosoftSettings {
  return {
    tenantId: env.SHEETPORT_MICROSOFT_TENANT_ID,
    clientId: env.SHEETPORT_MICROSOFT_CLIENT_ID,
    clientSecret: env.SHEETPORT_MICROSOFT_CLIENT_SECRET,
    // Paths are joined onto these roots, which must end in a slash.
    loginUrl: env.SHEETPORT_MICROSOFT_LOGIN_URL.replace(/\/?$/, '/'),
    graphUrl: env.SHEETPORT_MICROSOFT_GRAPH_URL.replace(/\/?$/, '/'),
    deadlineMs: env.SHEETPORT_MICROSOFT_DEADLINE_MS,
    writesPerMinute: env.SHEETPORT_MICROSOFT_WRITES_PER_MINUTE,
  };
}

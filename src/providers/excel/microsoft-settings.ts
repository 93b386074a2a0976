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

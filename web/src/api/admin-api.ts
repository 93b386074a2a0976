import { request } from './client.ts';
import type {
  ApiKey,
  KeyScope,
  MirroredTab,
  NewApiKey,
  NewMirroredSheet,
  Providers,
  Row,
  Sheet,
  SheetPatch,
  SheetsCreated,
  NewWebhook,
  Webhook,
  WebhookDelivery,
  WebhookEvent,
} from './types.ts';

/** The management API, /admin/v1, one function per request the console makes. */

const sheetPath = (id: string) => `/admin/v1/sheets/${encodeURIComponent(id)}`;

export const listSheets = (token?: string | null) =>
  request<Sheet[]>('GET', '/admin/v1/sheets', undefined, token);

export const getSheet = (id: string) => request<Sheet>('GET', sheetPath(id));

export const createSheet = (name: string, columns: string[], rows?: Row[]) =>
  request<Sheet>('POST', '/admin/v1/sheets', { name, columns, ...(rows ? { rows } : {}) });

export type GoogleConnection = Omit<MirroredTab<'google'>, 'provider'> &
  Pick<NewMirroredSheet, 'name' | 'freshnessSeconds'>;

export const connectGoogleSheet = ({
  spreadsheetId,
  tab,
  name,
  freshnessSeconds,
}: GoogleConnection) =>
  request<Sheet | SheetsCreated>('POST', '/admin/v1/sheets', {
    ...(name ? { name } : {}),
    source: { provider: 'google', spreadsheetId, ...(tab ? { tab } : {}) },
    ...(freshnessSeconds === undefined ? {} : { freshnessSeconds }),
  });

export const updateSheet = (id: string, patch: SheetPatch) =>
  request<Sheet>('PATCH', sheetPath(id), patch);

export const removeSheet = (id: string) => request<void>('DELETE', sheetPath(id));

export const getProviders = () => request<Providers>('GET', '/admin/v1/providers');

export const listKeys = (sheetId: string) => request<ApiKey[]>('GET', `${sheetPath(sheetId)}/keys`);

export const createKey = (
  sheetId: string,
  scopes: KeyScope[],
  name?: string,
  expiresInSeconds?: number,
) =>
  request<NewApiKey>('POST', `${sheetPath(sheetId)}/keys`, {
    scopes,
    ...(name ? { name } : {}),
    ...(expiresInSeconds === undefined ? {} : { expiresInSeconds }),
  });

/** A new key of the same scopes and name; the old one works on for `overlapSeconds`. */
export const rotateKey = (sheetId: string, keyId: string, overlapSeconds: number) =>
  request<NewApiKey>('POST', `${sheetPath(sheetId)}/keys/${encodeURIComponent(keyId)}/rotate`, {
    overlapSeconds,
  });

export const revokeKey = (sheetId: string, keyId: string) =>
  request<void>('DELETE', `${sheetPath(sheetId)}/keys/${encodeURIComponent(keyId)}`);

export const listWebhooks = (sheetId: string) =>
  request<Webhook[]>('GET', `${sheetPath(sheetId)}/webhooks`);

export const createWebhook = (sheetId: string, url: string, events: WebhookEvent[]) =>
  request<NewWebhook>('POST', `${sheetPath(sheetId)}/webhooks`, { url, events });

export const deleteWebhook = (sheetId: string, webhookId: string) =>
  request<undefined>('DELETE', `${sheetPath(sheetId)}/webhooks/${encodeURIComponent(webhookId)}`);

/** A new signing secret; the old one signs beside it for `overlapSeconds`. */
export const rotateWebhookSecret = (sheetId: string, webhookId: string, overlapSeconds: number) =>
  request<NewWebhook>(
    'POST',
    `${sheetPath(sheetId)}/webhooks/${encodeURIComponent(webhookId)}/rotate-secret`,
    { overlapSeconds },
  );

export const listDeliveries = (sheetId: string, webhookId: string) =>
  request<WebhookDelivery[]>(
    'GET',
    `${sheetPath(sheetId)}/webhooks/${encodeURIComponent(webhookId)}/deliveries`,
  );

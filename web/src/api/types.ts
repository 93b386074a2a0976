/**
 * The shapes of the management and row APIs. `Sheet`, rows, cells and key scopes come from
 * `openapi.ts`, generated from the server's OpenAPI document (`npm run api-types`), so that the
 * console follows the server's schemas instead of restating them.
 */
import type { AccessMode } from '../../../src/model/sheet.ts';
import type { components, operations } from './openapi.ts';

export type Row = operations['readRows']['responses'][200]['content']['application/json'][number];
export type Cell = Row[string];

export type KeyScope =
  operations['createApiKey']['requestBody']['content']['application/json']['scopes'][number];
/** Every scope, in the order the console offers them: a scope the document adds or drops fails here. */
const offered: Record<KeyScope, true> = { read: true, create: true, update: true, delete: true };
export const keyScopes = Object.keys(offered) as KeyScope[];

// A sheet's source and access modes are the server's own definitions.
export { accessModes } from '../../../src/model/sheet.ts';
export type { AccessMode, SheetSource } from '../../../src/model/sheet.ts';

type DocumentedSheet = components['schemas']['Sheet'];
/** The document types `access` as text; its values are the access modes. */
export type SheetSettings = Omit<DocumentedSheet['settings'], 'access'> & { access: AccessMode };
export type Sheet = Omit<DocumentedSheet, 'settings'> & { settings: SheetSettings };

/** The answer to `tab=*`: a sheet per tab, and the tabs skipped with the reason. */
export interface SheetsCreated {
  sheets: Sheet[];
  skipped: { tab: string; reason: string }[];
}

export type SheetPatch = Partial<{
  name: string;
  deleteEnabled: boolean;
  access: AccessMode;
  allowedOrigins: string[];
  freshnessSeconds: number;
  /** null: watched while it has a webhook on or an event stream opened with a key. */
  watch: boolean | null;
  /** The columns kept as text, the whole list; a column added has its cells made text. */
  textColumns: string[];
}>;

export interface ApiKey {
  id: string;
  name: string;
  scopes: KeyScope[];
  createdAt: string;
  /** When it stops working; null for never. */
  expiresAt: string | null;
  /** The key that replaced it, when it was rotated. */
  rotatedTo: string | null;
  /** The key it replaced, when a rotation made it. */
  replaces: string | null;
}

/** A key as created: the only answer that carries the secret. */
export interface NewApiKey extends ApiKey {
  key: string;
}

export interface Providers {
  google: { configured: boolean; canWrite: boolean; shareWith: string | null };
}

/** One offending cell of a refused header row. */
export interface HeaderCellProblem {
  cell: string;
  problem: string;
}

export const webhookEvents = [
  'rows.created',
  'rows.updated',
  'rows.deleted',
  'columns.changed',
] as const;
export type WebhookEvent = (typeof webhookEvents)[number];

export interface Webhook {
  id: string;
  url: string;
  events: WebhookEvent[];
  createdAt: string;
  /** Until when deliveries are also signed with the secret before the last rotation. */
  previousSecretExpiresAt: string | null;
  disabledAt?: string | null;
  disabledReason?: string | null;
}

export interface NewWebhook extends Webhook {
  /** The signing secret: shown once, when created. */
  secret: string;
}

export interface WebhookDelivery {
  eventId: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  nextRetryAt: string | null;
  at: string;
}

/**
 * The shapes of the management and row APIs, named from `openapi.ts`, which is generated from the
 * server's OpenAPI document (`npm run api-types`): the console follows the server's schemas
 * instead of restating them, and a schema the server changes fails the console's typecheck.
 */
import type { components, operations } from './openapi.ts';

type Schemas = components['schemas'];

export type Row = operations['readRows']['responses'][200]['content']['application/json'][number];
export type Cell = Row[string];

export type Sheet = Schemas['Sheet'];
export type SheetSource = Sheet['source'];
export type AccessMode = Sheet['settings']['access'];
export type SheetPatch = Schemas['SheetPatch'];
type NewSheet = operations['createSheet']['requestBody']['content'];
/** A sheet that mirrors a provider's tab, as asked for. */
export type NewMirroredSheet = Extract<NewSheet['application/json'], { source: unknown }>;
/** The tab to mirror, as the provider named `Provider` finds it. */
export type MirroredTab<Provider extends string> = Extract<
  NewMirroredSheet['source'],
  { provider: Provider }
>;
/** The fields of an upload's form that the console sends beside the file. */
export type UploadFields = Pick<NewSheet['multipart/form-data'], 'name' | 'tab' | 'decimal'>;
/** The answer to `tab=*`: a sheet per tab, and the tabs skipped with the reason. */
export type SheetsCreated = Schemas['SheetsCreated'];

export type ApiKey = Schemas['ApiKey'];
/** A key as created or rotated: the only answer that carries the secret. */
export type NewApiKey = Schemas['NewApiKey'];
export type KeyScope = ApiKey['scopes'][number];

export type Webhook = Schemas['Webhook'];
/** A webhook as created or given a new secret: the only answer that carries the secret. */
export type NewWebhook = Schemas['NewWebhook'];
export type WebhookEvent = Webhook['events'][number];
export type WebhookDelivery = Schemas['WebhookDelivery'];

export type Providers = operations['getProviders']['responses'][200]['content']['application/json'];

/**
 * Every value of a closed set, in the order the console offers them. The record must name each
 * value the document has, no more: a value the document adds or drops fails the typecheck here.
 */
const everyValue = <Value extends string>(offered: Record<Value, true>) =>
  Object.keys(offered) as Value[];

export const accessModes = everyValue<AccessMode>({
  open: true,
  'public-read': true,
  private: true,
});
export const keyScopes = everyValue<KeyScope>({
  read: true,
  create: true,
  update: true,
  delete: true,
});
export const webhookEvents = everyValue<WebhookEvent>({
  'rows.created': true,
  'rows.updated': true,
  'rows.deleted': true,
  'columns.changed': true,
});

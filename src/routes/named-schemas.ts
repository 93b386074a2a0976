import { Type, type TSchema } from '@sinclair/typebox';
import { scopes } from '../access/api-keys.ts';
import type { ProviderKind } from '../providers/registry.ts';
import { ProblemDocument, sheetDescription, SheetPatch } from './schemas.ts';

/**
 * The answers the OpenAPI document names (`components/schemas`), so that a client (the console
 * among them) gets their types by name. Each is added to the app once and routes point at it with
 * a `$ref`; the secret-bearing answer of a creation or rotation is a schema of its own, since only
 * it carries the secret.
 */

export const eventTypes = [
  'rows.created',
  'rows.updated',
  'rows.deleted',
  'columns.changed',
] as const;

const ApiKey = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    scopes: Type.Array(Type.Union(scopes.map((scope) => Type.Literal(scope)))),
    createdAt: Type.String({ format: 'date-time' }),
    expiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When the key stops working; null for never.',
    }),
    rotatedTo: Type.Union([Type.String(), Type.Null()], {
      description: 'The key that replaced this one when it was rotated.',
    }),
    replaces: Type.Union([Type.String(), Type.Null()], {
      description: 'The key this one replaced, when it was made by a rotation.',
    }),
  },
  { $id: 'ApiKey', description: 'An API key, without its secret.' },
);

const NewApiKey = Type.Intersect(
  [
    Type.Ref('ApiKey'),
    Type.Object({ key: Type.String({ description: 'The key itself: shown once, when created.' }) }),
  ],
  {
    $id: 'NewApiKey',
    description: 'A key as created or rotated: the only answer with its secret.',
  },
);

const Webhook = Type.Object(
  {
    id: Type.String(),
    url: Type.String(),
    events: Type.Array(Type.Union(eventTypes.map((type) => Type.Literal(type)))),
    createdAt: Type.String({ format: 'date-time' }),
    previousSecretExpiresAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description:
        'Until when deliveries are also signed with the secret before the last rotation.',
    }),
    disabledAt: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    disabledReason: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { $id: 'Webhook', description: 'A webhook, without its signing secret.' },
);

const NewWebhook = Type.Intersect(
  [
    Type.Ref('Webhook'),
    Type.Object({
      secret: Type.String({
        description: 'The signing secret (`whsec_…`): shown once, when created or rotated.',
      }),
    }),
  ],
  { $id: 'NewWebhook', description: 'A webhook as created or given a new secret.' },
);

const WebhookDelivery = Type.Object(
  {
    eventId: Type.String(),
    type: Type.String(),
    attempt: Type.Integer(),
    status: Type.Union([Type.Integer(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
    nextRetryAt: Type.Union([Type.String(), Type.Null()]),
    at: Type.String(),
  },
  { $id: 'WebhookDelivery', description: 'One attempt to deliver an event to a webhook.' },
);

/** The answer to `tab=*`: a sheet per tab, and the tabs left out (no usable header, or connected). */
const SheetsCreated = Type.Object(
  {
    sheets: Type.Array(Type.Ref('Sheet')),
    skipped: Type.Array(
      Type.Object({
        tab: Type.String(),
        reason: Type.String({
          description:
            "Why it was left out: its header row is not usable, or (a provider's tab) a sheet already mirrors it.",
        }),
        sheet: Type.Optional(
          Type.Object(
            { id: Type.String(), name: Type.String() },
            { description: 'The sheet that already mirrors the tab.' },
          ),
        ),
      }),
    ),
  },
  { $id: 'SheetsCreated', description: 'Sheets made from every tab at once (tab=*).' },
);

/** Every named schema, to add to the app before its routes; a sheet's sources are the providers'. */
export function namedSchemas(providers: readonly ProviderKind[]): TSchema[] {
  return [
    ProblemDocument,
    sheetDescription(providers),
    SheetPatch,
    SheetsCreated,
    ApiKey,
    NewApiKey,
    Webhook,
    NewWebhook,
    WebhookDelivery,
  ];
}

/** A reference to a named schema, by the name the document gives it. */
export const named = (
  name:
    | 'Sheet'
    | 'SheetPatch'
    | 'SheetsCreated'
    | 'ApiKey'
    | 'NewApiKey'
    | 'Webhook'
    | 'NewWebhook'
    | 'WebhookDelivery',
) => Type.Ref(name);

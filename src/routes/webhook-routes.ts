import { randomBytes } from 'node:crypto';
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Problem } from '../errors/problem.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { DeliveryRecord, WebhookRecord } from '../store/store.ts';
import { resolveDestination } from '../webhooks/destination.ts';
import { overlapEnd } from '../access/key-expiry.ts';
import { newWebhookSecret } from '../webhooks/signature.ts';
import {
  adminOperation,
  adminParams,
  emptyBodyAsObject,
  problemResponses,
  RotateWebhookSecret,
} from './schemas.ts';
import { eventTypes, named } from './named-schemas.ts';

const NewWebhook = Type.Object(
  {
    url: Type.String({ maxLength: 2048, description: 'Where events are POSTed: http(s).' }),
    events: Type.Optional(
      Type.Array(Type.Union(eventTypes.map((type) => Type.Literal(type))), {
        minItems: 1,
        uniqueItems: true,
        description: 'The event types sent; all of them by default.',
      }),
    ),
  },
  { additionalProperties: false },
);

const webhookParams = Type.Object({ sheetId: Type.String(), webhookId: Type.String() });

const describe = (webhook: WebhookRecord) => ({
  id: webhook.id,
  url: webhook.url,
  events: webhook.events,
  createdAt: webhook.createdAt,
  previousSecretExpiresAt:
    webhook.previousSecret !== null &&
    Date.parse(webhook.previousSecretExpiresAt ?? '') > Date.now()
      ? webhook.previousSecretExpiresAt
      : null,
  disabledAt: webhook.disabledAt,
  disabledReason: webhook.disabledReason,
});

const describeDelivery = ({ webhookId: _, ...delivery }: DeliveryRecord) => delivery;

/** A sheet's webhooks: made (the secret shown once), listed, removed, and their recent attempts. */
export async function webhookRoutes(
  app: FastifyInstance,
  { sheets, allowPrivate }: { sheets: Sheets; allowPrivate: boolean },
): Promise<void> {
  type SheetRequest = FastifyRequest<{ Params: Static<typeof adminParams> }>;
  type WebhookRequest = FastifyRequest<{ Params: Static<typeof webhookParams> }>;

  app.post(
    '/admin/v1/sheets/:sheetId/webhooks',
    {
      schema: {
        summary: "Send a sheet's row events to a URL",
        description:
          'Deliveries follow Standard Webhooks: a POST of the event JSON with `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` keyed with the decoded secret. A 2xx within 10 s delivers; anything else is retried with backoff for a day; 410 switches the webhook off. Destinations on loopback, private or link-local addresses are refused.',
        ...adminOperation('createWebhook', 'webhooks'),
        params: adminParams,
        body: NewWebhook,
        response: { 201: named('NewWebhook'), ...problemResponses('createWebhook') },
      },
    },
    async (request: SheetRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      const body = request.body as Static<typeof NewWebhook>;
      const destination = await resolveDestination(body.url, allowPrivate);
      const secret = newWebhookSecret();
      const webhook = await sheets.createWebhook({
        id: `wh_${randomBytes(12).toString('base64url')}`,
        sheetId: sheet.id,
        url: destination.url.href,
        events: body.events ?? [...eventTypes],
        secret,
        createdAt: new Date().toISOString(),
      });
      return reply.code(201).send({ ...describe(webhook), secret });
    },
  );

  app.get(
    '/admin/v1/sheets/:sheetId/webhooks',
    {
      schema: {
        summary: "List a sheet's webhooks, without their secrets",
        ...adminOperation('listWebhooks', 'webhooks'),
        params: adminParams,
        response: { 200: Type.Array(named('Webhook')), ...problemResponses('listWebhooks') },
      },
    },
    async (request: SheetRequest) => {
      const sheet = await sheets.get(request.params.sheetId);
      return (await sheets.outbox.webhooksOf(sheet.id)).map(describe);
    },
  );

  app.delete(
    '/admin/v1/sheets/:sheetId/webhooks/:webhookId',
    {
      schema: {
        summary: 'Remove a webhook: nothing more is sent to it',
        ...adminOperation('deleteWebhook', 'webhooks'),
        params: webhookParams,
        response: { 204: Type.Null(), ...problemResponses('deleteWebhook') },
      },
    },
    async (request: WebhookRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      if (!(await sheets.outbox.deleteWebhook(sheet.id, request.params.webhookId))) {
        throw notFound(sheet.name, request.params.webhookId);
      }
      return reply.code(204).send();
    },
  );

  app.post(
    '/admin/v1/sheets/:sheetId/webhooks/:webhookId/rotate-secret',
    {
      schema: {
        summary: "Replace a webhook's signing secret (the new one is in this answer only)",
        description:
          'For `overlapSeconds` (a day by default; 0 for none) deliveries carry two signatures, `webhook-signature: v1,<new> v1,<old>`, so a receiver verifies with either secret while it switches; then only the new one. Rotating again within an overlap drops the oldest secret.',
        ...adminOperation('rotateWebhookSecret', 'webhooks'),
        params: webhookParams,
        body: RotateWebhookSecret,
        response: { 200: named('NewWebhook'), ...problemResponses('rotateWebhookSecret') },
      },
      preValidation: emptyBodyAsObject,
    },
    async (request: WebhookRequest, reply) => {
      const sheet = await sheets.get(request.params.sheetId);
      const body = request.body as Static<typeof RotateWebhookSecret>;
      const until = overlapEnd(body.overlapSeconds, Date.now());
      const secret = newWebhookSecret();
      const webhook = await sheets.outbox.rotateWebhookSecret(
        sheet.id,
        request.params.webhookId,
        secret,
        body.overlapSeconds === 0 ? null : until,
      );
      if (webhook === null) throw notFound(sheet.name, request.params.webhookId);
      return reply.code(200).send({ ...describe(webhook), secret });
    },
  );

  app.get(
    '/admin/v1/sheets/:sheetId/webhooks/:webhookId/deliveries',
    {
      schema: {
        summary: "A webhook's recent delivery attempts, newest first",
        ...adminOperation('listDeliveries', 'webhooks'),
        params: webhookParams,
        response: {
          200: Type.Array(named('WebhookDelivery')),
          ...problemResponses('listDeliveries'),
        },
      },
    },
    async (request: WebhookRequest) => {
      const sheet = await sheets.get(request.params.sheetId);
      const { webhookId } = request.params;
      const webhooks = await sheets.outbox.webhooksOf(sheet.id);
      if (!webhooks.some((webhook) => webhook.id === webhookId)) {
        throw notFound(sheet.name, webhookId);
      }
      return (await sheets.outbox.deliveriesOf(webhookId, 100)).map(describeDelivery);
    },
  );
}

function notFound(sheetName: string, id: string): Problem {
  return new Problem('webhook-not-found', `Sheet "${sheetName}" has no webhook "${id}".`);
}

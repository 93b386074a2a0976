import type { Dialect } from './dialect.ts';
import type { DeliveryRecord, WebhookProgress, WebhookRecord } from './store-records.ts';

/** Delivery attempts kept per webhook, newest first: enough to see what went wrong lately. */
const deliveriesKept = 100;

/** Webhooks and their delivery log, as the rest of the server keeps them. */
export interface WebhookStore {
  /** Adds a webhook that is sent the sheet's events from now on (its cursor: the newest). */
  createWebhook(
    webhook: Pick<WebhookRecord, 'id' | 'sheetId' | 'url' | 'events' | 'secret' | 'createdAt'>,
  ): Promise<WebhookRecord>;
  webhooksOf(sheetId: string): Promise<WebhookRecord[]>;
  /** The ids of the sheets that have a webhook switched on. */
  webhookSheets(): Promise<string[]>;
  /** Events waiting for the webhooks that are on, of every sheet (whatever their types). */
  webhookBacklog(): Promise<number>;
  deleteWebhook(sheetId: string, id: string): Promise<boolean>;
  /**
   * Gives a webhook a new signing secret; the one it had signs alongside it until
   * `previousUntil` (never, when null). Null for an unknown webhook.
   */
  rotateWebhookSecret(
    sheetId: string,
    id: string,
    secret: string,
    previousUntil: string | null,
  ): Promise<WebhookRecord | null>;
  /**
   * Takes up to `limit` webhooks whose next attempt is due, for `leaseMs`: no other server takes
   * them meanwhile, so each event is sent by one server at a time, in order.
   */
  claimWebhooks(leaseMs: number, limit: number): Promise<WebhookRecord[]>;
  /**
   * Records attempts and the webhook's state after them; `release` ends this server's lease,
   * which it keeps while it goes on to the next event.
   */
  recordDelivery(
    webhookId: string,
    progress: WebhookProgress,
    deliveries: DeliveryRecord[],
    release: boolean,
  ): Promise<void>;
  /** A webhook's most recent delivery attempts, newest first. */
  deliveriesOf(webhookId: string, limit: number): Promise<DeliveryRecord[]>;
}

/** Webhooks over a dialect: each call one unit of work over its webhook statements. */
export function webhookStore(db: Dialect): WebhookStore {
  return {
    createWebhook(webhook) {
      return db.write(function* () {
        const record: WebhookRecord = {
          ...webhook,
          cursor: yield* db.outbox.maxEventSeq(webhook.sheetId),
          attempt: 0,
          firstAttemptAt: null,
          nextAttemptAt: webhook.createdAt,
          previousSecret: null,
          previousSecretExpiresAt: null,
          disabledAt: null,
          disabledReason: null,
        };
        yield* db.webhooks.insertWebhook(record);
        return record;
      });
    },

    webhooksOf: (sheetId) => db.read(() => db.webhooks.webhooksOf(sheetId)),

    webhookSheets: () => db.read(() => db.webhooks.webhookSheets()),

    webhookBacklog: () => db.read(() => db.webhooks.webhookBacklog()),

    deleteWebhook: (sheetId, id) => db.write(() => db.webhooks.deleteWebhook(sheetId, id)),

    rotateWebhookSecret: (sheetId, id, secret, previousUntil) =>
      db.write(() => db.webhooks.rotateWebhookSecret(sheetId, id, secret, previousUntil)),

    claimWebhooks(leaseMs, limit) {
      const now = new Date();
      const until = new Date(now.getTime() + leaseMs);
      return db.write(() => db.webhooks.claimWebhooks(now, until, limit));
    },

    recordDelivery(
      webhookId: string,
      progress: WebhookProgress,
      deliveries: DeliveryRecord[],
      release: boolean,
    ) {
      return db.write(function* () {
        yield* db.webhooks.saveWebhookProgress(webhookId, progress, release);
        for (const delivery of deliveries)
          yield* db.webhooks.insertDelivery(delivery, deliveriesKept);
      });
    },

    deliveriesOf: (webhookId, limit) => db.read(() => db.webhooks.deliveriesOf(webhookId, limit)),
  };
}

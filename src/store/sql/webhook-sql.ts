import type { DeliveryRecord, WebhookProgress, WebhookRecord } from '../store-records.ts';
import type { DbWork } from '../db-work.ts';
import { nameable, timeOrNull, type Flavor, type Sql } from './sql.ts';

interface WebhookRow {
  id: string;
  sheet_id: string;
  url: string;
  events: unknown;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: unknown;
  created_at: unknown;
  cursor: number | string;
  attempt: number;
  first_attempt_at: unknown;
  next_attempt_at: unknown;
  disabled_at: unknown;
  disabled_reason: string | null;
}

function toWebhook(flavor: Flavor, row: WebhookRow): WebhookRecord {
  return {
    id: row.id,
    sheetId: row.sheet_id,
    url: row.url,
    events: flavor.json(row.events),
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretExpiresAt: timeOrNull(flavor, row.previous_secret_expires_at),
    createdAt: flavor.time(row.created_at),
    cursor: Number(row.cursor),
    attempt: row.attempt,
    firstAttemptAt: timeOrNull(flavor, row.first_attempt_at),
    nextAttemptAt: flavor.time(row.next_attempt_at),
    disabledAt: timeOrNull(flavor, row.disabled_at),
    disabledReason: row.disabled_reason,
  };
}

interface DeliveryRow {
  webhook_id: string;
  event_id: string;
  type: string;
  attempt: number;
  status: number | null;
  error: string | null;
  next_retry_at: unknown;
  at: unknown;
}

function toDelivery(flavor: Flavor, row: DeliveryRow): DeliveryRecord {
  return {
    webhookId: row.webhook_id,
    eventId: row.event_id,
    type: row.type,
    attempt: row.attempt,
    status: row.status,
    error: row.error,
    nextRetryAt: timeOrNull(flavor, row.next_retry_at),
    at: flavor.time(row.at),
  };
}

/** Webhooks and their delivery log, as the engine asks for them. */
export interface WebhookStatements {
  insertWebhook(webhook: WebhookRecord): DbWork<void>;
  webhooksOf(sheetId: string): DbWork<WebhookRecord[]>;
  webhookSheets(): DbWork<string[]>;
  webhookBacklog(): DbWork<number>;
  deleteWebhook(sheetId: string, id: string): DbWork<boolean>;
  rotateWebhookSecret(
    sheetId: string,
    id: string,
    secret: string,
    previousUntil: string | null,
  ): DbWork<WebhookRecord | null>;
  claimWebhooks(now: Date, leaseUntil: Date, limit: number): DbWork<WebhookRecord[]>;
  /** Saves where a webhook stands; `release` ends the lease of the server that holds it. */
  saveWebhookProgress(webhookId: string, progress: WebhookProgress, release: boolean): DbWork<void>;
  /** Adds an attempt to a webhook's log, keeping its newest `keep`. */
  insertDelivery(delivery: DeliveryRecord, keep: number): DbWork<void>;
  deliveriesOf(webhookId: string, limit: number): DbWork<DeliveryRecord[]>;
}

/** Webhooks and their delivery log over a dialect's driver, written once for both databases. */
export function webhookSql(sql: Sql): WebhookStatements {
  const { flavor } = sql;
  const webhook = (row: WebhookRow) => toWebhook(flavor, row);
  return {
    *insertWebhook(webhook: WebhookRecord): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO webhooks (id, sheet_id, url, events, secret, created_at, cursor, attempt, next_attempt_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, 0, $8)`,
        [
          webhook.id,
          webhook.sheetId,
          webhook.url,
          JSON.stringify(webhook.events),
          webhook.secret,
          webhook.createdAt,
          webhook.cursor,
          webhook.nextAttemptAt,
        ],
      );
    },

    *webhooksOf(sheetId: string): DbWork<WebhookRecord[]> {
      const rows = yield* sql.rows<WebhookRow>(
        'SELECT * FROM webhooks WHERE sheet_id = $1 ORDER BY created_at, id',
        [sheetId],
      );
      return rows.map(webhook);
    },

    *webhookSheets(): DbWork<string[]> {
      const rows = yield* sql.rows<{ sheet_id: string }>(
        'SELECT DISTINCT sheet_id FROM webhooks WHERE disabled_at IS NULL',
        [],
      );
      return rows.map((row) => row.sheet_id);
    },

    *webhookBacklog(): DbWork<number> {
      const [row] = yield* sql.rows<{ n: number | string }>(
        `SELECT count(*) AS n FROM webhooks JOIN events
           ON events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor
         WHERE webhooks.disabled_at IS NULL`,
        [],
      );
      return Number(row?.n ?? 0);
    },

    *deleteWebhook(sheetId: string, id: string): DbWork<boolean> {
      const changed = yield* sql.changes('DELETE FROM webhooks WHERE sheet_id = $1 AND id = $2', [
        sheetId,
        id,
      ]);
      return changed > 0;
    },

    *rotateWebhookSecret(
      sheetId: string,
      id: string,
      secret: string,
      previousUntil: string | null,
    ): DbWork<WebhookRecord | null> {
      if (!nameable(id)) return null;
      // Every right-hand side reads the row as it was: the previous secret is the one replaced.
      const previous = previousUntil === null ? 'NULL' : 'secret';
      const [row] = yield* sql.rows<WebhookRow>(
        `UPDATE webhooks SET previous_secret = ${previous}, previous_secret_expires_at = $1, secret = $2
         WHERE sheet_id = $3 AND id = $4 RETURNING *`,
        [previousUntil, secret, sheetId, id],
      );
      return row === undefined ? null : webhook(row);
    },

    /** Webhooks due and not leased, leased to this server; rows another server holds are skipped. */
    *claimWebhooks(now: Date, leaseUntil: Date, limit: number): DbWork<WebhookRecord[]> {
      const rows = yield* sql.rows<WebhookRow>(
        `UPDATE webhooks SET leased_until = $1
         WHERE id IN (SELECT id FROM webhooks WHERE disabled_at IS NULL AND next_attempt_at <= $2
           AND (leased_until IS NULL OR leased_until < $2)
           AND EXISTS (SELECT 1 FROM events WHERE events.sheet_id = webhooks.sheet_id AND events.seq > webhooks.cursor) ORDER BY next_attempt_at LIMIT $3
           ${flavor.forUpdate}${flavor.skipLocked})
         RETURNING *`,
        [leaseUntil.toISOString(), now.toISOString(), limit],
      );
      return rows.map(webhook);
    },

    *saveWebhookProgress(
      webhookId: string,
      progress: WebhookProgress,
      release: boolean,
    ): DbWork<void> {
      yield* sql.changes(
        `UPDATE webhooks SET cursor = $2, attempt = $3, first_attempt_at = $4, next_attempt_at = $5,
           disabled_at = $6, disabled_reason = $7,
           leased_until = CASE WHEN $8 THEN NULL ELSE leased_until END WHERE id = $1`,
        [
          webhookId,
          progress.cursor,
          progress.attempt,
          progress.firstAttemptAt,
          progress.nextAttemptAt,
          progress.disabledAt,
          progress.disabledReason,
          flavor.bool(release),
        ],
      );
    },

    *insertDelivery(delivery: DeliveryRecord, keep: number): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO webhook_deliveries (webhook_id, event_id, type, attempt, status, error, next_retry_at, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        [
          delivery.webhookId,
          delivery.eventId,
          delivery.type,
          delivery.attempt,
          delivery.status,
          delivery.error,
          delivery.nextRetryAt,
          delivery.at,
        ],
      );
      yield* sql.changes(
        `DELETE FROM webhook_deliveries WHERE webhook_id = $1 AND seq <= (
           SELECT seq FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT 1 OFFSET $2)`,
        [delivery.webhookId, keep],
      );
    },

    *deliveriesOf(webhookId: string, limit: number): DbWork<DeliveryRecord[]> {
      const rows = yield* sql.rows<DeliveryRow>(
        `SELECT webhook_id, event_id, type, attempt, status, error, next_retry_at, at
         FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY seq DESC LIMIT $2`,
        [webhookId, limit],
      );
      return rows.map((row) => toDelivery(flavor, row));
    },
  };
}

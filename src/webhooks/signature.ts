import { createHmac, randomBytes } from 'node:crypto';
import type { WebhookRecord } from '../store/store.ts';

/**
 * Standard Webhooks signing: a secret is `whsec_` and the base64 of 32 random bytes; a delivery
 * carries `webhook-signature: v1,<base64 of HMAC-SHA256 of "<id>.<timestamp>.<body>">`, keyed
 * with the secret's decoded bytes.
 */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function webhookSignature(
  secret: string,
  id: string,
  timestamp: number,
  body: string,
): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The secrets a delivery is signed with at `now`: the webhook's secret and, while the overlap of
 * its last rotation lasts, the one it replaced, so that a receiver can switch at its own pace.
 */
export function signingSecrets(
  webhook: Pick<WebhookRecord, 'secret' | 'previousSecret' | 'previousSecretExpiresAt'>,
  now: number,
): string[] {
  const { secret, previousSecret, previousSecretExpiresAt } = webhook;
  const overlapping =
    previousSecret !== null &&
    previousSecretExpiresAt !== null &&
    Date.parse(previousSecretExpiresAt) > now;
  return overlapping ? [secret, previousSecret] : [secret];
}

/** `webhook-signature`: a signature per secret, space-separated, as Standard Webhooks allows. */
export function signatureHeader(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): string {
  return secrets.map((secret) => webhookSignature(secret, id, timestamp, body)).join(' ');
}

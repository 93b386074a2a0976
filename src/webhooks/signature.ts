import { createHmac, randomBytes } from 'node:crypto';

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

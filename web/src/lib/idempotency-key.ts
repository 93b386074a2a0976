/**
 * A fresh Idempotency-Key for one write, as the header carries it (a quoted string): a random
 * UUID. `crypto.randomUUID` exists only on secure pages (https, localhost); a console opened over
 * plain http elsewhere builds the same from `crypto.getRandomValues`, which exists everywhere.
 */
export function newIdempotencyKey(random: Pick<Crypto, 'getRandomValues'> = crypto): string {
  const bytes = random.getRandomValues(new Uint8Array(16));
  // Version 4 and the RFC 9562 variant, as randomUUID sets them.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  const uuid = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return `"${uuid}"`;
}

/** Waits before each retry of a write that got no answer, or a 503 that asks to come back. */
export const retryDelaysMs = [500, 2000] as const;

/**
 * Whether a write may be sent again, with its key: it never got an answer (`status` null), or
 * was refused with 503 before anything applied. Anything else is the write's answer.
 */
export function mayRetry(status: number | null): boolean {
  return status === null || status === 503;
}

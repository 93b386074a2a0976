import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** What a key may do on its sheet's row API (see required-scopes.ts for what each request needs). */
export const scopes = ['read', 'create', 'update', 'delete'] as const;
export type Scope = (typeof scopes)[number];

/**
 * A key reads `sp_<id>_<secret>`: the id finds the stored key without touching the secret, and
 * only a hash of the secret is kept, compared in constant time. 256 random bits of secret make a
 * slow hash unnecessary: there is nothing to guess.
 */
export function newApiKey(): { id: string; secret: string; key: string; hash: string } {
  const id = randomBytes(9).toString('base64url');
  const secret = randomBytes(32).toString('base64url');
  return { id, secret, key: `sp_${id}_${secret}`, hash: hashSecret(secret) };
}

export function parseApiKey(key: string): { id: string; secret: string } | null {
  const match = /^sp_([A-Za-z0-9_-]{12})_([A-Za-z0-9_-]{43})$/.exec(key);
  return match === null ? null : { id: match[1] as string, secret: match[2] as string };
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** Compares two secrets (or a secret and a hash's source) in time independent of their contents. */
export function sameSecret(hash: string, secret: string): boolean {
  const expected = Buffer.from(hash, 'base64url');
  const actual = createHash('sha256').update(secret).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

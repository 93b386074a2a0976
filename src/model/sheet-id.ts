import { randomBytes } from 'node:crypto';

/** 128 random bits, URL-safe: sheet ids cannot be guessed or enumerated. */
export function newSheetId(): string {
  return randomBytes(16).toString('base64url');
}

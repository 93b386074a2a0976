import { Problem } from '../errors/problem.ts';

/** The longest lifetime a key may be given, and the longest overlap of a rotation. */
export const maxLifetimeSeconds = 10 * 365 * 86_400;
export const maxOverlapSeconds = 30 * 86_400;
/** How long a rotated key or webhook secret keeps working when the request does not say. */
export const defaultOverlapSeconds = 86_400;

/** How a request asks for an expiry: a moment, or a lifetime from now. */
export interface AskedExpiry {
  expiresAt?: string;
  expiresInSeconds?: number;
}

const dateTime = /^(\d{4})-(\d{2})-(\d{2})T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/**
 * The expiry a request asks for, as ISO text in UTC (which sorts as time does), or null for
 * none. A moment must be an RFC 3339 date-time in the future; both forms at once are refused.
 */
export function expiryOf(asked: AskedExpiry, now: number): string | null {
  const { expiresAt, expiresInSeconds } = asked;
  if (expiresAt !== undefined && expiresInSeconds !== undefined) {
    throw invalid('Give expiresAt or expiresInSeconds, not both.');
  }
  if (expiresInSeconds !== undefined) {
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1) {
      throw invalid('expiresInSeconds must be a whole number of seconds, at least 1.');
    }
    if (expiresInSeconds > maxLifetimeSeconds) {
      throw invalid(`expiresInSeconds may be at most ${maxLifetimeSeconds} (ten years).`);
    }
    return new Date(now + expiresInSeconds * 1000).toISOString();
  }
  if (expiresAt === undefined) return null;
  const at = dateTime.test(expiresAt) && realDay(expiresAt) ? Date.parse(expiresAt) : NaN;
  if (Number.isNaN(at)) {
    throw invalid(`expiresAt "${expiresAt}" is not a date-time such as 2030-01-31T12:00:00Z.`);
  }
  if (at <= now) throw invalid(`expiresAt ${expiresAt} is not in the future.`);
  if (at > now + maxLifetimeSeconds * 1000) {
    throw invalid('expiresAt may be at most ten years away.');
  }
  return new Date(at).toISOString();
}

/** When something rotated now stops working: now plus the overlap asked for, or a day. */
export function overlapEnd(overlapSeconds: number | undefined, now: number): string {
  const seconds = overlapSeconds ?? defaultOverlapSeconds;
  if (!Number.isInteger(seconds) || seconds < 0 || seconds > maxOverlapSeconds) {
    throw invalid(`overlapSeconds must be a whole number from 0 to ${maxOverlapSeconds}.`);
  }
  return new Date(now + seconds * 1000).toISOString();
}

/** True once an expiry has come: from then on the key opens nothing. */
export function expired(expiresAt: string | null, now: number): boolean {
  return expiresAt !== null && Date.parse(expiresAt) <= now;
}

/** Date.parse rolls 31 February over into March; a typo should be refused instead. */
function realDay(text: string): boolean {
  const [year, month, day] = text.slice(0, 10).split('-').map(Number) as [number, number, number];
  return (
    month >= 1 && month <= 12 && day >= 1 && day <= new Date(Date.UTC(year, month, 0)).getUTCDate()
  );
}

function invalid(detail: string): Problem {
  return new Problem('invalid-body', detail);
}

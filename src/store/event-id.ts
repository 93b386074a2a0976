import { randomBytes } from 'node:crypto';

/**
 * A new row event's id: the time in milliseconds (zero-padded base 36, which sorts as the time
 * does), then 96 random bits. Ids made later sort after earlier ones, so the unique index on ids
 * grows at its end, a page or so per commit; wholly random ids put each event of a commit on a
 * page of its own, and each such page costs a write and a sync to disk.
 */
export function newEventId(now = Date.now()): string {
  return `evt_${now.toString(36).padStart(9, '0')}${randomBytes(12).toString('base64url')}`;
}

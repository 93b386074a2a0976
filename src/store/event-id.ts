import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for event ids, drawn from the system's generator a page at a time: one draw per
 * id cost more than the rest of making the event (a call into OpenSSL, and a getpid, each time).
 */
const pool = Buffer.alloc(4096);
let used = pool.length;

function randomPart(bytes: number): string {
  if (used + bytes > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  const part = pool.toString('base64url', used, used + bytes);
  used += bytes;
  return part;
}

/**
 * A new row event's id: the time in milliseconds (zero-padded base 36, which sorts as the time
 * does), then 96 random bits. Ids made later sort after earlier ones, so the unique index on ids
 * grows at its end, a page or so per commit; wholly random ids put each event of a commit on a
 * page of its own, and each such page costs a write and a sync to disk.
 */
export function newEventId(now = Date.now()): string {
  return `evt_${now.toString(36).padStart(9, '0')}${randomPart(12)}`;
}

/** The time in milliseconds an event id made by `newEventId` starts with; null for another id. */
export function eventIdTime(id: string): number | null {
  const time = /^evt_([0-9a-z]{9})/.exec(id)?.[1];
  return time === undefined ? null : parseInt(time, 36);
}

import { randomBytes } from 'node:crypto';
import { Problem } from '../errors/problem.ts';
import type { WriteResult } from '../model/write-effect.ts';
import type { Dialect } from './dialect.ts';
import type { HeldKey, KeyBounds, KeyClaim, KeyOutcome, PushedKey, PushEnd } from './key-claims.ts';
import type { KeyId } from './store-records.ts';
import type { DbWork } from './db-work.ts';
export type { IdempotencyRecord } from './store-records.ts';
import type { IdempotencyRecord } from './store-records.ts';

/** How long a key is kept: a retry within this time is answered from it. */
export const keyLifetimeMs = 24 * 60 * 60 * 1000;

export type ClaimDecision = 'insert' | 'renew' | 'take-over' | 'replay' | 'mismatch' | 'in-use';

/**
 * What a claim does with the key as stored. A key past its lifetime counts as absent (`renew`:
 * made again from scratch); another request's fingerprint wins over every state, so that a key
 * is never reused for a different write; a running key is taken over only once its lease has
 * passed and no push holds it.
 */
export function decideClaim(
  record: IdempotencyRecord | null,
  fingerprint: string,
  now: Date,
): ClaimDecision {
  if (record === null) return 'insert';
  const at = now.toISOString();
  if (record.expiresAt <= at) return 'renew';
  if (record.fingerprint !== fingerprint) return 'mismatch';
  if (record.state === 'done') return 'replay';
  if (record.state === 'unknown' || record.push !== null || record.leaseUntil > at) return 'in-use';
  return 'take-over';
}

const later = (now: Date, ms: number) => new Date(now.getTime() + ms).toISOString();

export function* claimKey(
  db: Dialect,
  id: KeyId,
  fingerprint: string,
  leaseMs: number,
  bounds?: KeyBounds,
): DbWork<KeyClaim> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const now = new Date();
    const record = yield* db.idempotency.idempotencyKey(id, true);
    const decision = decideClaim(record, fingerprint, now);
    if (decision === 'mismatch' || decision === 'in-use') return { kind: decision };
    if (decision === 'replay') {
      return { kind: 'replay', outcome: JSON.parse(record?.outcome ?? 'null') as KeyOutcome };
    }
    const fresh = record === null || decision === 'renew';
    if (fresh && bounds !== undefined) {
      const full = yield* boundReached(db, id, bounds, now);
      if (full !== null) return full;
    }
    const token = randomBytes(12).toString('base64url');
    const claimed: IdempotencyRecord = {
      sheetId: id.sheetId,
      scope: id.scope,
      key: id.key,
      fingerprint,
      state: 'running',
      token,
      leaseUntil: later(now, leaseMs),
      push: null,
      outcome: null,
      createdAt: fresh ? now.toISOString() : record.createdAt,
      expiresAt: fresh ? later(now, keyLifetimeMs) : record.expiresAt,
      client: fresh ? (bounds?.client ?? null) : record.client,
    };
    const saved =
      record === null
        ? yield* db.idempotency.insertIdempotencyKey(claimed)
        : yield* db.idempotency.updateIdempotencyKey(claimed, record.token);
    if (saved) return { kind: 'claimed', held: { ...id, token } };
    // Another server inserted the key meanwhile: its row is committed now, and is looked at again.
  }
  return { kind: 'in-use' };
}

/**
 * Whether a sender already holds as many live keys as it may: then a new one is refused until
 * the first of them expires. Counted in the claim's transaction; servers claiming at the same
 * moment may each pass the count once.
 */
function* boundReached(
  db: Dialect,
  id: KeyId,
  bounds: KeyBounds,
  now: Date,
): DbWork<Extract<KeyClaim, { kind: 'full' }> | null> {
  const checks = [
    { limit: 'perCredential' as const, max: bounds.perCredential, client: null },
    ...(bounds.client === null
      ? []
      : [{ limit: 'perClient' as const, max: bounds.perClient, client: bounds.client }]),
  ];
  for (const { limit, max, client } of checks) {
    if (max <= 0) continue;
    const live = yield* db.idempotency.liveIdempotencyKeys(
      id.sheetId,
      id.scope,
      client,
      now.toISOString(),
    );
    if (live.count < max) continue;
    const until = live.firstExpiry === null ? now.getTime() : Date.parse(live.firstExpiry);
    const retryAfterSeconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
    return { kind: 'full', limit, max, retryAfterSeconds };
  }
  return null;
}

/** The key as stored, if `held` still holds it and no push has taken it over. */
export function* heldRecord(db: Dialect, held: HeldKey): DbWork<IdempotencyRecord | null> {
  const record = yield* db.idempotency.idempotencyKey(held, true);
  const holds = record?.token === held.token && record.state === 'running' && record.push === null;
  return holds ? record : null;
}

export function* renewKey(db: Dialect, held: HeldKey, leaseMs: number): DbWork<boolean> {
  const record = yield* heldRecord(db, held);
  if (record === null) return false;
  return yield* db.idempotency.updateIdempotencyKey(
    { ...record, leaseUntil: later(new Date(), leaseMs) },
    held.token,
  );
}

/** Ends a hold with an outcome, as unknown, or (null) by freeing the key. */
export function* settleKey(
  db: Dialect,
  held: HeldKey,
  outcome: KeyOutcome | 'unknown' | null,
): DbWork<void> {
  const record = yield* heldRecord(db, held);
  if (record === null) return;
  if (outcome === null) yield* db.idempotency.deleteIdempotencyKey(held, held.token);
  else yield* db.idempotency.updateIdempotencyKey(settled(record, outcome), held.token);
}

function settled(record: IdempotencyRecord, outcome: KeyOutcome | 'unknown'): IdempotencyRecord {
  return outcome === 'unknown'
    ? { ...record, state: 'unknown', push: null, outcome: null }
    : { ...record, state: 'done', push: null, outcome: JSON.stringify(outcome) };
}

/** Keys the pruner removes per transaction, unless configured otherwise. */
export const defaultKeyPruneBatch = 500;

/** The bytes a stored problem's JSON may take, unless configured otherwise. */
export const defaultMaxProblemBytes = 4096;

/**
 * A write's answer as a key keeps it. A 2xx answer is kept whole: it is a few counts. A problem
 * is kept within `maxProblemBytes` of JSON: past it, without its extensions and with its detail
 * cut short, so that no answer a client can make large is stored large, for a day.
 */
export function keyOutcome(
  result: WriteResult | Problem,
  maxProblemBytes = defaultMaxProblemBytes,
): KeyOutcome {
  if (!(result instanceof Problem)) {
    return { kind: 'result', outcome: result.outcome, version: result.version };
  }
  const { code, detail, extensions, headers } = result;
  const whole: KeyOutcome = { kind: 'problem', code, detail, extensions, headers };
  if (Buffer.byteLength(JSON.stringify(whole)) <= maxProblemBytes) return whole;
  const bare: KeyOutcome = { kind: 'problem', code, detail: '', extensions: {}, headers };
  // Three bytes for the "…" that marks the cut.
  const room = maxProblemBytes - Buffer.byteLength(JSON.stringify(bare)) - 3;
  return { ...bare, detail: cutToBytes(detail, Math.max(0, room)) };
}

/** Text cut to at most `bytes` of JSON, whole characters, marked as cut. */
function cutToBytes(text: string, bytes: number): string {
  let cut = '';
  let size = 0;
  for (const character of text) {
    // JSON escapes take up to six bytes a character; counted so, the cut never runs over.
    const cost = Math.max(Buffer.byteLength(JSON.stringify(character)) - 2, 1);
    if (size + cost > bytes) return `${cut}…`;
    cut += character;
    size += cost;
  }
  return cut;
}

/** The problem a write gets when its server lost its key's lease to a retry meanwhile. */
export function keyTakenOver(key: string): Problem {
  return new Problem(
    'idempotency-key-in-use',
    `Another request with Idempotency-Key "${key}" took it over while this one waited; this one applied nothing.`,
  );
}

/**
 * Ties held keys to a push, each with its answer should plan `plan` of the push land (null: free
 * the key then). A push planned again under the same tag adds its new plan's answers: whichever
 * plan lands, its answers are at hand when the push is settled, without planning again. False,
 * and nothing tied, when a key is no longer held by its request (another took it over).
 */
export function* pushKeys(
  db: Dialect,
  pushId: string,
  plan: string,
  keys: PushedKey[],
): DbWork<boolean> {
  const records: IdempotencyRecord[] = [];
  for (const { held } of keys) {
    const record = yield* db.idempotency.idempotencyKey(held, true);
    const ours = record?.token === held.token && record.state === 'running';
    if (!ours || (record.push !== null && record.push !== pushId)) return false;
    records.push(record);
  }
  for (const [i, record] of records.entries()) {
    const { held, outcome } = keys[i] as PushedKey;
    const plans = record.push === pushId ? plannedOutcomes(record) : {};
    plans[plan] = outcome;
    const tied = { ...record, push: pushId, outcome: JSON.stringify(plans) };
    yield* db.idempotency.updateIdempotencyKey(tied, held.token);
  }
  return true;
}

/** A tied key's answer for each plan of its push (see `pushKeys`). */
function plannedOutcomes(record: IdempotencyRecord): Record<string, KeyOutcome | null> {
  return JSON.parse(record.outcome ?? '{}') as Record<string, KeyOutcome | null>;
}

/**
 * Settles the keys of a push by how it ended: each takes its answer for the plan that landed, or
 * is freed when none did (or its write's answer then keeps nothing); `answers` known better than
 * planned (such as the versions the copy gave the writes) win over the planned ones.
 */
export function* settlePush(
  db: Dialect,
  sheetId: string,
  pushId: string,
  end: PushEnd,
): DbWork<void> {
  for (const record of yield* db.idempotency.idempotencyKeysOfPush(sheetId, pushId)) {
    const known = end.answers?.find(
      ({ held }) =>
        held.token === record.token && held.key === record.key && held.scope === record.scope,
    );
    const byKey = end.byKey?.find(({ scope, key }) => scope === record.scope && key === record.key);
    const planned = end.plan === null ? null : (plannedOutcomes(record)[end.plan] ?? null);
    const outcome =
      known !== undefined ? known.outcome : byKey !== undefined ? byKey.outcome : planned;
    if (outcome === null) yield* db.idempotency.deleteIdempotencyKey(record, record.token);
    else yield* db.idempotency.updateIdempotencyKey(settled(record, outcome), record.token);
  }
}

/**
 * The answer a key keeps for a write's result: 2xx and 4xx answers; null (keep nothing, the
 * client may retry) for 429 and 5xx.
 */
export function keptAnswer(result: WriteResult | Problem): KeyOutcome | null {
  if (result instanceof Problem && (result.status >= 500 || result.status === 429)) return null;
  return keyOutcome(result);
}

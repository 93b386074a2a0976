import type { Dialect } from './dialect.ts';
import {
  claimKey,
  defaultKeyPruneBatch,
  pushKeys,
  renewKey,
  settleKey,
  settlePush,
} from './idempotency-records.ts';
import type { HeldKey, KeyBounds, KeyClaim, KeyOutcome, PushedKey, PushEnd } from './key-claims.ts';
import type { KeyId } from './store-records.ts';

/** Idempotency keys (see idempotency-records.ts), as requests and pushes hold them. */
export interface IdempotencyStore {
  /**
   * Claims a key for a request with this fingerprint, for `leaseMs`: or finds its stored
   * outcome, another request's fingerprint on it, or another request holding it.
   */
  claimIdempotencyKey(
    id: KeyId,
    fingerprint: string,
    leaseMs: number,
    bounds?: KeyBounds,
  ): Promise<KeyClaim>;
  /** Extends a held key's lease; false when it is no longer held. */
  renewIdempotencyKey(held: HeldKey, leaseMs: number): Promise<boolean>;
  /**
   * Ends a hold: records the outcome to be answered again, or `unknown` (answered 409 until a
   * settle), or with null frees the key for the client to try again.
   */
  settleIdempotencyKey(held: HeldKey, outcome: KeyOutcome | 'unknown' | null): Promise<void>;
  /**
   * Ties held keys to a provider push with their answers should plan `plan` land (a push planned
   * again adds its new plan): until the push is settled, they answer 409 however long their
   * server is gone. False, and nothing tied, when a key is no longer held by its request.
   */
  pushIdempotencyKeys(
    sheetId: string,
    pushId: string,
    plan: string,
    keys: PushedKey[],
  ): Promise<boolean>;
  /** Settles the keys of a push by how it ended (see `PushEnd`). */
  settlePushedKeys(sheetId: string, pushId: string, end: PushEnd): Promise<void>;
  /**
   * Removes the keys kept past their time, `batch` to a transaction so that writes never wait
   * long behind it; answers how many.
   */
  pruneIdempotencyKeys(batch?: number): Promise<number>;
}

/** Idempotency keys over a dialect: each call one unit of work (see idempotency-records.ts). */
export function idempotencyStore(db: Dialect): IdempotencyStore {
  return {
    claimIdempotencyKey: (id, fingerprint, leaseMs, bounds) =>
      db.write(() => claimKey(db, id, fingerprint, leaseMs, bounds)),

    renewIdempotencyKey: (held, leaseMs) => db.write(() => renewKey(db, held, leaseMs)),

    settleIdempotencyKey: (held, outcome) => db.write(() => settleKey(db, held, outcome)),

    pushIdempotencyKeys: (_sheetId, pushId, plan, keys) =>
      db.write(() => pushKeys(db, pushId, plan, keys)),

    settlePushedKeys: (sheetId, pushId, end) =>
      db.write(() => settlePush(db, sheetId, pushId, end)),

    /** In transactions of `batch` keys, as events are pruned. */
    async pruneIdempotencyKeys(batch = defaultKeyPruneBatch) {
      const before = new Date().toISOString();
      let pruned = 0;
      for (;;) {
        const gone = await db.write(() => db.idempotency.pruneIdempotencyKeys(before, batch));
        pruned += gone;
        if (gone < batch) return pruned;
      }
    },
  };
}

import type { Dialect } from './dialect.ts';
import type { ApiKeyRecord } from './store-records.ts';

/** Thrown to roll back a key rotation that lost a race with another. */
class Raced extends Error {}

/** API keys, as the rest of the server keeps them. */
export interface ApiKeyStore {
  createKey(key: ApiKeyRecord): Promise<void>;
  listKeys(sheetId: string): Promise<ApiKeyRecord[]>;
  findKey(id: string): Promise<ApiKeyRecord | null>;
  /**
   * Adds `successor` and, in the same transaction, points key `id` of the sheet at it, its expiry
   * brought forward to `expiresAt` (never moved later). 'not-found' for an unknown key,
   * 'already-rotated' (and nothing added) for one rotated before whose successor still exists.
   */
  rotateKey(
    sheetId: string,
    id: string,
    successor: ApiKeyRecord,
    expiresAt: string,
  ): Promise<'rotated' | 'not-found' | 'already-rotated'>;
  /** True if the key existed. A deleted sheet's keys go with it. */
  deleteKey(sheetId: string, id: string): Promise<boolean>;
}

/** API keys over a dialect: each call one unit of work over its key statements. */
export function apiKeyStore(db: Dialect): ApiKeyStore {
  return {
    createKey: (key) => db.write(() => db.apiKeys.insertKey(key)),

    listKeys: (sheetId) => db.read(() => db.apiKeys.keysOf(sheetId)),

    findKey: (id) => db.read(() => db.apiKeys.keyById(id)),

    async rotateKey(sheetId, id, successor, expiresAt) {
      try {
        return await db.write(function* () {
          const old = yield* db.apiKeys.keyById(id);
          if (old === null || old.sheetId !== sheetId) return 'not-found' as const;
          if (old.rotatedTo !== null) return 'already-rotated' as const;
          yield* db.apiKeys.insertKey(successor);
          // Another server may have rotated it since it was read: the successor must not stay.
          if (!(yield* db.apiKeys.markKeyRotated(sheetId, id, successor.id, expiresAt)))
            throw new Raced();
          return 'rotated' as const;
        });
      } catch (error) {
        if (error instanceof Raced) return 'already-rotated';
        throw error;
      }
    },

    deleteKey: (sheetId, id) => db.write(() => db.apiKeys.deleteKey(sheetId, id)),
  };
}

import type { Dialect } from './dialect.ts';
import { apiKeyStore, type ApiKeyStore } from './api-key-store.ts';
import { idempotencyStore, type IdempotencyStore } from './idempotency-store.ts';
import { leaseStore, type LeaseStore } from './lease-store.ts';
import { outboxStore, type OutboxStore } from './outbox-store.ts';
import { pushTagStore, type PushTagStore } from './push-tag-store.ts';
import { webhookStore, type WebhookStore } from './webhook-store.ts';

/** What a store answers beside sheets and rows: each concern's calls, from its own module. */
export type StoreConcerns = OutboxStore &
  WebhookStore &
  ApiKeyStore &
  LeaseStore &
  PushTagStore &
  IdempotencyStore;

/**
 * The concerns of a store over its dialect, as the members of one object: the row engine
 * extends it, so that the store answers every call as its own (and metrics time each by name)
 * while a concern's calls are declared and written once, in its module, beside its statements.
 */
export const StoreConcerns = class {
  constructor(db: Dialect) {
    Object.assign(
      this,
      outboxStore(db),
      webhookStore(db),
      apiKeyStore(db),
      leaseStore(db),
      pushTagStore(db),
      idempotencyStore(db),
    );
  }
} as new (db: Dialect) => StoreConcerns;

import { Problem } from '../errors/problem.ts';
import type { SheetStatements } from './sql/sheet-sql.ts';
import type { RowStatements } from './sql/row-sql.ts';
import type { BlockStatements } from './sql/block-sql.ts';
import type { CredentialStatements } from './store-records.ts';
import type { OutboxStatements } from './sql/outbox-sql.ts';
import type { PushStatements } from './sql/push-tag-sql.ts';
import type { WebhookStatements } from './sql/webhook-sql.ts';
import type { ApiKeyStatements } from './sql/key-sql.ts';
import type { IdempotencyStatements } from './sql/idempotency-sql.ts';
import type { LeaseStatements } from './sql/lease-sql.ts';
import type { HeldLock, StoreDatabase } from './store-records.ts';
export { LockLost } from './store-records.ts';
import type { DbWork } from './db-work.ts';
export type { SheetRecord, StoredEvent, PushFence } from './store-records.ts';

/** Seconds a client is asked to wait before trying again while the database is away. */
const retryAfterSeconds = 5;

/** The answer to a request that found the database away or refusing: nothing was changed. */
export function storeUnavailable(): Problem {
  return new Problem(
    'store-unavailable',
    'The database cannot be reached right now; nothing was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/**
 * Thrown by a dialect when the database went away while a commit was under way: it may or may
 * not have landed, and only a later look can tell (the engine looks for the unit's row events).
 * Where nobody looks, the request is answered `outcomeUnknown()`.
 */
export class CommitOutcomeUnknown extends Error {
  override name = 'CommitOutcomeUnknown';
}

/** The answer to a change whose commit the database went away during, and did not tell. */
export function outcomeUnknown(): Problem {
  return new Problem(
    'store-outcome-unknown',
    'The database went away while this change was being committed, and has not come back to say whether it was: it may or may not have been applied. Read it before sending it again.',
    {},
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** The lock of a store whose locks cannot be lost (one process owns it), at `epoch`. */
export function lockNeverLost(epoch: number): HeldLock {
  return { epoch, signal: new AbortController().signal, verify: async () => {} };
}

/** A read-only snapshot held open across several units, for a read sent in pieces. */
export interface Snapshot {
  run<T>(work: () => DbWork<T>): Promise<T>;
  end(): Promise<void>;
}

/**
 * What differs between the databases the row engine runs on: SQL text and types, how a unit of
 * work becomes a transaction, locks, and bulk loading. Everything else (planning writes,
 * positions, versions, serialised rows, the cell index's contents, migrations' order) is the
 * engine's, written once in `row-store.ts`. Statements return `DbWork` for a unit to `yield*`.
 */
export interface Dialect extends StoreDatabase {
  /** One process owns the store, so sheets may be kept in memory between requests. */
  readonly ownsStore: boolean;

  /**
   * Runs read-only work on one consistent snapshot. (A unit of one statement is consistent by
   * itself: a dialect may run it without a transaction.)
   */
  read<T>(work: () => DbWork<T>): Promise<T>;
  /** Opens a snapshot that stays consistent until `end()`. */
  snapshot(): Promise<Snapshot>;
  /** Runs work in one transaction that is durable once the promise resolves. */
  write<T>(work: () => DbWork<T>): Promise<T>;

  /** Sheets and their push fences (see sql/sheet-sql.ts). */
  readonly sheets: SheetStatements;
  /** Rows, their cell index, and answers joined from them (see sql/row-sql.ts). */
  readonly rows: RowStatements;
  /** A large sheet's rows joined in blocks (see sql/block-sql.ts). */
  readonly blocks: BlockStatements;

  /** The outbox of row events (see sql/outbox-sql.ts). */
  readonly outbox: OutboxStatements;

  /** Webhooks and their delivery log (see sql/webhook-sql.ts). */
  readonly webhooks: WebhookStatements;

  /** Idempotency keys (see sql/idempotency-sql.ts). */
  readonly idempotency: IdempotencyStatements;

  /** Flags, watches and server leases (see sql/lease-sql.ts). */
  readonly leases: LeaseStatements;

  /** Push tags and the records a provider keeps of each push (see sql/push-tag-sql.ts). */
  readonly pushes: PushStatements;
  /** API keys (see sql/key-sql.ts). */
  readonly apiKeys: ApiKeyStatements;
  /** Provider credentials the server keeps, such as a Microsoft sign-in's refresh token. */
  readonly credentials: CredentialStatements;
}

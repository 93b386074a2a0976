import type { Sheet } from '../model/sheet.ts';
import type { DbWork } from './db-work.ts';

/*
 * The records the store keeps and the shapes its statements share: what both the store's
 * interface (store.ts) and the dialect under it (dialect.ts, sql/) speak of. They live apart from
 * both so that neither imports the other's module for a type.
 */

/** An API key as stored: its secret only as a hash. */
export interface ApiKeyRecord {
  id: string;
  sheetId: string;
  name: string;
  scopes: string[];
  hash: string;
  createdAt: string;
  /** When it stops opening anything; null for a key that never expires. */
  expiresAt: string | null;
  /** The key that replaced it when it was rotated; it works on until `expiresAt`. */
  rotatedTo: string | null;
}

/** An `Idempotency-Key`, scoped to its sheet and to the credential that sent it. */
export interface KeyId {
  sheetId: string;
  /** `key:<api key id>`, `admin` or `anonymous`. */
  scope: string;
  key: string;
}

/** A push's tag as the store counts it in its spreadsheet's budget. */
export interface PushTagEntry {
  /** The tag's id (its developer metadata id). */
  tag: number;
  /** Its size in characters, as the spreadsheet holds it (key and value). */
  chars: number;
  /**
   * Epoch ms until which an attempt of its push may still land: it is kept until then. For a
   * row anchor, when a push last used it (anchors are removed least recently used first).
   */
  guardUntil: number;
  /** Set for a row anchor: the id of the tab it is on. */
  anchorTab?: number;
}

/** Thrown by `HeldLock.verify` once the sheet's lock is lost: another server may hold it. */
export class LockLost extends Error {
  override name = 'LockLost';
}

/** The sheet's lock as held by `withSheetLock`'s work. */
export interface HeldLock {
  /**
   * The sheet's lock epoch as this hold made it: taking the lock makes it one greater (a fencing
   * token). Every store write made for a push names it, and changes nothing once another server
   * took the lock since (its epoch is greater).
   */
  readonly epoch: number;
  /** Aborted when the lock is known to be lost (its connection to the database died). */
  readonly signal: AbortSignal;
  /** Throws `lock-lost` unless the lock is still held, asking the database where it must. */
  verify(): Promise<void>;
}

/** A server running on a store, until its lease runs out (renewed while it runs). */
export interface ServerLease {
  /** One id per server process. */
  owner: string;
  host: string;
  pid: number;
  /** ISO 8601. */
  leaseUntil: string;
}

/** A webhook, with where it stands in its sheet's outbox. */
export interface WebhookRecord {
  id: string;
  sheetId: string;
  url: string;
  /** The event types it is sent. */
  events: string[];
  /** `whsec_` and the base64 of the key that signs its deliveries. */
  secret: string;
  /** The secret before the last rotation: deliveries are signed with it too until it expires. */
  previousSecret: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  /** The outbox position (seq) of the last event it is done with. */
  cursor: number;
  /** Attempts made at the event after `cursor`, and when the first was. */
  attempt: number;
  firstAttemptAt: string | null;
  /** When the next attempt is due. */
  nextAttemptAt: string;
  /** Set once it is switched off (a 410 Gone); nothing is sent to it then. */
  disabledAt: string | null;
  disabledReason: string | null;
}

/** One attempt to deliver an event to a webhook. */
export interface DeliveryRecord {
  webhookId: string;
  eventId: string;
  type: string;
  attempt: number;
  /** The receiver's answer, or null when none came. */
  status: number | null;
  error: string | null;
  /** When the event is tried again; null when it was delivered or given up on. */
  nextRetryAt: string | null;
  at: string;
}

/** A webhook's state after an attempt: written with the attempt, which ends its lease. */
export type WebhookProgress = Pick<
  WebhookRecord,
  'cursor' | 'attempt' | 'firstAttemptAt' | 'nextAttemptAt' | 'disabledAt' | 'disabledReason'
>;

/** A pool's connections: all it holds, those idle, and requests waiting for one. */
export interface ConnectionCounts {
  total: number;
  idle: number;
  waiting: number;
}

/**
 * What the database answers by itself, with no work of the store around it: its locks, its
 * rate-limit counts, its health, its pool and its end. The store hands it out as it is.
 */
export interface StoreDatabase {
  /**
   * Runs `work` holding the sheet's lock, which servers sharing the store take in turn: for work
   * spanning more than one call, such as planning a write, sending it upstream and applying it.
   */
  withSheetLock<T>(sheetId: string, work: (lock: HeldLock) => Promise<T>): Promise<T>;
  /**
   * Counts a request against a rate limit shared by every server on this store; absent when one
   * server owns the store and counts in memory.
   */
  countHit?(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  /** Resolves when the store answers; throws `store-unavailable` when it does not. */
  ping(): Promise<void>;
  /** The database connections of a store with a pool (PostgreSQL); null for one without. */
  connections(): ConnectionCounts | null;
  close(): Promise<void>;
}

/** A sheet as stored: what the API shows, and what only the engine needs. */
export interface SheetRecord extends Sheet {
  /** The sheet's number in the shared tables; ids are for the API. */
  key: number;
  /** The id the next appended row gets; row ids stay with a row while positions shift. */
  nextRid: number;
  /**
   * Whether the sheet is large: read whole from its blocks, and filtered through the cell index
   * on the columns of `indexedColumns`; a small sheet is read whole and filtered in memory.
   */
  indexed: boolean;
  /**
   * The columns whose cells are in the cell index, ascending. A column joins the first time a
   * filter on it reaches the large sheet, and stays (under its name, when the header changes):
   * writes keep only these entries, so a sheet pays for the columns it is filtered on.
   */
  indexedColumns: number[];
  /**
   * Whether the rows are in the order of their ids: no row was inserted above another, moved, or
   * given an id from before, since the sheet was made (unknown, so false, for sheets made before
   * this was kept). The first of some rows in the sheet is then the one with the lowest id.
   */
  rowsInIdOrder: boolean;
  /** Set while a provider push is in flight or its outcome is unknown (see the mirror). */
  pushing: string | null;
}

/** An event as the outbox keeps it until it has been delivered and kept long enough. */
export interface StoredEvent {
  seq: number;
  id: string;
  sheetId: string;
  type: string;
  body: string;
  createdAt: string;
}

/**
 * What a push's store writes are checked against: the sheet's lock epoch (see `HeldLock.epoch`)
 * and, while a push is out, the time (epoch ms) after which none of its requests can still be in
 * flight, null when there is none to wait for.
 */
export interface PushFence {
  epoch: number;
  settleAfter: number | null;
}

/**
 * A key as stored. `running` while a request holds it under a lease (which its server renews);
 * `done` with the outcome to answer again; `unknown` when the write's fate is not known yet. A
 * `push` ties a running key to a provider push: only settling that push frees or ends it.
 */
export interface IdempotencyRecord extends KeyId {
  fingerprint: string;
  state: 'running' | 'done' | 'unknown';
  token: string;
  /** ISO time; a running key whose lease passed was held by a server that is gone. */
  leaseUntil: string;
  push: string | null;
  /** The JSON of a done key's KeyOutcome. */
  outcome: string | null;
  createdAt: string;
  expiresAt: string;
  /** The client address of a caller without a credential, whose keys are bounded by it too. */
  client: string | null;
}

/**
 * A large sheet's rows also live joined, in blocks of consecutive rows: each block holds its
 * rows' JSON joined by commas, kept current by every write, so that reading the whole sheet
 * joins a hundred blocks rather than ten thousand rows. A block covers `count` rows, from where
 * the blocks before it end; numbers order the blocks and may have gaps. The last rows appended
 * may wait after the blocks, to join them a few kilobytes at a time (see row-blocks.ts).
 */
export interface BlockHead {
  block: number;
  count: number;
  /** Length of the block's joined text, to know when it is full. */
  bytes: number;
}

/**
 * A provider's credential that the store keeps for the server, such as the refresh token of a
 * user who signed in to Microsoft. It is a secret: nothing answers it, logs it or puts it in a
 * problem; only the code that spends it (delegated-tokens.ts) reads it.
 */
export interface ProviderCredential {
  /** Which credential: `microsoft`. */
  provider: string;
  /** Who signed in, as the provider names them (null when it would not say). */
  account: string | null;
  refreshToken: string;
  /** The application and tenant the token was issued to: another one cannot spend it. */
  clientId: string;
  tenant: string;
  scope: string;
  createdAt: string;
  /** When the token was last rotated. */
  updatedAt: string;
}

/** The statements of the credential table (written once, in sql/credential-sql.ts). */
export interface CredentialStatements {
  credential(provider: string): DbWork<ProviderCredential | null>;
  /** Inserts the credential, or replaces the one the provider had (a new sign-in). */
  putCredential(record: ProviderCredential): DbWork<void>;
  /**
   * Replaces the refresh token only if it is still `previous`: false when another server
   * rotated it (or someone signed out or in) meanwhile, and nothing changed.
   */
  rotateCredential(
    provider: string,
    previous: string,
    refreshToken: string,
    updatedAt: string,
  ): DbWork<boolean>;
  deleteCredential(provider: string): DbWork<boolean>;
}

import { Problem } from '../errors/problem.ts';
import type { Filtering } from '../query/plan.ts';
import type { RowEntries } from './cell-index.ts';
import type { GroupPage, GroupSpec, RowChoice } from './sql/aggregate-sql.ts';
import type { CredentialStatements } from './store-records.ts';
import type { OutboxStatements } from './sql/outbox-sql.ts';
import type { PushStatements } from './sql/push-tag-sql.ts';
import type { WebhookStatements } from './sql/webhook-sql.ts';
import type { ApiKeyStatements } from './sql/key-sql.ts';
import type { IdempotencyStatements } from './sql/idempotency-sql.ts';
import type { LeaseStatements } from './sql/lease-sql.ts';
import type { BlockHead } from './store-records.ts';
import type { StoredRow } from './row-json.ts';
import type { HeldLock, StoreDatabase } from './store-records.ts';
export { LockLost } from './store-records.ts';
import type { DbWork } from './db-work.ts';
export type { SheetRecord, StoredEvent, PushFence } from './store-records.ts';
import type { SheetRecord, PushFence } from './store-records.ts';

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

  // Sheets
  sheetById(id: string, lock?: boolean): DbWork<SheetRecord | null>;
  /** The sheets of those ids that exist, in any order, in one statement. */
  sheetsById(ids: string[]): DbWork<SheetRecord[]>;
  listSheets(): DbWork<SheetRecord[]>;
  /** A key no sheet has, for the sheet about to be inserted in the same transaction. */
  newSheetKey(): DbWork<number>;
  insertSheet(sheet: SheetRecord, state: 'importing' | 'ready'): DbWork<void>;
  /**
   * Saves a sheet's fields; `publish` also makes an imported sheet visible, once all its rows
   * are in (in the same statement: on PostgreSQL each update leaves a row version behind).
   */
  saveSheet(sheet: SheetRecord, publish?: boolean): DbWork<void>;
  /** The sheet's lock epoch, and when its push's requests can no longer be in flight. */
  pushFence(id: string): DbWork<PushFence | null>;
  setPushSettleAfter(key: number, at: number | null): DbWork<void>;
  /** Removes a sheet with its rows, cells, keys and events. */
  deleteSheet(key: number): DbWork<void>;

  /** Removes what imports cut off by a crash left behind. */
  dropAbandonedImports(): DbWork<void>;

  // Rows
  rowsBetween(key: number, from: number, to: number): DbWork<StoredRow[]>;
  rowsAt(key: number, positions: number[]): DbWork<StoredRow[]>;
  insertRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** Replaces rows' text in place; positions and row ids stay. */
  updateRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** The rows with these ids (keys) that exist, in sheet order. */
  rowsByRid(key: number, rids: number[]): DbWork<StoredRow[]>;
  /** Gives rows, found by id, new positions (rows that changed places among themselves). */
  placeRows(key: number, rows: StoredRow[]): DbWork<void>;
  /** Removes rows by position; the rows below them move up to close the gaps. */
  deleteRows(key: number, positions: number[]): DbWork<void>;
  /** Moves the rows at `at` and below down by `count`, making room to insert. */
  openRows(key: number, at: number, count: number): DbWork<void>;
  deleteAllRows(key: number): DbWork<void>;

  // The cell index
  insertEntries(key: number, rows: RowEntries[]): DbWork<void>;
  deleteEntries(key: number, rows: RowEntries[]): DbWork<void>;
  deleteAllEntries(key: number): DbWork<void>;
  /** The positions of an indexed sheet's rows that a filter selection chooses, ascending. */
  matchingPositions(key: number, selection: Filtering): DbWork<number[]>;

  /**
   * Whether aggregates can read the cells of an indexed sheet's rows from the cell index, by row
   * (`GroupSpec.fromIndex`), which costs writes one more index of its entries.
   */
  readonly readsCellsByRow: boolean;
  /** Groups the chosen rows, computes aggregates over their cells, and answers a page of groups. */
  aggregateRows(key: number, choice: RowChoice, spec: GroupSpec): DbWork<GroupPage>;

  // Blocks: a large sheet's rows joined, a run of consecutive rows each (see row-blocks.ts)
  blockHeads(key: number): DbWork<BlockHead[]>;
  /** The last `limit` blocks' heads, in order: all an append needs, without walking every block. */
  lastBlockHeads(key: number, limit: number): DbWork<BlockHead[]>;
  insertBlocks(key: number, blocks: { block: number; count: number; json: string }[]): DbWork<void>;
  /** Adds rows' joined JSON at the end of a block. */
  appendToBlock(key: number, block: number, count: number, json: string): DbWork<void>;
  /** Joins a block again from the `count` rows from `start`; answers its new length. */
  rejoinBlock(key: number, block: number, start: number, count: number): DbWork<number>;
  deleteBlocks(key: number, blocks: number[]): DbWork<void>;
  deleteAllBlocks(key: number): DbWork<void>;
  /**
   * Every row, from the blocks, one piece each (to be joined by commas): null when the sheet
   * has more rows than `maxRows` by now, so the read must take its rows from the rows themselves.
   */
  jsonOfBlocks(key: number, maxRows: number): DbWork<Buffer[] | null>;

  // Answers: rows' JSON joined by commas, ready to send between brackets
  /**
   * The rows from position `from` up to `to`, which may lie past the sheet's end. `expected` is
   * about how many that is, as the sheet was looked up: a dialect may read many another way.
   */
  jsonBetween(
    key: number,
    from: number,
    to: number,
    withIds: boolean,
    expected: number,
  ): DbWork<Buffer>;
  jsonAt(key: number, positions: number[], withIds: boolean): DbWork<Buffer>;
  /** All the rows a filter selection chooses on an indexed sheet, found and joined at once. */
  jsonMatching(
    key: number,
    selection: Filtering,
    withIds: boolean,
  ): DbWork<{ count: number; json: Buffer }>;

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

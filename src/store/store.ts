import type { AggregatePlan } from '../query/plan-aggregate.ts';
import type { Cell } from '../cells/cell.ts';
import type { Problem } from '../errors/problem.ts';
import type { ReadPlan, WriteOp } from '../query/plan.ts';
import type { Sheet, SheetSettings, SheetSource } from '../model/sheet.ts';
import type { WriteResult } from '../model/write-effect.ts';
import type { RowTag, WritePlan } from './plan-write.ts';
import type { CredentialStore } from './provider-credentials.ts';
import type { PushFence } from './store-records.ts';
import type { PushedRows } from './pushed-rows.ts';
import type { HeldKey, PushedKey, PushEnd } from './key-claims.ts';
import type { OutboxStore } from './outbox-store.ts';
import type { WebhookStore } from './webhook-store.ts';
import type { ApiKeyStore } from './api-key-store.ts';
import type { LeaseStore } from './lease-store.ts';
import type { PushTagStore } from './push-tag-store.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
export type { HeldKey, KeyBounds, KeyClaim, KeyOutcome, PushedKey, PushEnd } from './key-claims.ts';
export type { RowEvent } from './outbox-store.ts';
export type {
  ApiKeyRecord,
  KeyId,
  PushTagEntry,
  HeldLock,
  ServerLease,
  WebhookRecord,
  DeliveryRecord,
  WebhookProgress,
  ConnectionCounts,
  StoreDatabase,
} from './store-records.ts';
import type { StoreDatabase } from './store-records.ts';
export { LockLost } from './store-records.ts';

export interface NewSheet {
  id: string;
  name: string;
  columns: string[];
  source: SheetSource;
  settings: SheetSettings;
  /**
   * Columns an import found to hold codes once it read every row (a workbook's, see
   * upload.ts): declared text, and their cells made text, before the sheet is shown.
   */
  codeColumns?: () => string[];
}

export interface SheetChanges {
  name?: string;
  settings?: Partial<SheetSettings>;
  source?: SheetSource;
}

/** A write as the queue hands it to the store: the op, and the version it requires, if any. */
export interface WriteRequest {
  op: WriteOp;
  /** `If-Match`: the write applies only if the sheet is still at one of these versions. */
  ifMatch: number[] | null;
  /** Row ETags `If-Match` named: the write applies if each row is still as it was. */
  ifMatchRows?: RowTag[];
  /** Who sent it, as its row events name them. */
  actor?: Actor;
  /** Its `Idempotency-Key`, held by this server: the outcome is recorded with the write. */
  idempotency?: HeldKey;
}

/** Who made a change, as its row events name them: an API key by its id, never its secret. */
export type Actor =
  { type: 'key'; id: string } | { type: 'admin' } | { type: 'anonymous' } | { type: 'provider' };

/** The writes of a provider-backed sheet, planned in memory and already applied upstream. */
export interface MirrorWrite extends WritePlan {
  /** Who sent the write, as its row events name them. */
  actor?: Actor | undefined;
  /** The write's key, settled with the apply. */
  idempotency?: HeldKey | undefined;
}

/**
 * The mark a mirrored sheet carries while one of its pushes is out: set before the push, in one
 * statement that also checks the sheet is as the pushing server planned on (the fence against a
 * server that lost the sheet's lock meanwhile). Records that must be kept with the push (such as
 * the keys of the writes it carries) belong here, so they are written in the same statement.
 */
export interface PushMark {
  /** The push's id, as the sheet's marker holds it. */
  pushId: string;
  /** The sheet must still be at this version and carry this marker (null: none). */
  expect: { version: number; pushing: string | null };
  /** The plan sent first, and the keys of the batch with their answers should it land. */
  plan?: string;
  keys?: PushedKey[];
  /** The lock epoch the pushing server holds: the mark is set only while it is the sheet's. */
  epoch?: number;
  /**
   * Row ids (keys) the push's appended rows were planned with: the sheet's next id is moved past
   * this one in the same statement, so that no other row is ever given them.
   */
  reserveRids?: number;
  /** The rows the plan sent first appends, with their keys: kept to settle the push by. */
  rows?: PushedRows;
  /**
   * Epoch ms after which none of the push's requests can still be in flight: a server that takes
   * the sheet over settles the push no earlier (see `PushFence`). Absent: at once.
   */
  settleAfter?: number;
}

/**
 * What `replaceRows` made on behalf of a push (or a commit) checks before it changes anything:
 * the lock epoch its server holds and the push mark it expects the sheet to carry (null: none).
 */
export interface ReplaceFence {
  epoch: number;
  pushing: string | null;
}

/** Where a row change came from, as its event says. */
export type ChangeSource = 'api' | 'provider';

/** A read's answer: the version it read, how many rows matched before paging, and the rows. */
export interface ReadAnswer<T> {
  version: number;
  total: number;
  /** One piece for most reads; a large read comes in pieces from one consistent snapshot. */
  chunks: AsyncIterable<T>;
  /** True when the pieces are read as they are taken: the answer should be sent as it comes. */
  streamed: boolean;
}

/** The groups of `_group` and `_agg`: the version read, how many before paging, and the page. */
export interface GroupAnswer {
  version: number;
  total: number;
  /** Each group's cells: the group columns' cells, then the aggregates' values. */
  rows: Cell[][];
}

/** Rows as cells, with their positions, for answers that are not the stored JSON. */
export interface CellRows {
  positions: number[];
  /** The rows' ids: their keys, as numbers. */
  rids: number[];
  rows: Cell[][];
}

/** Rows one commit appended to a sheet, as `writeRows` committed them. */
export interface RowsAppended {
  sheetId: string;
  /** The sheet's version before the commit and after it. */
  from: number;
  to: number;
  /** Each row's JSON as reads answer it (without `_id`), in sheet order. */
  rows: string[];
  /**
   * When (`performance.now()`) the commit began: what was read before then is of version `from`
   * or older, never newer.
   */
  began: number;
}

/**
 * Where sheets and their rows live, with what the server keeps beside them: the outbox of row
 * events, webhooks, API keys, flags and leases, push tags and idempotency keys, each declared
 * and built over the dialect in a module of its own (see `store-concerns.ts`). One row engine
 * implements the sheets and rows (`row-store.ts`) over a dialect per database; everything above
 * this interface is the same whichever database runs.
 */
export interface SheetStore
  extends OutboxStore, WebhookStore, ApiKeyStore, LeaseStore, PushTagStore, IdempotencyStore {
  listSheets(): Promise<Sheet[]>;
  getSheet(id: string): Promise<Sheet | null>;
  /**
   * Creates a sheet from rows that may arrive over time (a streamed upload). The sheet becomes
   * visible only once every row is in: if the rows fail part way, nothing is left behind.
   */
  createSheet(sheet: NewSheet, rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>): Promise<Sheet>;
  updateSheet(id: string, changes: SheetChanges): Promise<Sheet | null>;
  deleteSheet(id: string): Promise<boolean>;

  /**
   * The rows a plan chooses as JSON text: pieces of rows joined by commas, to be joined by
   * commas and put between brackets. The sheet is as this store gave it (its version labels the
   * answer); the rows read are at least as new.
   */
  readJson(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<Buffer[]>>;
  /** The rows a plan chooses as cells, for CSV and other formats. */
  readCells(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<CellRows>>;
  /** Groups and aggregates over the rows a plan chooses, computed by the database. */
  readAggregate(sheet: Sheet, plan: AggregatePlan): Promise<GroupAnswer>;

  /**
   * Plans and applies writes in order, in one transaction that is durable when the promise
   * resolves. Each write applies whole or not at all: one that fails yields its Problem and
   * leaves the others to commit. Each write that changes rows emits its row events with it.
   */
  writeRows(sheetId: string, writes: WriteRequest[]): Promise<(WriteResult | Problem)[]>;
  /**
   * Tells `listener` of each commit of `writeRows` that appended rows and changed nothing else,
   * at once, before its writes are answered (see `RowsAppended`).
   */
  onAppended(listener: (appended: RowsAppended) => void): void;
  /**
   * Every row of a sheet, with their ids (keys), for a provider-backed sheet's writes to be
   * planned on; `nextRid` is the first id the sheet has not given out.
   */
  loadRows(
    sheetId: string,
  ): Promise<{ sheet: Sheet; rows: Cell[][]; rids: number[]; nextRid: number }>;
  /**
   * Plans writes in order on rows in hand (a provider-backed sheet's, as checked against its
   * spreadsheet), each seeing those before it, changing nothing stored: for `applyPlanned`.
   * `keys`: the rows' ids (null for a row the copy has not taken yet) and the first id rows
   * appended here are given (a push reserves them with its mark; see `PushMark.reserveRids`).
   */
  planOnRows(
    sheet: Sheet,
    rows: Cell[][],
    writes: WriteRequest[],
    keys: { rids: (number | null)[]; nextRid: number },
  ): (MirrorWrite | Problem)[];
  /**
   * The ids the rows of a tab just read will have once the copy takes them, as `applyPlanned`
   * does with its `base`: those of the rows the copy keeps, and for rows it adds the next free
   * ids from `firstFree` on (a push takes them after the ids it reserved), in order. For
   * planning writes by key on a tab read.
   */
  ridsAfterRead(sheetId: string, rows: Cell[][], firstFree: number): Promise<number[]>;
  /**
   * Applies writes planned with `planOnRows` (and already applied upstream) as they were
   * planned, and clears the push marker with them: the copy matches the spreadsheet again. With
   * `base`, the rows the writes were planned on (a read of the spreadsheet the copy has not
   * taken yet), the copy first takes those rows, as `replaceRows` would, in the same
   * transaction. Only while the sheet still carries push `pushId`'s marker and (given) its lock
   * epoch is still `epoch` (the fence): null, and nothing applied, otherwise. The push's keys are settled in the same transaction: those
   * of `writes` with their results, the others with their answers for `plan` (the plan that
   * landed).
   */
  applyPlanned(
    sheetId: string,
    pushId: string,
    writes: MirrorWrite[],
    source: ChangeSource,
    base?: Cell[][] | null,
    plan?: string | null,
    epoch?: number | null,
  ): Promise<WriteResult[] | null>;
  /**
   * Makes a sheet hold these columns and rows, a fresh read of its spreadsheet, changing only the
   * rows that differ (`changed` is false, and the version stays, when none do), and sets the push
   * marker to `marker` (by default clears it: the copy matches the spreadsheet). With `settled`,
   * a push closed before the read, its keys are settled by how it ended in the same transaction.
   * With `fence`, only while the sheet's lock epoch and mark are as it says: otherwise it throws
   * `LockLost` and changes nothing.
   */
  replaceRows(
    sheetId: string,
    columns: string[],
    rows: Cell[][],
    marker?: string | null,
    settled?: { pushId: string; end: PushEnd },
    fence?: ReplaceFence,
  ): Promise<{ sheet: Sheet; changed: boolean }>;
  /**
   * Marks a sheet as pushing, if it is still as `mark.expect` says (the fence), and ties the
   * mark's keys to the push in the same transaction; false, and nothing changed, otherwise (or
   * when one of the keys is no longer held by its request).
   */
  markPushing(sheetId: string, mark: PushMark): Promise<boolean>;
  /**
   * Clears push `pushId`'s marker, if the sheet still carries it: nothing of it landed. Its keys
   * are freed with it, or take `answers` (those of writes that needed no push). With `epoch`,
   * nothing changes once the sheet's lock epoch moved past it.
   */
  clearPushing(
    sheetId: string,
    pushId: string,
    answers?: PushedKey[],
    epoch?: number | null,
  ): Promise<void>;
  pushingMarker(sheetId: string): Promise<string | null>;
  /** The sheet's lock epoch and when its push's requests can no longer be in flight. */
  pushFence(sheetId: string): Promise<PushFence | null>;

  /**
   * What a provider keeps of push `pushId` to settle it from the spreadsheet alone, on any
   * server (an Excel push's session, operations and images): null when none is kept. A record
   * lives while the sheet carries the push's marker and goes with it.
   */
  pushRecord(sheetId: string, pushId: string): Promise<string | null>;
  /**
   * Saves push `pushId`'s record, only while the sheet carries its marker and the record stored
   * is still `previous` (null: none yet), so that a server settling the push can take it over
   * from the one that sent it; false, and nothing saved, otherwise.
   */
  savePushRecord(
    sheetId: string,
    pushId: string,
    record: string,
    previous: string | null,
  ): Promise<boolean>;

  /**
   * Keeps the rows another plan of push `pushId` appends, with their keys (see `PushMark.rows`),
   * while the sheet carries the push's mark; false, and nothing kept, otherwise.
   */
  keepPushedRows(sheetId: string, pushId: string, rows: PushedRows): Promise<boolean>;

  /** Provider credentials kept for the server (see provider-credentials.ts). */
  readonly credentials: CredentialStore;
  /** The database under the store, for what it answers by itself. */
  readonly database: StoreDatabase;
}

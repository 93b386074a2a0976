import type { AggregatePlan } from '../query/plan-aggregate.ts';
import type { Cell } from '../cells/cell.ts';
import type { Problem, ProblemCode, ProblemExtensions } from '../errors/problem.ts';
import type { ReadPlan, WriteOp } from '../query/plan.ts';
import type { Sheet, SheetSettings, SheetSource } from '../model/sheet.ts';
import type { WriteOutcome, WriteResult } from '../model/write-effect.ts';
import type { RowTag, WritePlan } from './plan-write.ts';
import type { CredentialStore } from './provider-credentials.ts';
import type { PushFence } from './store-records.ts';
import type { PushedRows } from './pushed-rows.ts';
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
import type {
  ApiKeyRecord,
  KeyId,
  PushTagEntry,
  ServerLease,
  WebhookRecord,
  DeliveryRecord,
  WebhookProgress,
  StoreDatabase,
} from './store-records.ts';
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

/** A key this server holds while its request runs; `token` tells this hold from a later one. */
export interface HeldKey extends KeyId {
  token: string;
}

/** What a keyed write answered, kept to be answered again: its outcome, or its problem. */
export type KeyOutcome =
  | { kind: 'result'; outcome: WriteOutcome; version?: number | undefined }
  | {
      kind: 'problem';
      code: ProblemCode;
      detail: string;
      extensions: ProblemExtensions;
      headers: Record<string, string>;
    };

/** What claiming a key found; `full` when a new key would pass a bound of `KeyBounds`. */
export type KeyClaim =
  | { kind: 'claimed'; held: HeldKey }
  | { kind: 'replay'; outcome: KeyOutcome }
  | { kind: 'mismatch' }
  | { kind: 'in-use' }
  | { kind: 'full'; limit: 'perCredential' | 'perClient'; max: number; retryAfterSeconds: number };

/**
 * How many live keys one sender may hold on a sheet: per credential, and for callers without one
 * (who share it) per client address too. 0 turns a bound off.
 */
export interface KeyBounds {
  perCredential: number;
  perClient: number;
  /** The client's address, for callers without a credential; null otherwise. */
  client: string | null;
}

/** The writes of a provider-backed sheet, planned in memory and already applied upstream. */
export interface MirrorWrite extends WritePlan {
  /** Who sent the write, as its row events name them. */
  actor?: Actor | undefined;
  /** The write's key, settled with the apply. */
  idempotency?: HeldKey | undefined;
}

/** A key tied to a push, with the answer it keeps should its plan land (null: none, freed). */
export interface PushedKey {
  held: HeldKey;
  outcome: KeyOutcome | null;
}

/**
 * How a push ended, for the keys tied to it: the plan that landed (null: none did), and answers
 * known better than planned, which win.
 */
export interface PushEnd {
  plan: string | null;
  answers?: PushedKey[];
  /**
   * Answers by key (its scope and name) where the provider learned each write's own outcome:
   * a write of the landed plan that did not land is freed (null), one that landed in part keeps
   * the problem it was answered. They win over the plan's answers.
   */
  byKey?: { scope: string; key: string; outcome: KeyOutcome | null }[];
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

/** A row event as the outbox keeps it. */
export interface RowEvent {
  id: string;
  sheetId: string;
  type: string;
  /** The event's JSON, as it is delivered. */
  body: string;
  createdAt: string;
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
 * Where sheets and their rows live. One row engine implements it (`row-store.ts`) over a dialect
 * per database; everything above this interface is the same whichever database runs.
 */
export interface SheetStore {
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

  // Push tags, counted per spreadsheet by every server sharing the store
  /**
   * Counts `entry`, a push's tag, in `spreadsheet`'s budget of `budget` characters, if the tags
   * that may still guard an attempt (`guardUntil` after `now`) leave room for it. Answers whether
   * it is counted, and the tags that guard nothing any more, to be removed with the push.
   */
  reservePushTag(
    spreadsheet: string,
    entry: PushTagEntry,
    budget: number,
    now: number,
  ): Promise<{ reserved: boolean; expired: number[] }>;
  /**
   * Counts a push's row anchors on tab `tabId` of `spreadsheet` (see `AnchorBudget.reserve`):
   * anchors take at most half of `budget`, so that push tags never wait for them. Answers the
   * anchors to remove, least recently used first (no longer counted), or null when no room.
   */
  reserveAnchors(
    spreadsheet: string,
    tabId: number,
    anchors: { used: number[]; created: number[]; seen: number[] | null },
    limits: { budget: number; chars: number; now: number },
  ): Promise<number[] | null>;
  /** Counts tags a read found that are not counted yet (such as an earlier version's). */
  notePushTags(spreadsheet: string, entries: PushTagEntry[]): Promise<void>;
  /** Moves a counted tag's guard (its attempts are all answered: it guards nothing any more). */
  guardPushTag(spreadsheet: string, tag: number, guardUntil: number): Promise<void>;
  /** Stops counting tags removed from the spreadsheet. */
  forgetPushTags(spreadsheet: string, tags: number[]): Promise<void>;
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

  // Idempotency keys (see idempotency-records.ts)
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
  /**
   * Keeps the rows another plan of push `pushId` appends, with their keys (see `PushMark.rows`),
   * while the sheet carries the push's mark; false, and nothing kept, otherwise.
   */
  keepPushedRows(sheetId: string, pushId: string, rows: PushedRows): Promise<boolean>;
  /** Settles the keys of a push by how it ended (see `PushEnd`). */
  settlePushedKeys(sheetId: string, pushId: string, end: PushEnd): Promise<void>;
  /**
   * Removes the keys kept past their time, `batch` to a transaction so that writes never wait
   * long behind it; answers how many.
   */
  pruneIdempotencyKeys(batch?: number): Promise<number>;

  /** Row events of a sheet after `after` (an event id), oldest first. */
  eventsAfter(sheetId: string, after: string | null, limit: number): Promise<RowEvent[]>;
  /** The id of a sheet's newest row event; null when it has none. */
  latestEventId(sheetId: string): Promise<string | null>;
  /** The outbox position of a sheet's newest event; 0 when it has none. */
  latestEventSeq(sheetId: string): Promise<number>;
  /** The position of a sheet's event `id`, if it is kept and made at `notBefore` or later. */
  eventCursor(sheetId: string, id: string, notBefore: Date): Promise<number | null>;
  /**
   * A sheet's events after position `seq`, made at `notBefore` or later, oldest first: `limit`
   * at most, and no more once their bodies reach `maxBytes` (the first always comes).
   */
  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: Date,
  ): Promise<(RowEvent & { seq: number })[]>;
  /** The newest outbox position of each of these sheets that has events. */
  latestEventSeqs(sheetIds: string[]): Promise<Map<string, number>>;
  /** The bytes of a sheet's next `limit` events after position `seq`. */
  eventBytesAfter(sheetId: string, seq: number, limit: number): Promise<number>;
  /**
   * Removes the events made before `olderThan`, except those an enabled webhook of their sheet
   * has still to send that were made at `heldSince` or later; answers how many went.
   */
  pruneEvents(olderThan: Date, heldSince: Date): Promise<number>;

  // Webhooks
  /** Adds a webhook that is sent the sheet's events from now on (its cursor: the newest). */
  createWebhook(
    webhook: Pick<WebhookRecord, 'id' | 'sheetId' | 'url' | 'events' | 'secret' | 'createdAt'>,
  ): Promise<WebhookRecord>;
  webhooksOf(sheetId: string): Promise<WebhookRecord[]>;
  /** The ids of the sheets that have a webhook switched on. */
  webhookSheets(): Promise<string[]>;
  /** Events waiting for the webhooks that are on, of every sheet (whatever their types). */
  webhookBacklog(): Promise<number>;
  deleteWebhook(sheetId: string, id: string): Promise<boolean>;
  /**
   * Gives a webhook a new signing secret; the one it had signs alongside it until
   * `previousUntil` (never, when null). Null for an unknown webhook.
   */
  rotateWebhookSecret(
    sheetId: string,
    id: string,
    secret: string,
    previousUntil: string | null,
  ): Promise<WebhookRecord | null>;
  /**
   * Takes up to `limit` webhooks whose next attempt is due, for `leaseMs`: no other server takes
   * them meanwhile, so each event is sent by one server at a time, in order.
   */
  claimWebhooks(leaseMs: number, limit: number): Promise<WebhookRecord[]>;
  /** A sheet's first event after outbox position `seq`, with its position; null when none. */
  eventAfter(sheetId: string, seq: number): Promise<(RowEvent & { seq: number }) | null>;
  /**
   * Records attempts and the webhook's state after them; `release` ends this server's lease,
   * which it keeps while it goes on to the next event.
   */
  recordDelivery(
    webhookId: string,
    progress: WebhookProgress,
    deliveries: DeliveryRecord[],
    release: boolean,
  ): Promise<void>;
  /** A webhook's most recent delivery attempts, newest first. */
  deliveriesOf(webhookId: string, limit: number): Promise<DeliveryRecord[]>;

  /**
   * Sets a flag for one-time set-up, like the demo sheet: true for the one caller, across all
   * servers sharing the store, that set it first.
   */
  claimFlag(name: string): Promise<boolean>;
  /**
   * Of the sheets `owner` wants to watch, those it may: its lease on each is taken or renewed
   * for `leaseMs`, unless another owner's is still running. Its leases on other sheets end.
   */
  holdWatches(owner: string, sheetIds: string[], leaseMs: number): Promise<string[]>;
  releaseFlag(name: string): Promise<void>;
  /**
   * Records that a server runs on this store until `leaseMs` from now; the server renews it
   * while it runs and removes it when it stops. A server that died leaves it to run out.
   */
  holdServerLease(lease: Omit<ServerLease, 'leaseUntil'>, leaseMs: number): Promise<void>;
  releaseServerLease(owner: string): Promise<void>;
  /** The servers whose lease on this store is still running. */
  runningServers(): Promise<ServerLease[]>;
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
  /** Provider credentials kept for the server (see provider-credentials.ts). */
  readonly credentials: CredentialStore;
  /** The database under the store, for what it answers by itself. */
  readonly database: StoreDatabase;
}

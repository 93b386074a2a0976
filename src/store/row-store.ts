import { setTimeout as sleep } from 'node:timers/promises';
import type { Cell } from '../cells/cell.ts';
import { Problem, sheetNotFound } from '../errors/problem.ts';
import { inSheetOrder, type ReadPlan } from '../query/plan.ts';
import { isMirrored, type Sheet } from '../model/sheet.ts';
import type { WriteResult } from '../model/write-effect.ts';
import { CommitOutcomeUnknown, outcomeUnknown, storeUnavailable, type Dialect } from './dialect.ts';
import { type PushFence, type SheetRecord } from './store-records.ts';
import { heldRecord, keyOutcome, keyTakenOver } from './idempotency-records.ts';
import { planWrite, preconditionFailed, type RowTag } from './plan-write.ts';
import { eventTime, rowEvents, type EventTime } from './row-events.ts';
import { cellsOf, chooseRows, jsonOf, type RowsToAnswer, type AnswerPiece } from './read-rows.ts';
import { applyToRids, MemoryRows } from './memory-rows.ts';
import { aggregateIndexColumns, aggregateRows } from './aggregate-rows.ts';
import type { AggregatePlan } from '../query/plan-aggregate.ts';
import { diffRows } from './replace-rows.ts';
import { RowCodec } from './row-json.ts';
import { SheetLookups } from './sheet-lookups.ts';
import { StoredRows } from './stored-rows.ts';
import type { PushedRows } from './pushed-rows.ts';
import { BlockTails } from './row-blocks.ts';
import { filterColumns, indexHolds } from './cell-index.ts';
import type {
  Actor,
  CellRows,
  ChangeSource,
  GroupAnswer,
  NewSheet,
  MirrorWrite,
  PushedKey,
  PushEnd,
  PushMark,
  ReadAnswer,
  ReplaceFence,
  RowEvent,
  RowsAppended,
  SheetChanges,
  SheetStore,
  WriteRequest,
} from './store.ts';
import type { StoreDatabase } from './store-records.ts';
import { runSync, type DbWork } from './db-work.ts';
import { CredentialStore } from './provider-credentials.ts';
import { saveSheetAndEvents, sheetOrMissing } from './sheet-units.ts';
import { addedTextColumns, declareText, textColumnsConverted } from './text-columns.ts';
import { once, pieces } from './read-pieces.ts';
import { applyPlannedWrites, takeTabRead } from './mirror-copy.ts';
import { clearPush, keepPushRecord, keepRowsOfPush, markPush } from './push-marks.ts';
import { StoreConcerns } from './store-concerns.ts';

export interface RowStoreOptions {
  /** Sheets with more rows than this get the cell index; smaller ones are filtered in memory. */
  indexThreshold?: number;
  /** Cells in one piece of a streamed answer (see `defaultPieceCells`). */
  pieceCells?: number;
}

/** Rows an import writes per transaction. */
const chunkRows = 5000;
/**
 * Cells in one piece of a streamed answer, by default. An answer of more than `wholePieces`
 * pieces, in sheet order, is sent in pieces as they are read, from one snapshot, so a wide sheet
 * streams sooner than a narrow one and memory stays flat however large the sheet. Smaller ones
 * are read by one statement, and may be cached and shared.
 */
const defaultPieceCells = 50_000;
const wholePieces = 5;
/** How long a write whose commit was cut off waits to learn whether it landed. */
const outcomeDeadlineMs = 10_000;
/** Sheets kept in memory by a store that one process owns. */
const cachedSheets = 10_000;
/** Sheets whose blocks' end a server remembers between appends (see BlockTails). */
const appendedSheets = 1_000;

/**
 * The row engine: sheets, their rows as ready JSON, writes planned once and applied with their
 * row events, over a dialect that speaks one database. See `dialect.ts` for the split. What the
 * store keeps beside rows (events, webhooks, keys, leases, push tags) comes from its concerns'
 * modules (see store-concerns.ts).
 */
export class RowStore extends StoreConcerns implements SheetStore {
  readonly #db: Dialect;
  readonly #indexThreshold: number;
  readonly #pieceCells: number;
  /** Sheets by id, when one process owns the store; bounded, least recently used first out. */
  readonly #cache: Map<string, SheetRecord> | null;
  readonly #tails = new BlockTails(appendedSheets);
  readonly #appendListeners: ((appended: RowsAppended) => void)[] = [];
  /** Sheets by id otherwise, asked of the database in batches (see sheet-lookups.ts). */
  readonly #lookups: SheetLookups;
  readonly credentials: CredentialStore;
  /** The dialect itself answers for the database: its locks, counts, health, pool and end. */
  readonly database: StoreDatabase;

  constructor(dialect: Dialect, options: RowStoreOptions = {}) {
    super(dialect);
    this.#db = dialect;
    this.database = dialect;
    this.credentials = new CredentialStore(dialect);
    this.#indexThreshold = options.indexThreshold ?? 64;
    this.#pieceCells = options.pieceCells ?? defaultPieceCells;
    this.#cache = dialect.ownsStore ? new Map() : null;
    this.#lookups = new SheetLookups((ids) => dialect.read(() => dialect.sheets.sheetsById(ids)));
  }

  async listSheets(): Promise<Sheet[]> {
    return this.#db.read(() => this.#db.sheets.listSheets());
  }

  async getSheet(id: string): Promise<Sheet | null> {
    if (this.#cache === null) return this.#lookups.get(id);
    const cached = this.#cache.get(id);
    if (cached !== undefined) return cached;
    const record = await this.#db.read(() => this.#db.sheets.sheetById(id));
    if (record !== null) this.#remember(record);
    return record;
  }

  /**
   * A sheet whose rows are all at hand and few is made in one transaction, inserted as it ends
   * up; a larger one is inserted as importing, filled in transactions of `chunkRows` rows, then
   * made visible, and removed if its rows cannot all be stored.
   */
  async createSheet(
    draft: NewSheet,
    rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>,
  ): Promise<Sheet> {
    const now = new Date().toISOString();
    const { codeColumns, ...made } = draft;
    const fields = {
      ...made,
      rowCount: 0,
      version: 1,
      nextRid: 0,
      indexed: false,
      indexedColumns: [],
      rowsInIdOrder: true,
      pushing: null,
    };
    const unsaved = { ...fields, createdAt: now, updatedAt: now };
    const db = this.#db;
    const threshold = this.#indexThreshold;
    const sourceOf = (key: number) => new StoredRows(db, { ...unsaved, key }, threshold, false);
    const whole = Array.isArray(rows) ? (rows as Cell[][][]).flat() : null;
    if (whole !== null && whole.length <= chunkRows && codeColumns === undefined) {
      const record = await db.write(function* () {
        const source = sourceOf(yield* db.sheets.newSheetKey());
        yield* source.apply({ kind: 'append', rows: whole });
        yield* source.settle();
        yield* db.sheets.insertSheet(source.record, 'ready');
        return source.record;
      });
      this.#remember(record);
      return record;
    }
    const source = await db.write(function* () {
      const made = sourceOf(yield* db.sheets.newSheetKey());
      yield* db.sheets.insertSheet(made.record, 'importing');
      return made;
    });
    try {
      for await (const chunk of rows) {
        // Large chunks are split so that no one transaction holds the store for long.
        for (let i = 0; i < chunk.length; i += chunkRows) {
          const part = chunk.slice(i, i + chunkRows);
          await db.write(function* () {
            yield* source.apply({ kind: 'append', rows: part });
            yield* source.settle();
          });
        }
      }
      await declareText(db, source, codeColumns?.() ?? [], chunkRows);
      await db.write(() => db.sheets.saveSheet(source.record, true));
    } catch (error) {
      await db.write(() => db.sheets.deleteSheet(source.record.key)).catch(() => undefined);
      throw error;
    }
    this.#remember(source.record);
    return source.record;
  }

  async updateSheet(id: string, changes: SheetChanges): Promise<Sheet | null> {
    const db = this.#db;
    const indexThreshold = this.#indexThreshold;
    const updated = await db.write(function* () {
      const record = yield* db.sheets.sheetById(id, true);
      if (record === null) return null;
      const sheet: SheetRecord = {
        ...record,
        name: changes.name ?? record.name,
        settings: { ...record.settings, ...changes.settings },
        source: changes.source ?? record.source,
        updatedAt: new Date().toISOString(),
      };
      const added = addedTextColumns(record, sheet);
      // A mirrored sheet's cells come from its spreadsheet: the next read brings them as text.
      if (added.length === 0 || isMirrored(sheet.source)) {
        yield* db.sheets.saveSheet(sheet);
        return sheet;
      }
      return yield* textColumnsConverted(db, sheet, added, indexThreshold);
    });
    if (updated !== null) this.#remember(updated);
    return updated;
  }

  async deleteSheet(id: string): Promise<boolean> {
    const db = this.#db;
    const deleted = await db.write(function* () {
      const record = yield* db.sheets.sheetById(id, true);
      if (record !== null) yield* db.sheets.deleteSheet(record.key);
      return record;
    });
    this.#cache?.delete(id);
    // SQLite may give a later sheet the same key.
    if (deleted !== null) this.#tails.forget(deleted.key);
    return deleted !== null;
  }

  async readJson(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<Buffer[]>> {
    return this.#read(sheet, plan, (record, chosen) =>
      jsonOf(this.#db, record, chosen, plan.withIds, plan.fields, plan.withKeys),
    );
  }

  async readCells(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<CellRows>> {
    return this.#read(sheet, plan, (record, chosen) => cellsOf(this.#db, record, chosen));
  }

  /**
   * Groups and aggregates, computed by the database over the rows the plan chooses, labelled
   * with the version of the sheet as the caller found it. As for a read, the first filter on a
   * column of a large sheet (or the first `_q`) puts the columns it reads into the cell index,
   * and with them, where the index chooses the rows, the columns grouped and aggregated.
   */
  async readAggregate(given: Sheet, plan: AggregatePlan): Promise<GroupAnswer> {
    const db = this.#db;
    let sheet = isRecord(given) ? given : await this.#record(given.id);
    const columns = aggregateIndexColumns(db, plan);
    if (sheet.indexed && !columns.every((col) => sheet.indexedColumns.includes(col))) {
      sheet = await this.#indexColumns(sheet.id, columns);
    }
    const record = sheet;
    const groups = await db.read(() => aggregateRows(db, record, plan));
    return { version: sheet.version, ...groups };
  }

  /**
   * Chooses the rows and puts them into words, labelled with the version of the sheet as the
   * caller found it: what is read is at least that new. Most reads are one statement; those of
   * several run in one snapshot. A long run of rows in sheet order is sent in pieces as they are
   * read, from a snapshot held open until the last piece, so memory stays flat however large
   * the sheet. The first filter on a column of a large sheet puts that column into its index.
   */
  async #read<T>(
    given: Sheet,
    plan: ReadPlan,
    render: (sheet: SheetRecord, chosen: RowsToAnswer) => DbWork<AnswerPiece<T>>,
  ): Promise<ReadAnswer<T>> {
    const db = this.#db;
    let sheet = isRecord(given) ? given : await this.#record(given.id);
    if (sheet.indexed && !indexHolds(sheet.indexedColumns, plan.selection)) {
      sheet = await this.#indexColumns(sheet.id, filterColumns(plan.selection));
    }
    const unfiltered = inSheetOrder(plan);
    const span = Math.min(plan.limit ?? Infinity, sheet.rowCount - plan.offset);
    const pieceRows = Math.max(
      100,
      Math.floor(this.#pieceCells / Math.max(1, sheet.columns.length)),
    );
    if (!unfiltered || span <= pieceRows * wholePieces) {
      const { value, total } = await db.read(function* () {
        return yield* render(sheet, yield* chooseRows(db, sheet, plan));
      });
      return { version: sheet.version, total, chunks: once(value), streamed: false };
    }
    const chosen = runSync(chooseRows(db, sheet, plan), null);
    const snapshot = await db.snapshot();
    return {
      version: sheet.version,
      total: chosen.kind === 'range' ? chosen.total : 0,
      chunks: pieces(db, snapshot, sheet, chosen, pieceRows, render),
      streamed: true,
    };
  }

  /**
   * The sheet, once these columns are in its cell index (each column once, whoever asks). If the
   * database went away as the index was committed, the read that asked is not served: whether
   * the index grew or not, asking again indexes the columns still missing.
   */
  async #indexColumns(id: string, columns: number[]): Promise<SheetRecord> {
    const db = this.#db;
    const indexThreshold = this.#indexThreshold;
    const record = await db
      .write(function* () {
        const source = new StoredRows(db, yield* sheetOrMissing(db, id, true), indexThreshold);
        yield* source.indexColumns(columns);
        if (source.indexGrew) yield* db.sheets.saveSheet(source.record);
        return source.record;
      })
      .catch((error: unknown) => {
        throw error instanceof CommitOutcomeUnknown ? storeUnavailable() : error;
      });
    this.#remember(record);
    return record;
  }

  async #record(id: string): Promise<SheetRecord> {
    const record = await this.getSheet(id);
    if (record === null) throw sheetNotFound(id);
    return record as SheetRecord;
  }

  async writeRows(sheetId: string, writes: WriteRequest[]): Promise<(WriteResult | Problem)[]> {
    const db = this.#db;
    const indexThreshold = this.#indexThreshold;
    const events: RowEvent[] = [];
    const tails = this.#tails;
    const began = performance.now();
    const { results, record, blockEnd, from, appended } = await this.#commit(events, function* () {
      events.length = 0;
      // The clock is read once for the commit's events and the sheet's `updatedAt`.
      const at = eventTime();
      const found = yield* sheetOrMissing(db, sheetId, true);
      const from = found.version;
      const known = tails.get(found.key, found.version);
      const source = new StoredRows(db, found, indexThreshold, true, known);
      const results: (WriteResult | Problem)[] = [];
      for (const { op, ifMatch, ifMatchRows, actor, idempotency: held } of writes) {
        // A keyed write's outcome commits with it, so a retry finds it whatever happens next.
        const key = held === undefined ? null : yield* heldRecord(db, held);
        if (held !== undefined && key === null) {
          results.push(keyTakenOver(held.key));
          continue;
        }
        const result = yield* applyWrite(source, events, op, ifMatch, ifMatchRows, actor, at);
        results.push(result);
        if (held !== undefined && key !== null) {
          const outcome = JSON.stringify(keyOutcome(result));
          yield* db.idempotency.updateIdempotencyKey(
            { ...key, state: 'done', outcome },
            held.token,
          );
        }
      }
      yield* saveSheetAndEvents(db, source, events);
      const { record, blockEnd, appendedOnly: appended } = source;
      return { results, record, blockEnd, from, appended };
    });
    this.#remember(record);
    tails.set(record.key, record.version, blockEnd);
    if (appended !== null && appended.length > 0) {
      const rows = { sheetId, from, to: record.version, rows: appended, began };
      for (const listener of this.#appendListeners) listener(rows);
    }
    return results;
  }

  onAppended(listener: (appended: RowsAppended) => void): void {
    this.#appendListeners.push(listener);
  }

  async loadRows(
    sheetId: string,
  ): Promise<{ sheet: Sheet; rows: Cell[][]; rids: number[]; nextRid: number }> {
    const db = this.#db;
    return db.read(function* () {
      const sheet = yield* sheetOrMissing(db, sheetId);
      const codec = new RowCodec(sheet.columns);
      const rows = yield* db.rows.rowsBetween(sheet.key, 0, sheet.rowCount);
      return {
        sheet,
        rows: rows.map((row) => codec.decode(row)),
        rids: rows.map((row) => row.rid),
        nextRid: sheet.nextRid,
      };
    });
  }

  async ridsAfterRead(sheetId: string, rows: Cell[][], firstFree: number): Promise<number[]> {
    const db = this.#db;
    return db.read(function* () {
      const sheet = yield* sheetOrMissing(db, sheetId);
      const stored = yield* db.rows.rowsBetween(sheet.key, 0, sheet.rowCount);
      const rids: (number | null)[] = stored.map((row) => row.rid);
      // The effects the copy will apply, applied to the ids alone; rows it adds take the next
      // free ids in order, as StoredRows gives them.
      let next = Math.max(sheet.nextRid, firstFree);
      for (const effect of diffRows(new RowCodec(sheet.columns), stored, rows)) {
        if (effect.kind === 'insert') {
          applyToRids(rids, { ...effect, rids: effect.rows.map(() => next++) });
        } else {
          applyToRids(rids, effect);
        }
      }
      return rids.map((rid) => rid ?? -1);
    });
  }

  planOnRows(
    sheet: Sheet,
    rows: Cell[][],
    writes: WriteRequest[],
    keys: { rids: (number | null)[]; nextRid: number },
  ): (MirrorWrite | Problem)[] {
    const copy = new MemoryRows(
      sheet.name,
      rows.map((row) => [...row]),
      sheet.columns,
      [...keys.rids],
      keys.nextRid,
    );
    let version = sheet.version;
    return writes.map(({ op, ifMatch, ifMatchRows, actor, idempotency }) => {
      try {
        const failed = runSync(preconditionFailed(copy, version, ifMatch, ifMatchRows), null);
        if (failed !== null) return failed;
        const planned = runSync(planWrite(copy, op), null);
        if (planned.effects.length > 0) version++;
        return { ...planned, actor, idempotency };
      } catch (error) {
        if (error instanceof Problem) return error;
        throw error;
      }
    });
  }

  async applyPlanned(
    sheetId: string,
    pushId: string,
    writes: MirrorWrite[],
    origin: ChangeSource,
    base: Cell[][] | null = null,
    plan: string | null = null,
    epoch: number | null = null,
  ): Promise<WriteResult[] | null> {
    const db = this.#db;
    const indexThreshold = this.#indexThreshold;
    const events: RowEvent[] = [];
    const applied = await this.#commit(events, () =>
      applyPlannedWrites(db, indexThreshold, events, {
        sheetId,
        pushId,
        writes,
        origin,
        base,
        plan,
        epoch,
      }),
    );
    if (applied === null) return null;
    this.#remember(applied.record);
    return applied.results;
  }

  async replaceRows(
    sheetId: string,
    columns: string[],
    rows: Cell[][],
    marker: string | null = null,
    settled?: { pushId: string; end: PushEnd },
    fence?: ReplaceFence,
  ): Promise<{ sheet: Sheet; changed: boolean }> {
    const db = this.#db;
    const indexThreshold = this.#indexThreshold;
    const { record, changed } = await db.write(() =>
      takeTabRead(db, indexThreshold, { sheetId, columns, rows, marker, settled, fence }),
    );
    this.#remember(record);
    return { sheet: record, changed };
  }

  async markPushing(sheetId: string, mark: PushMark): Promise<boolean> {
    const db = this.#db;
    const record = await db.write(() => markPush(db, sheetId, mark));
    if (record === null) return false;
    this.#remember(record);
    return true;
  }

  async keepPushedRows(sheetId: string, pushId: string, rows: PushedRows): Promise<boolean> {
    const db = this.#db;
    return db.write(() => keepRowsOfPush(db, sheetId, pushId, rows));
  }

  async clearPushing(
    sheetId: string,
    pushId: string,
    answers?: PushedKey[],
    epoch: number | null = null,
  ): Promise<void> {
    const db = this.#db;
    const record = await db.write(() => clearPush(db, sheetId, pushId, answers, epoch));
    if (record !== null) this.#remember(record);
  }

  pushFence(sheetId: string): Promise<PushFence | null> {
    return this.#db.read(() => this.#db.sheets.pushFence(sheetId));
  }

  pushRecord(sheetId: string, pushId: string): Promise<string | null> {
    return this.#db.read(() => this.#db.pushes.pushRecord(sheetId, pushId));
  }

  async savePushRecord(
    sheetId: string,
    pushId: string,
    record: string,
    previous: string | null,
  ): Promise<boolean> {
    const db = this.#db;
    return db.write(() => keepPushRecord(db, sheetId, pushId, record, previous));
  }

  async pushingMarker(sheetId: string): Promise<string | null> {
    const cached = this.#cache?.get(sheetId);
    if (cached !== undefined) return cached.pushing;
    const record = await this.#db.read(() => this.#db.sheets.sheetById(sheetId));
    return record?.pushing ?? null;
  }

  /**
   * Runs a write unit. If the database went away during its commit, whether it landed is learned
   * from its row events, which commit with it or not at all: found, the unit's answers stand;
   * missing, nothing changed and the client may safely try again. A unit that changed no row has
   * no events and changed nothing either way.
   */
  async #commit<T>(events: RowEvent[], work: () => DbWork<T>): Promise<T> {
    let answer: T | undefined;
    try {
      return await this.#db.write(function* () {
        answer = yield* work();
        return answer;
      });
    } catch (error) {
      if (!(error instanceof CommitOutcomeUnknown)) throw error;
      if (events.length === 0) return answer as T;
      if (await this.#landed(events.map((event) => event.id))) return answer as T;
      throw storeUnavailable();
    }
  }

  /** Asks the database whether events exist, until it answers or the outcome stays unknown. */
  async #landed(ids: string[]): Promise<boolean> {
    const deadline = Date.now() + outcomeDeadlineMs;
    for (;;) {
      try {
        return await this.#db.read(() => this.#db.outbox.eventsExist(ids));
      } catch {
        if (Date.now() > deadline) throw outcomeUnknown();
        await sleep(250);
      }
    }
  }

  #remember(record: SheetRecord): void {
    if (this.#cache === null) return;
    this.#cache.delete(record.id);
    this.#cache.set(record.id, record);
    if (this.#cache.size > cachedSheets) {
      const oldest = this.#cache.keys().next().value as string;
      this.#cache.delete(oldest);
    }
  }
}

/** Plans and applies one write of a unit: its result, or the problem that refused it whole. */
function* applyWrite(
  source: StoredRows,
  events: RowEvent[],
  op: WriteRequest['op'],
  ifMatch: number[] | null,
  ifMatchRows: RowTag[] | undefined,
  actor: Actor | undefined,
  at: EventTime,
): DbWork<WriteResult | Problem> {
  const changes = source.changes.length;
  try {
    const failed = yield* preconditionFailed(source, source.record.version, ifMatch, ifMatchRows);
    if (failed !== null) return failed;
    const planned = yield* planWrite(source, op);
    if (planned.effects.length > 0) {
      source.record.version++;
      events.push(...rowEvents(source.record, source.changes.slice(changes), 'api', actor, at));
    }
    return { ...planned, version: source.record.version };
  } catch (error) {
    if (!(error instanceof Problem)) throw error;
    return error;
  }
}

/** A sheet as this store gives it carries its number in the shared tables. */
function isRecord(sheet: Sheet): sheet is SheetRecord {
  return 'key' in sheet && typeof sheet.key === 'number';
}

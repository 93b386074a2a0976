import { Problem, sheetNotFound } from '../errors/problem.ts';
import type { SheetProvider } from '../providers/provider.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { ReadPlan } from '../query/plan.ts';
import type { AggregatePlan } from '../query/plan-aggregate.ts';
import type {
  ApiKeyRecord,
  CellRows,
  GroupAnswer,
  NewSheet,
  ReadAnswer,
  SheetChanges,
  SheetStore,
  WebhookRecord,
  WriteRequest,
} from '../store/store.ts';
import type { Cell } from '../cells/cell.ts';
import type { Sheet } from '../model/sheet.ts';
import type { SheetMirror } from './sheet-mirror.ts';
import { EventFeed } from './event-feed.ts';
import type { ClientGone, WriteQueue } from './write-queue.ts';
import { fateAnswer, type WriteFate } from './write-path.ts';

/** What sheets are served through, built beforehand (see app.ts). */
export interface SheetsDeps {
  store: SheetStore;
  /** The spreadsheet services sheets can mirror, looked up by their source's `provider`. */
  providers: ProviderRegistry;
  /** Every write goes through it, on the write path that fits where its sheet lives. */
  queue: WriteQueue;
  /** Keeps the copies of mirrored sheets fresh. */
  mirror: SheetMirror;
}

/**
 * Sheets as the routes see them: found by id, fresh for reading, written through the write path
 * that fits where each sheet lives, and managed. Routes go through this, never to the store.
 */
export class Sheets {
  /** Wakes the live streams of row events (`GET /api/v1/<id>/events`). */
  readonly events: EventFeed;
  /**
   * A sheet's webhooks, their deliveries and its place in the outbox, read and changed in the
   * store as they are: nothing about them goes through the write queue or the mirror.
   */
  readonly outbox: Pick<
    SheetStore,
    | 'webhooksOf'
    | 'deleteWebhook'
    | 'rotateWebhookSecret'
    | 'deliveriesOf'
    | 'latestEventId'
    | 'latestEventSeq'
    | 'eventCursor'
  >;
  readonly providers: ProviderRegistry;
  readonly #store: SheetStore;
  readonly #queue: WriteQueue;
  readonly #mirror: SheetMirror;
  readonly #lookups = new WeakMap<object, { id: string; sheet: Promise<Sheet | null> }>();

  constructor({ store, providers, queue, mirror }: SheetsDeps) {
    this.#store = store;
    this.providers = providers;
    this.#queue = queue;
    this.#mirror = mirror;
    this.events = new EventFeed((ids) => store.latestEventSeqs(ids), 1000);
    this.outbox = store;
  }

  async createWebhook(webhook: Parameters<SheetStore['createWebhook']>[0]): Promise<WebhookRecord> {
    const record = await this.#store.createWebhook(webhook);
    this.events.webhookAdded(record.sheetId);
    return record;
  }

  /**
   * Refuses the writes waiting for their turn, and every later one, and the requests waiting for
   * a re-read that has not started (a write waits for one behind a push): the server is stopping.
   */
  stopWrites(): void {
    this.#queue.close(
      new Problem(
        'not-ready',
        'The server is shutting down and did not get to this request; nothing was changed. Send it again.',
        {},
        { 'retry-after': '1' },
      ),
    );
  }

  providerFor(sheet: Sheet): SheetProvider | null {
    return this.providers.providerOf(sheet.source);
  }

  /**
   * The sheet a request names, looked up once for the whole request (CORS, access and the
   * handler all need it); null when there is none.
   */
  lookup(request: object, id: string): Promise<Sheet | null> {
    let found = this.#lookups.get(request);
    if (found?.id !== id) {
      found = { id, sheet: this.#store.getSheet(id) };
      this.#lookups.set(request, found);
    }
    return found.sheet;
  }

  async get(id: string): Promise<Sheet> {
    const sheet = await this.#store.getSheet(id);
    if (sheet === null) throw sheetNotFound(id);
    return sheet;
  }

  /** The sheet as the store has it now, past any lookup made for a request; null when none. */
  find(id: string): Promise<Sheet | null> {
    return this.#store.getSheet(id);
  }

  list(): Promise<Sheet[]> {
    return this.#store.listSheets();
  }

  /**
   * The sheet a request names, to read or to plan a write on: 404 when there is none, and its
   * copy re-read first when older than its freshness window (a sheet of a provider).
   */
  async loadFresh(request: object, id: string): Promise<Sheet> {
    const sheet = await this.lookup(request, id);
    if (sheet === null) throw sheetNotFound(id);
    return this.#mirror.fresh(sheet);
  }

  readJson(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<Buffer[]>> {
    return this.#store.readJson(sheet, plan);
  }

  readCells(sheet: Sheet, plan: ReadPlan): Promise<ReadAnswer<CellRows>> {
    return this.#store.readCells(sheet, plan);
  }

  readAggregate(sheet: Sheet, plan: AggregatePlan): Promise<GroupAnswer> {
    return this.#store.readAggregate(sheet, plan);
  }

  /**
   * Queues a write planned against `sheet` as it was; answered once it is durable. A write to a
   * provider-backed sheet waits for its turn no longer than the provider's deadline, and one whose
   * `signal` aborted (its client is gone) is never sent. Answers the write's fate.
   */
  async write(
    sheet: Sheet,
    request: WriteRequest,
    { signal }: { signal?: ClientGone } = {},
  ): Promise<WriteFate> {
    const deadlineMs = this.providerFor(sheet)?.deadlineMs;
    const fate = await this.#queue.submit(sheet, request, {
      ...(signal === undefined ? {} : { signal }),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    });
    const answer = fateAnswer(fate);
    if (!(answer instanceof Problem) && answer.effects.length > 0) this.events.notify(sheet.id);
    return fate;
  }

  createSheet(draft: NewSheet, rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>): Promise<Sheet> {
    return this.#store.createSheet(draft, rows);
  }

  /**
   * Runs `connect` with the sheets that already mirror tabs of the provider's document, by tab
   * id, while no other connect to it runs, on this server or any other of the store: what
   * `connect` makes is then seen by the next one, so two connects of one tab never both make a
   * sheet.
   */
  connectTabs<T>(
    provider: string,
    document: string,
    connect: (connected: Map<string, Sheet>) => Promise<T>,
  ): Promise<T> {
    const lock = `${provider}-spreadsheet:${document}`;
    return this.#queue.takeTurn(lock, () =>
      this.#store.database.withSheetLock(lock, async () => {
        const connected = new Map<string, Sheet>();
        for (const sheet of await this.#store.listSheets()) {
          const tab =
            sheet.source.provider === provider ? this.providers.tabOf(sheet.source) : null;
          if (tab?.document === document) connected.set(tab.id, sheet);
        }
        return connect(connected);
      }),
    );
  }

  /**
   * Renames a sheet or changes its settings. A column newly declared text has its stored cells
   * turned into text with the change, in the sheet's write turn; on a mirrored sheet, by reading
   * its spreadsheet again, which brings that column's cells as the text they show.
   */
  async update(id: string, changes: SheetChanges): Promise<Sheet> {
    const before = await this.get(id);
    const declared = changes.settings?.textColumns ?? [];
    const adds = declared.some((column) => !(before.settings.textColumns ?? []).includes(column));
    const updated = adds
      ? await this.#queue.takeTurn(id, () => this.#store.updateSheet(id, changes))
      : await this.#store.updateSheet(id, changes);
    if (updated === null) throw sheetNotFound(id);
    this.events.accessChanged(updated.id);
    if (adds && this.providerFor(updated) !== null) return this.#mirror.refresh(id);
    return updated;
  }

  /** Re-reads a provider-backed sheet now. */
  async refresh(id: string): Promise<Sheet> {
    const sheet = await this.get(id);
    if (this.providerFor(sheet) === null) {
      throw new Problem(
        'invalid-parameter',
        `Sheet "${sheet.name}" is not connected to a spreadsheet service, so there is nothing to refresh from.`,
      );
    }
    return this.#mirror.refresh(id);
  }

  /** Notes that a provider-backed sheet was just read upstream, e.g. when it was connected. */
  synced(sheetId: string): void {
    this.#mirror.synced(sheetId);
  }

  async remove(id: string): Promise<void> {
    const sheet = await this.get(id);
    await this.#queue.takeTurn(sheet.id, () => this.#store.deleteSheet(sheet.id));
    this.#mirror.forget(sheet.id);
    this.events.accessChanged(sheet.id);
  }

  /** Removes a sheet just made, as an import of several that failed part way does. */
  async deleteSheet(id: string): Promise<boolean> {
    await this.remove(id);
    return true;
  }

  createKey(key: ApiKeyRecord): Promise<void> {
    return this.#store.createKey(key);
  }

  listKeys(sheetId: string): Promise<ApiKeyRecord[]> {
    return this.#store.listKeys(sheetId);
  }

  async rotateKey(
    ...args: Parameters<SheetStore['rotateKey']>
  ): Promise<Awaited<ReturnType<SheetStore['rotateKey']>>> {
    const outcome = await this.#store.rotateKey(...args);
    // An overlap of 0 ends the old key now.
    this.events.accessChanged(args[0]);
    return outcome;
  }

  async deleteKey(sheetId: string, id: string): Promise<boolean> {
    const deleted = await this.#store.deleteKey(sheetId, id);
    if (deleted) this.events.accessChanged(sheetId);
    return deleted;
  }

  eventsAfterSeq(
    sheetId: string,
    seq: number,
    page: { limit: number; maxBytes: number },
    notBefore: Date,
  ) {
    return this.#store.eventsAfterSeq(sheetId, seq, page, notBefore);
  }

  eventBytesAfter(sheetId: string, seq: number, limit: number): Promise<number> {
    return this.#store.eventBytesAfter(sheetId, seq, limit);
  }
}

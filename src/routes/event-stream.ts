import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { EventSettings } from '../sheets/event-settings.ts';
import type { Sheet } from '../model/sheet.ts';
import type { Sheets } from '../sheets/sheets.ts';
import type { RowEvent } from '../store/store.ts';

/**
 * Events read from the outbox at a time: 100 at most, and no more once they reach 256 KiB (an
 * event holds every row its write touched, and has no size limit of its own).
 */
const eventPage = { limit: 100, maxBytes: 262_144 };
/** Events whose bytes a stalled stream counts as still due to its client, at most. */
const dueEvents = 1000;

type PagedEvent = RowEvent & { seq: number };

/**
 * Pages of a sheet's events after a position, read once for all the streams that ask for the
 * same page in the same turn of the event loop: a write wakes every stream of its sheet at
 * once, and those that were idle all stand at the same place. Reads started later are new reads,
 * so none of them can miss an event committed before it was woken.
 */
export class EventPages {
  readonly #reads = new Map<string, Promise<PagedEvent[]>>();

  constructor(
    private readonly sheets: Sheets,
    private readonly retentionMs: number,
  ) {}

  after(sheetId: string, seq: number): Promise<PagedEvent[]> {
    const key = `${sheetId}\n${seq}`;
    let read = this.#reads.get(key);
    if (read === undefined) {
      // An event past the retention is never sent, even before the pruner removes it.
      const notBefore = new Date(Date.now() - this.retentionMs);
      read = this.sheets.eventsAfterSeq(sheetId, seq, eventPage, notBefore);
      this.#reads.set(key, read);
      setImmediate(() => this.#reads.delete(key));
    }
    return read;
  }
}

export interface EventStreamDeps {
  sheets: Sheets;
  pages: EventPages;
  settings: EventSettings;
  log: FastifyBaseLogger;
  /**
   * Throws unless the stream's caller may still read the sheet as it is now; answers when the
   * caller's key expires (ISO time), or null for a caller whose access has no end.
   */
  admits: (sheet: Sheet) => Promise<string | null>;
  /** When the caller's key expires as the request found it, or null. */
  expiresAt: string | null;
  /** A caller with a key or the administrator token: its stream makes the sheet watched. */
  listening: boolean;
}

/**
 * One client's stream of a sheet's events, from outbox position `cursor` on. Its cost is
 * bounded: it holds one page of events at most, writes the next only once the socket has taken
 * the last, and a client that stops reading while more than `maxUnsentBytes` wait for it (in the
 * socket and in the outbox) is disconnected. Every `recheckMs`, and at once when this server
 * changes the sheet's access, it checks its caller's access again, and ends when that fails: a
 * revoked key, a sheet made private or deleted.
 */
export class EventStream {
  #cursor: number;
  #reading: Promise<void> | null = null;
  #again = false;
  #ended = false;
  /** The check under way, if any. */
  #running: Promise<void> | null = null;
  /** A check asked for while one ran, which may have read the access from before the change. */
  #checkAgain = false;
  /** Set while a check asked for by an access change runs: no event is sent until it ends. */
  #urgentCheck: Promise<void> | null = null;
  /** Set while a write waits for the socket to drain: ends the wait. */
  #release: (() => void) | null = null;
  /** Access checks made while the current wait for a drain lasted. */
  #stalledChecks = 0;
  readonly #timers: NodeJS.Timeout[] = [];
  #unsubscribe: () => void = () => {};
  /** When the caller's key expires, as last learnt (epoch ms), and the timer that ends it then. */
  #expiry: number | null = null;
  #expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly raw: ServerResponse,
    readonly sheetId: string,
    cursor: number,
    private readonly deps: EventStreamDeps,
    private readonly onEnd: () => void,
  ) {
    this.#cursor = cursor;
  }

  /** Starts sending; `reset` first tells the client its history is gone (with the newest id). */
  start(reset: { lastId: string | null } | null): void {
    const { raw, deps } = this;
    raw.write(': connected\n\n');
    if (reset !== null) {
      raw.write(`id: ${reset.lastId ?? ''}\nevent: reset\ndata: {"type":"reset"}\n\n`);
    }
    this.#unsubscribe = deps.sheets.events.subscribe(
      this.sheetId,
      () => this.wake(),
      deps.listening,
    );
    this.#timers.push(
      setInterval(() => {
        if (!raw.writableNeedDrain) raw.write(': heartbeat\n\n');
      }, deps.settings.heartbeatMs),
      setInterval(() => void this.#check(), deps.settings.recheckMs),
    );
    raw.on('close', () => this.end());
    this.#expiresAt(deps.expiresAt);
    // Events committed between the first look and the subscription are read now.
    this.wake();
  }

  wake(): void {
    if (this.#ended) return;
    if (this.#reading !== null) {
      this.#again = true;
      return;
    }
    this.#reading = this.#read()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'event stream: read failed'))
      .finally(() => {
        this.#reading = null;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  /**
   * Checks the access now, its caller's rights having changed on this server; events wait for
   * the check, so none written after a revocation reaches a stream that it ends.
   */
  recheck(): void {
    if (this.#ended) return;
    // A check under way may have read the access from before the change: it checks again.
    if (this.#running !== null) this.#checkAgain = true;
    const check = this.#running ?? this.#check(true);
    this.#urgentCheck = check;
    void check.finally(() => {
      if (this.#urgentCheck === check) this.#urgentCheck = null;
    });
  }

  /** Ends the stream; `cut` drops what the socket still holds instead of sending it first. */
  end(cut = false): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const timer of this.#timers) clearInterval(timer);
    clearTimeout(this.#expiryTimer);
    this.#unsubscribe();
    this.#release?.();
    this.onEnd();
    if (cut || this.raw.writableNeedDrain) this.raw.destroy();
    else this.raw.end();
  }

  async #read(): Promise<void> {
    for (;;) {
      const events = await this.deps.pages.after(this.sheetId, this.#cursor);
      while (this.#urgentCheck !== null) await this.#urgentCheck;
      let bytes = 0;
      for (const event of events) {
        if (this.#ended) return;
        // Nothing written once the key expired is sent with it, however late the timer fires.
        if (this.#expiry !== null && Date.parse(event.createdAt) >= this.#expiry) {
          this.end();
          return;
        }
        const more = this.raw.write(
          `id: ${event.id}\nevent: ${event.type}\ndata: ${event.body}\n\n`,
        );
        this.#cursor = event.seq;
        bytes += Buffer.byteLength(event.body);
        if (!more) await this.#drained();
      }
      // A page cut short by its count or its bytes may have more behind it.
      if (this.#ended || (events.length < eventPage.limit && bytes < eventPage.maxBytes)) return;
    }
  }

  /**
   * Ends the stream when its key expires: a key's expiry is set when it is made, or brought
   * forward by a rotation (found by a check), and never moves later.
   */
  #expiresAt(at: string | null): void {
    clearTimeout(this.#expiryTimer);
    this.#expiry = at === null ? null : Date.parse(at);
    if (this.#expiry === null || this.#ended) return;
    const left = this.#expiry - Date.now();
    if (left <= 0) {
      this.end();
      return;
    }
    // Timers take at most about 24 days; a later expiry is timed again from there.
    this.#expiryTimer = setTimeout(() => this.#expiresAt(at), Math.min(left, 2 ** 30));
    this.#expiryTimer.unref();
  }

  #drained(): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        this.raw.off('drain', done);
        this.#release = null;
        this.#stalledChecks = 0;
        resolve();
      };
      this.#release = done;
      this.raw.on('drain', done);
    });
  }

  /**
   * The access check, and (unless `accessOnly`, for a check asked for out of turn) the check of
   * a client that has stopped reading. One runs at a time; a call while one runs does nothing.
   */
  #check(accessOnly = false): Promise<void> {
    if (this.#running !== null || this.#ended) return Promise.resolve();
    this.#running = this.#checkOnce(accessOnly).finally(() => {
      this.#running = null;
    });
    return this.#running;
  }

  async #checkOnce(accessOnly: boolean): Promise<void> {
    for (let again = true; again && !this.#ended;) {
      this.#checkAgain = false;
      try {
        const sheet = await this.deps.sheets.find(this.sheetId);
        if (sheet === null) throw new Error('the sheet is gone');
        this.#expiresAt(await this.deps.admits(sheet));
      } catch {
        this.end();
        return;
      }
      again = this.#checkAgain;
    }
    if (accessOnly || this.#ended) return;
    try {
      // A wait that began before the last check has lasted a whole interval without a drain.
      if (this.#release !== null && ++this.#stalledChecks >= 2) {
        const due = await this.deps.sheets.eventBytesAfter(this.sheetId, this.#cursor, dueEvents);
        const unsent = this.raw.writableLength + due;
        if (unsent > this.deps.settings.maxUnsentBytes) {
          this.deps.log.info(
            // The stream's logger names the request and the sheet already.
            { unsent },
            'event stream: the client stopped reading; disconnected',
          );
          this.end(true);
        }
      }
    } catch (error) {
      this.deps.log.warn({ err: error }, 'event stream: check failed');
    }
  }
}

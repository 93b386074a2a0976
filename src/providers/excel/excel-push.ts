/**
 * How a push reaches an Excel worksheet exactly once, without an atomic batch.
 *
 * Graph applies each request on its own: a push is a list of operations, each on one contiguous
 * block (see excel-operations.ts), each with a mark of the worksheet it leaves (see
 * push-images.ts). Before its first request, the push's record (its operations, marks, and which
 * write each operation carries) is kept in the store with the sheet's push mark, and every
 * workbook session it opens is added to it before that session is used (push-record.ts). A push
 * runs in a session of its own and first reads the worksheet in it: a worksheet that is not the
 * copy the writes were planned on goes back to be planned again. Updates are PATCHes of absolute
 * ranges; appends insert whole rows below the last and fill them (so that a row a person's insert
 * moved onto the address planned is pushed down, not written over); deletes go bottom-up. More
 * than one request left goes as a JSON `$batch` of up to 20, each depending on the one before
 * (see push-channel.ts): Graph stops at the first that fails, so the operations that landed are
 * always a first part of the list.
 *
 * When an operation's outcome is unknown (its answer lost, a timeout, a 5xx), the session is
 * closed first: Graph refuses every request of a closed session, so none held anywhere can be
 * applied later. Then the worksheet is read and compared with the marks: holding mark k,
 * operations 1..k landed and the push goes on from k + 1 in a new session.
 *
 * Settling (after the push gave up, or on any server after a crash) closes every session of the
 * record, reads the worksheet and finds k again: all of it landed, the plan; some of it (k ≥ 1),
 * the push rolls forward, sending the rest; if that cannot finish, the writes wholly in
 * operations 1..k landed, those wholly after did not (their keys are freed), and a write split
 * across k stays unknown. Nothing of it (k = 0) is not sent late: its client was answered.
 */
import { randomBytes } from 'node:crypto';
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ProviderTable, PushJournal, PushOutcome, Settled } from '../provider.ts';
import { sameHeader, sameRows } from '../provider-table.ts';
import { Backoff, type RetryPolicy } from '../retry.ts';
import { sessionGone } from './excel-errors.ts';
import type { Anchor, Operation, Step } from './excel-operations.ts';
import { nextChunk, sendChunk, type PushChannel } from './push-channel.ts';
import { appendBlocks, appendsLanded } from './append-blocks.ts';
import { imageMarks, landedUpTo } from './push-images.ts';
import { parseRecord, recordOf, verdictOf, type ExcelPushRecord } from './push-record.ts';
import { anchoredIndex, namesToDrop } from './append-anchors.ts';

/**
 * How long after a push's deadline its sessions are surely gone even when Graph would not say
 * so: Excel ends a persistent session idle for about 5 minutes, and no request of the push
 * starts after its deadline. Past it, a settle whose close keeps failing goes on without it.
 */
export const sessionLifetimeMs = 6 * 60_000;

/** At most this many names earlier pushes left go with one append (its batch holds 20). */
const dropsPerAppend = 8;

/** One push of one plan: its record, kept in the store, and what it knows in memory. */
export class WorkbookPush {
  readonly #record: ExcelPushRecord;
  readonly #journal: PushJournal | undefined;
  /** The rows the writes were planned on (known to the server that plans them). */
  readonly #expected: Cell[][] | null;
  /** The last operation's answer was lost: it may have landed. */
  #ambiguous = false;
  /** The record as this server last saved or loaded it: a save replaces only that. */
  #saved: string | null;
  /**
   * The anchored append's names were added in this session and nothing failed since: they sit
   * where the append goes. Any failure makes the push add new ones before the append is sent.
   */
  #anchored = false;
  /** The names in use for the append were added and not yet deleted with it. */
  #namesInUseLeft = false;
  /**
   * Other names of Sheetport may still be on the worksheet: the listing or a delete failed, names
   * were seen that may not be deleted yet, or an attempt of this push may have added names it
   * does not know (an answer lost, or one of its two adds refused).
   */
  #namesKept = false;

  private constructor(
    record: ExcelPushRecord,
    journal: PushJournal | undefined,
    expected: Cell[][] | null,
    saved: string | null,
  ) {
    this.#record = record;
    this.#journal = journal;
    this.#expected = expected;
    this.#saved = saved;
  }

  /** A push of `steps`, planned on `expected`; `owners` names the write of each effect. */
  static planned(
    plan: string,
    columns: string[],
    expected: Cell[][],
    steps: Step[],
    owners: string[],
    deadline: number,
    journal?: PushJournal,
  ): WorkbookPush {
    const images = [expected, ...steps.map((step) => step.after)];
    const marks = imageMarks(
      images,
      steps.map((s) => s.operation),
      steps.map((s) => s.area),
      columns.length,
    );
    const appends = appendBlocks(images, steps, columns.length);
    const record = recordOf(plan, columns, deadline, steps, owners, marks, appends);
    return new WorkbookPush(record, journal, expected, null);
  }

  /** The push the store keeps under `journal`; null when it keeps none this version reads. */
  static async load(journal: PushJournal): Promise<WorkbookPush | null> {
    const text = await journal.load();
    const record = text === null ? null : parseRecord(text);
    return record === null || text === null ? null : new WorkbookPush(record, journal, null, text);
  }

  get plan(): string {
    return this.#record.plan;
  }

  get sessions(): string[] {
    return this.#record.sessions;
  }

  async run(
    channel: PushChannel,
    deadline: number,
    policy: RetryPolicy,
    signal?: AbortSignal,
    holdsLock?: () => Promise<boolean>,
    listNames = false,
  ): Promise<PushOutcome> {
    // Before the first request: what any server needs to settle the push. A plan made again
    // under the same push replaces the one before, whose sessions are kept to be closed.
    if (this.#journal !== undefined) {
      this.#saved = await this.#journal.load();
      const before = this.#saved === null ? null : parseRecord(this.#saved);
      if (before !== null) this.#record.sessions.unshift(...before.sessions);
    }
    await this.#save(channel, true);
    try {
      const opened = await this.#open(channel, deadline);
      const { session, table } = await this.#read(channel, opened, deadline, policy, listNames);
      const planned = this.#expected ?? [];
      if (!sameHeader(table.columns, this.#record.columns) || !sameRows(table.rows, planned)) {
        // The names go with the plan (what a failure leaves is deleted by a later push).
        const names = this.#namesInUse();
        void (
          names.length === 0 ? Promise.resolve() : channel.anchor(null, names, session, deadline)
        )
          .catch(() => {})
          .then(() => channel.closeSession(session, deadline))
          .catch(() => {});
        return { landed: false, table, mayLand: false };
      }
      const sent = await this.#send(channel, session, deadline, policy, signal, holdsLock);
      if (sent !== null) return { landed: false, table: sent, mayLand: false };
      return { landed: true, plan: this.#record.plan };
    } catch (error) {
      // Where it stopped, for the settle: best effort, the settle reads the worksheet anyway.
      if (error instanceof Problem && error.code === 'upstream-outcome-unknown') {
        await this.#save(channel, false).catch(() => {});
      }
      throw error;
    }
  }

  /**
   * Sends the operations from the first not known to have landed, in `session`, retrying within
   * the deadline. Null once all landed; the worksheet as read when a person changed it before
   * anything of the push landed (to be planned again); throws otherwise.
   */
  async #send(
    channel: PushChannel,
    first: string,
    deadline: number,
    policy: RetryPolicy,
    signal?: AbortSignal,
    holdsLock?: () => Promise<boolean>,
  ): Promise<ProviderTable | null> {
    const backoff = new Backoff(deadline, policy);
    const operations = this.#record.operations;
    let session = first;
    let sent = 0;
    while (this.#record.done < operations.length) {
      const chunk = nextChunk(operations, this.#record.done);
      const anchored = anchoredIndex(operations) - this.#record.done;
      const carriesAnchor = anchored >= 0 && anchored < chunk.length;
      try {
        await this.#beforeOperation(channel, deadline, signal, holdsLock);
        if (sent++ > 0) await channel.slot();
        if (carriesAnchor && !this.#anchored) await this.#anchor(channel, session, deadline);
        const left = await sendChunk(channel, chunk, session, deadline, (landed) => {
          this.#record.done += landed;
        });
        // The batch deleted the names in use, unless a delete failed.
        if (carriesAnchor) this.#namesInUseLeft = false;
        if (left) this.#namesKept = true;
        this.#ambiguous = false;
        continue;
      } catch (error) {
        this.#anchored = false;
        if (error instanceof Problem && error.code === 'upstream-outcome-unknown') throw error;
        const verdict = channel.judge(error, 'write');
        const gone = sessionGone(error);
        const unknown = verdict.mayHaveApplied === true && !gone;
        if (unknown || gone) {
          // Nothing of this session may land after the read-back below.
          await this.#close(channel, session, deadline, verdict.problem);
        }
        this.#ambiguous ||= unknown;
        if (!verdict.retry && !gone) {
          if (!unknown) void channel.closeSession(session, deadline).catch(() => {});
          throw this.#mayHaveLanded() ? channel.outcomeUnknown(verdict.problem) : verdict.problem;
        }
        try {
          await backoff.wait(verdict);
        } catch (problem) {
          throw this.#giveUp(channel, problem instanceof Problem ? problem : verdict.problem);
        }
        channel.onRetry();
        const now = await this.#readBack(channel, deadline);
        const landed = this.#landedUpTo(now.rows, now.columns, this.#record.done);
        if (landed < 0) {
          // A person edited the worksheet meanwhile.
          if (!this.#mayHaveLanded()) return now;
          throw channel.outcomeUnknown(verdict.problem);
        }
        this.#record.done = landed;
        this.#ambiguous = false;
        if (unknown || gone) session = await this.#open(channel, deadline);
      }
    }
    void channel.closeSession(session, deadline).catch(() => {});
    return null;
  }

  /**
   * Adds new names that anchor the push's append, when it has one not landed yet, in `session`
   * (after a failure: the names in use may have been moved or deleted with a failed attempt).
   */
  async #anchor(channel: PushChannel, session: string, deadline: number): Promise<void> {
    const { index, operation, anchor } = this.#anchorOf();
    if (anchor === undefined || index < this.#record.done) return;
    // The names of the attempt before go in the same request (one already gone is fine).
    const before = this.#namesInUse();
    const { names, attempts, dropped } = await channel.anchor(anchor, before, session, deadline);
    if (!dropped || attempts > 1) this.#namesKept = true;
    if (names === null) this.#unanchor(operation);
    else this.#use(anchor, names);
  }

  /**
   * Graph refused the names: the append goes without them, its cells inserted below the last
   * row as planned (as before appends were anchored). A first add may have landed.
   */
  #unanchor(operation: Operation | undefined): void {
    if (operation?.kind === 'write') delete operation.anchor;
    this.#namesKept = true;
    this.#anchored = false;
  }

  #use(anchor: Anchor, names: { end: string; span: string }): void {
    anchor.end = names.end;
    anchor.span = names.span;
    this.#namesInUseLeft = true;
    this.#anchored = true;
  }

  /**
   * The push's read in `session`, on which its writes go. A push that appends adds its names
   * first, in the same `$batch`, so that the read shows them right below the rows planned on
   * (see append-anchors.ts); with `list`, the workbook's names are listed beside them, and the
   * names earlier pushes left are deleted with the append. When the answer of that batch was
   * lost (its names may still be added late), the session is closed and the push starts again
   * in a new one: nothing it sent before its read can land after it. Answers the session the
   * push goes on in.
   */
  async #read(
    channel: PushChannel,
    session: string,
    deadline: number,
    policy: RetryPolicy,
    list: boolean,
  ): Promise<{ session: string; table: ProviderTable }> {
    const { operation, anchor } = this.#anchorOf();
    if (anchor === undefined) return { session, table: await channel.read(deadline, session) };
    const backoff = new Backoff(deadline, policy);
    for (let current = session; ;) {
      try {
        const answer = await channel.anchorAndRead(anchor, list, current, deadline);
        if (answer.names === null) this.#unanchor(operation);
        else this.#use(anchor, answer.names);
        if (answer.attempts > 1) this.#namesKept = true;
        if (list && answer.names !== null) this.#pickDrops(anchor, answer.listed);
        return { session: current, table: answer.table };
      } catch (error) {
        if (error instanceof Problem) throw error;
        // Names of that attempt may be there: a later push deletes them.
        this.#namesKept = true;
        const verdict = channel.judge(error, 'write');
        const gone = sessionGone(error);
        if (verdict.mayHaveApplied !== true && !gone) throw verdict.problem;
        try {
          await channel.closeSession(current, deadline);
          this.#closed(current);
        } catch {
          throw verdict.problem;
        }
        if (!verdict.retry && !gone) throw verdict.problem;
        await backoff.wait(verdict);
        channel.onRetry();
        current = await this.#open(channel, deadline);
      }
    }
  }

  /** Of the workbook's names, those the append deletes with it (see `namesToDrop`). */
  #pickDrops(anchor: Anchor, listed: { name?: unknown; comment?: unknown }[] | null): void {
    if (listed === null) {
      this.#namesKept = true;
      return;
    }
    const { drop, kept } = namesToDrop(listed, anchor.prefix, Date.now(), sessionLifetimeMs);
    anchor.drop = drop.slice(0, dropsPerAppend);
    if (kept > 0 || drop.length > dropsPerAppend) this.#namesKept = true;
  }

  /** The names last added for the push's append. */
  #namesInUse(): string[] {
    const { anchor } = this.#anchorOf();
    return [anchor?.end, anchor?.span].filter((name) => name !== undefined);
  }

  /** The operation that carries the push's anchor, its index and the anchor (none: -1). */
  #anchorOf(): { index: number; operation: Operation | undefined; anchor: Anchor | undefined } {
    const index = anchoredIndex(this.#record.operations);
    const operation = this.#record.operations[index];
    return { index, operation, anchor: operation?.kind === 'write' ? operation.anchor : undefined };
  }

  /**
   * Whether names this push added, or earlier pushes left, may still be on the worksheet: the
   * next push on the sheet that appends then lists the workbook's names and deletes those of
   * Sheetport's it may (see `namesToDrop`).
   */
  get namesLeft(): boolean {
    return this.#namesKept || this.#namesInUseLeft;
  }

  /**
   * The one place every request of operations passes just before it is sent (one operation, or
   * a `$batch` of up to 20): the push stops here once its deadline passed or the server lost
   * the sheet's lock (its signal aborted, or the database says another server holds it).
   */
  async #beforeOperation(
    channel: PushChannel,
    deadline: number,
    signal?: AbortSignal,
    holdsLock?: () => Promise<boolean>,
  ): Promise<void> {
    if (Date.now() >= deadline || signal?.aborted === true) throw this.#giveUp(channel, null);
    // Graph cannot be fenced: this server asks the database whether it still holds the sheet
    // before each request, so at most the one already sent lands after it lost the lock.
    if (holdsLock !== undefined && !(await holdsLock())) throw this.#giveUp(channel, null);
  }

  /**
   * Takes the push over and closes every session of it: the server that sent it (if it still
   * runs) can keep no session this does not close, since it can no longer save one, and a
   * request Graph still holds in a closed session is refused when it runs.
   */
  async cutOff(channel: PushChannel, deadline: number): Promise<void> {
    this.#record.holder = randomBytes(9).toString('base64url');
    await this.#save(channel, false);
    await this.#closeAll(channel, deadline);
  }

  /**
   * Settles the push from the worksheet: closes every session of it (so that nothing held can
   * land after the read), reads the worksheet and finds how far it got. All landed: the plan.
   * Part of it: the rest is sent, and if that cannot finish within the deadline, the writes
   * that landed and those that did not are answered (see the top of this file). Throws
   * `upstream-outcome-unknown` only when a session cannot be closed yet.
   */
  async settle(channel: PushChannel, deadline: number, policy: RetryPolicy): Promise<Settled> {
    await this.cutOff(channel, deadline);
    const table = await channel.read(deadline);
    const decided = this.#record.decided;
    if (decided !== null) return verdictOf(this.#record, decided.landed, decided.ambiguous);
    const total = this.#record.operations.length;
    const landed = this.#landedUpTo(table.rows, table.columns, 0);
    if (landed === total) return this.#record.plan;
    if (landed === 0 || (landed < 0 && this.#record.sessions.length === 0)) {
      return this.#decide(channel, 0, false);
    }
    if (landed > 0) {
      this.#record.done = landed;
      this.#ambiguous = false;
      try {
        const session = await this.#open(channel, deadline);
        const now = await channel.read(deadline, session);
        if (this.#landedUpTo(now.rows, now.columns, landed) === landed) {
          const edited = await this.#send(channel, session, deadline, policy);
          if (edited === null) return this.#record.plan;
        }
      } catch {
        // It could not finish: how far it got is read below, once its sessions are closed.
      }
      await this.#closeAll(channel, deadline);
      const now = await channel.read(deadline);
      const reached = this.#landedUpTo(now.rows, now.columns, 0);
      if (reached === total) return this.#record.plan;
      if (reached >= 0) return this.#decide(channel, reached, false);
    }
    // The worksheet holds none of the marks: a person edited it. What is known: the operations
    // that landed before the push stopped, and the one after, whose answer may have been lost.
    const known = this.#record.done;
    return this.#decide(channel, known, known < total);
  }

  /** Keeps the decision, so that a later settle answers the same, then answers it. */
  async #decide(channel: PushChannel, landed: number, ambiguous: boolean): Promise<Settled> {
    this.#record.decided = { landed, ambiguous };
    await this.#save(channel, false).catch(() => {});
    return verdictOf(this.#record, landed, ambiguous);
  }

  /**
   * The largest k, from `from` up, whose mark the worksheet holds; all of them when none does
   * but the rest are appends whose rows are all there (a person's insert moved them); -1 else.
   */
  #landedUpTo(rows: Cell[][], columns: string[], from: number): number {
    const record = this.#record;
    if (!sameHeader(columns, record.columns)) return -1;
    const width = record.columns.length;
    const marked = landedUpTo(rows, record.marks, record.operations, record.areas, width, from);
    if (marked >= 0) return marked;
    const landed = appendsLanded(rows, record.appends, Math.max(from, record.done), width);
    return landed ? record.operations.length : -1;
  }

  #mayHaveLanded(): boolean {
    return this.#record.done > 0 || this.#ambiguous;
  }

  /** Opens a session and keeps it in the record before it is used. */
  async #open(channel: PushChannel, deadline: number): Promise<string> {
    const session = await channel.openSession(deadline);
    this.#record.sessions.push(session);
    try {
      await this.#save(channel, !this.#mayHaveLanded());
    } catch (error) {
      // Not kept, so not to be used: another server settles the push without it.
      void channel.closeSession(session, deadline).catch(() => {});
      throw error;
    }
    return session;
  }

  /**
   * Saves the record. When it cannot be (the store is away, or another server took the sheet),
   * nothing more is sent: a problem that says nothing was changed while nothing may have landed.
   */
  async #save(channel: PushChannel, nothingSent: boolean): Promise<void> {
    if (this.#journal === undefined) return;
    const text = JSON.stringify(this.#record);
    let saved: boolean;
    try {
      saved = await this.#journal.save(text, this.#saved);
    } catch (error) {
      if (!(error instanceof Problem)) throw error;
      throw nothingSent ? error : channel.outcomeUnknown(error);
    }
    if (saved) {
      this.#saved = text;
      return;
    }
    const moved = new Problem(
      'store-unavailable',
      'Another server took this sheet before the write was sent; nothing was changed. Try again after the Retry-After delay.',
      {},
      { 'retry-after': '1' },
    );
    throw nothingSent ? moved : channel.outcomeUnknown(moved);
  }

  async #closeAll(channel: PushChannel, deadline: number): Promise<void> {
    const closed = new Set(this.#record.closed ?? []);
    for (const session of this.#record.sessions) {
      if (!closed.has(session)) await this.#close(channel, session, deadline, null);
    }
  }

  async #close(
    channel: PushChannel,
    session: string,
    deadline: number,
    cause: Problem | null,
  ): Promise<void> {
    try {
      await channel.closeSession(session, deadline);
      this.#closed(session);
    } catch (error) {
      if (sessionGone(error)) {
        this.#closed(session);
        return;
      }
      // Graph ended the push's sessions by now, whatever it answers to the close.
      if (Date.now() > this.#record.deadline + sessionLifetimeMs) return;
      // Not closed: a request of the session may still land; settle tries again.
      throw channel.outcomeUnknown(
        cause ??
          (error instanceof Problem ? error : new Problem('upstream-unavailable', String(error))),
      );
    }
  }

  /** A session Graph refuses from now on: a later settle need not close it again. */
  #closed(session: string): void {
    const closed = (this.#record.closed ??= []);
    if (!closed.includes(session)) closed.push(session);
  }

  async #readBack(channel: PushChannel, deadline: number) {
    try {
      return await channel.read(deadline);
    } catch (error) {
      if (!(error instanceof Problem) || !this.#mayHaveLanded()) throw error;
      throw channel.outcomeUnknown(error);
    }
  }

  #giveUp(channel: PushChannel, last: Problem | null): Problem {
    if (this.#mayHaveLanded()) {
      return channel.outcomeUnknown(
        last ?? new Problem('upstream-unavailable', 'The deadline for this write passed.'),
      );
    }
    return (
      last ??
      new Problem(
        'upstream-unavailable',
        'The deadline for this write passed before it could be sent; nothing was changed.',
        {},
        { 'retry-after': '1' },
      )
    );
  }
}

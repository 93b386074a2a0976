import { headerChanged, Problem, sheetNotFound } from '../errors/problem.ts';
import type { SheetStore, WriteRequest } from '../store/store.ts';
import { sameColumns, type Sheet } from '../model/sheet.ts';
import type { SheetTurns } from './sheet-turns.ts';
import { failedCommit, unsent, type WriteFate, type WritePath } from './write-path.ts';

/** Whether a write's client has left: its connection closed before the answer was sent. */
export interface ClientGone {
  readonly aborted: boolean;
}

interface Pending {
  request: WriteRequest;
  /** Where the sheet lives (scratch, upload, or its provider's name), as metrics count writes. */
  kind: string;
  /** The columns the write was planned against, by name and position. */
  columns: string[];
  arrival: number;
  /** When it may no longer be sent: past its provider's deadline, nobody waits for its outcome. */
  deadline: number;
  /** Set once its client is gone: then there is nobody to tell, and it is not sent. */
  signal: ClientGone | undefined;
  /** Every write ends with its fate; only a failure that is not a Problem (a bug) rejects. */
  resolve: (fate: WriteFate) => void;
  reject: (error: unknown) => void;
}

/** Bounds one commit, so that a flood of writes still commits in steady steps. */
const maxBatch = 500;

/**
 * The write path. Work on one sheet runs one piece at a time, in arrival order. Writes that
 * arrive while a commit is running are committed together in the next one (group commit): each
 * client still sees its own write succeed or fail alone, but many share one sync to disk, or one
 * upstream request. A request is answered only after its commit is durable, and every request
 * is answered: a failure anywhere fails the writes it took, and the queue goes on.
 */
export class WriteQueue {
  readonly #pending = new Map<string, Pending[]>();

  constructor(
    private readonly store: SheetStore,
    /** Each sheet's order of work, which commits take turns in with the mirror's re-reads. */
    private readonly turns: SheetTurns,
    private readonly pathFor: (sheet: Sheet) => WritePath,
    /** Told of every commit: the sheet's kind, and how many writes it carried. */
    private readonly onBatch: (kind: string, writes: number) => void = () => {},
  ) {}

  /**
   * Queues a write. `deadlineMs` (a provider's) bounds how long it may wait for its turn; once its
   * `signal` aborts (its client closed the connection) it is dropped instead of committed.
   * Answers the write's fate: a write dropped unsent says so, for its key to be freed.
   */
  submit(
    sheet: Sheet,
    request: WriteRequest,
    { signal, deadlineMs }: { signal?: ClientGone; deadlineMs?: number } = {},
  ): Promise<WriteFate> {
    if (this.turns.closed !== null) return Promise.resolve(unsent(this.turns.closed));
    if (signal?.aborted === true) return Promise.resolve(unsent(clientGone()));
    const sheetId = sheet.id;
    return new Promise((resolve, reject) => {
      let pending = this.#pending.get(sheetId);
      if (pending === undefined) {
        pending = [];
        this.#pending.set(sheetId, pending);
        // Let the requests already read from the sockets join this first commit, and those that
        // arrive in the next turn of the event loop: clients answered by one commit send their
        // next writes at once, and in one turn the server often reads only some of them. Durable
        // POSTs over 4 connections went from 3.2 to 4.0 writes a commit, each commit an fsync.
        // A drain refused by close() has nothing to answer: close() refused its writes.
        setImmediate(() =>
          setImmediate(() => {
            this.takeTurn(sheetId, () => this.#drain(sheetId)).catch(() => undefined);
          }),
        );
      }
      const kind = sheet.source.provider;
      const arrival = Date.now();
      const deadline = arrival + (deadlineMs ?? Infinity);
      pending.push({
        request,
        kind,
        columns: sheet.columns,
        arrival,
        deadline,
        signal,
        resolve,
        reject,
      });
    });
  }

  /**
   * Runs `work` when nothing else is running on the sheet, e.g. re-reading it from a provider.
   * Work still waiting for its turn when the queue closes is refused at once and never runs.
   */
  takeTurn<T>(sheetId: string, work: () => Promise<T>): Promise<T> {
    return this.turns.takeTurn(sheetId, work);
  }

  /**
   * Refuses every write still waiting for its turn, and every later one, with `problem`; writes
   * already in a commit finish. Nothing of a refused write has been applied anywhere. Work waiting
   * for its turn (a refresh a write waits on before it queues) is refused the same way.
   */
  close(problem: Problem): void {
    this.turns.close(problem);
    for (const [sheetId, pending] of this.#pending) {
      this.#pending.delete(sheetId);
      for (const write of pending) write.resolve(unsent(problem));
    }
  }

  /** Writes still waiting for their turn, by sheet kind. */
  depthByKind(): Map<string, number> {
    const depths = new Map<string, number>();
    for (const pending of this.#pending.values()) {
      for (const { kind } of pending) depths.set(kind, (depths.get(kind) ?? 0) + 1);
    }
    return depths;
  }

  async #drain(sheetId: string): Promise<void> {
    while ((this.#pending.get(sheetId)?.length ?? 0) > 0) {
      let taken: Pending[] = [];
      try {
        const sheet = await this.store.getSheet(sheetId);
        if (sheet === null) {
          throw sheetNotFound(sheetId);
        }
        const path = this.pathFor(sheet);
        // Waiting here, before the batch is taken, lets it grow while the provider's pace holds it.
        await path.ready?.(sheet);
        taken = this.#take(sheetId);
        await this.#commit(sheet, path, taken);
      } catch (error) {
        // Whatever failed, the writes it took get the failure, and the next ones their turn;
        // writes not yet taken were never sent.
        const sent = taken.length > 0;
        for (const write of sent ? taken : this.#take(sheetId)) {
          if (!(error instanceof Problem)) write.reject(error);
          else write.resolve(sent ? failedCommit(error) : unsent(error));
        }
      }
    }
  }

  #take(sheetId: string): Pending[] {
    const pending = this.#pending.get(sheetId) ?? [];
    const taken = pending.splice(0, maxBatch);
    if (pending.length === 0) this.#pending.delete(sheetId);
    return taken;
  }

  async #commit(sheet: Sheet, path: WritePath, taken: Pending[]): Promise<void> {
    const now = Date.now();
    const batch = taken.filter((write) => {
      const refusal =
        write.signal?.aborted === true
          ? clientGone()
          : write.deadline <= now
            ? pastDeadline(sheet.name)
            : sameColumns(write.columns, sheet.columns)
              ? null
              : headerChanged(sheet.name);
      if (refusal !== null) write.resolve(unsent(refusal));
      return refusal === null;
    });
    if (batch.length === 0) return;
    this.onBatch(sheet.source.provider, batch.length);
    const fates = await path.commit(
      sheet,
      batch.map((write) => write.request),
      { firstArrival: Math.min(...batch.map((write) => write.arrival)) },
    );
    batch.forEach((write, i) => {
      const fate = fates[i];
      if (fate === undefined)
        write.reject(new Error('a commit answered fewer writes than it took'));
      else write.resolve(fate);
    });
  }
}

/** A write dropped because its client closed the connection before its turn; nobody hears it. */
function clientGone(): Problem {
  return new Problem(
    'client-gone',
    'The client closed the connection before this write had its turn; it was not sent, and nothing was changed.',
  );
}

function pastDeadline(sheetName: string): Problem {
  return new Problem(
    'upstream-unavailable',
    `The write to sheet "${sheetName}" waited past the deadline for its turn to go to the spreadsheet; it was not sent, and nothing was changed. Send it again.`,
    {},
    { 'retry-after': '1' },
  );
}

/**
 * How a push reaches an Excel worksheet exactly once, without an atomic batch.
 *
 * Graph applies each request on its own: a push is a list of operations, each on one contiguous
 * block (see excel-operations.ts), each with the rows it leaves (its after-image). A push runs in
 * a workbook session of its own and first reads the worksheet in it: a worksheet that is not the
 * copy the writes were planned on goes back to be planned again, so an append lands below the
 * last row and a write that chooses rows changes the rows it chose. Writes are PATCHes of
 * absolute ranges (the same however often applied); deletes go bottom-up.
 *
 * When an operation's outcome is unknown (its answer lost, a timeout, a 5xx), the session is
 * closed first: Graph refuses every request of a closed session, so none held anywhere can be
 * applied later. Then the worksheet is read and compared with the images: equal to the image
 * after operation k, operations 1..k landed and the push goes on from k + 1 in a new session;
 * equal to none, a person edited it meanwhile: if none of the push can have landed it is
 * planned again on the worksheet as it is, otherwise the outcome is unknown (504) and the copy is
 * read again. What this does not guarantee: a person reading between two operations of one push
 * sees some of them; a person's edit to the same rows between the push's read and its write is
 * overwritten or lands beside it (as with Google); a session Graph expires while a request of it
 * is held releases nothing late, but a request Graph accepted before the close may still finish.
 */
import type { Cell } from '../../cells/cell.ts';
import { Problem } from '../../errors/problem.ts';
import type { ExcelSource } from './excel-source.ts';
import type { ProviderTable, PushOutcome } from '../provider.ts';
import { sameHeader, sameRows } from '../provider-table.ts';
import { Backoff, type RetryPolicy, type Verdict } from '../retry.ts';
import { sessionGone } from './excel-errors.ts';
import type { Step } from './excel-operations.ts';

/** What a push needs of the workbook: each request one attempt, failures thrown as they come. */
export interface PushChannel {
  openSession(deadline: number): Promise<string>;
  /** Resolves once Graph refuses the session's requests; throws when that cannot be learned. */
  closeSession(session: string, deadline: number): Promise<void>;
  read(deadline: number, session?: string): Promise<ProviderTable>;
  apply(step: Step, session: string, deadline: number): Promise<void>;
  /** Waits for the next write slot (every operation after the first is a write of its own). */
  slot(): Promise<void>;
  judge(error: unknown, request: 'read' | 'write'): Verdict;
  onRetry(): void;
  outcomeUnknown(cause: Problem): Problem;
}

/** One push of one plan: its operations and images, and every session it opened. */
export class WorkbookPush {
  readonly sessions: string[] = [];
  /** images[k]: the rows once operations 1..k have landed; images[0] the rows planned on. */
  readonly images: Cell[][][];
  /** Operations known to have landed. */
  #done = 0;
  #settledBefore = false;

  constructor(
    readonly source: ExcelSource,
    readonly columns: string[],
    expected: Cell[][],
    readonly steps: Step[],
    readonly plan: string,
  ) {
    this.images = [expected, ...steps.map((step) => step.after)];
  }

  async run(
    channel: PushChannel,
    deadline: number,
    policy: RetryPolicy,
    signal?: AbortSignal,
  ): Promise<PushOutcome> {
    const backoff = new Backoff(deadline, policy);
    let session = await this.#open(channel, deadline);
    const table = await channel.read(deadline, session);
    const planned = this.images[0] as Cell[][];
    if (!sameHeader(table.columns, this.columns) || !sameRows(table.rows, planned)) {
      void channel.closeSession(session, deadline).catch(() => {});
      return { landed: false, table, mayLand: false };
    }
    let ambiguous = false;
    let sent = 0;
    while (this.#done < this.steps.length) {
      if (Date.now() >= deadline || signal?.aborted === true) {
        throw this.#giveUp(channel, null, ambiguous);
      }
      const step = this.steps[this.#done] as Step;
      try {
        if (sent++ > 0) await channel.slot();
        await channel.apply(step, session, deadline);
        this.#done++;
        continue;
      } catch (error) {
        const verdict = channel.judge(error, 'write');
        const gone = sessionGone(error);
        const unknown = verdict.mayHaveApplied === true && !gone;
        if (unknown || gone) {
          // Nothing of this session may land after the read-back below.
          await this.#close(channel, session, deadline, verdict.problem);
        }
        ambiguous ||= unknown;
        if (!verdict.retry && !gone) {
          throw this.#done > 0 || ambiguous
            ? channel.outcomeUnknown(verdict.problem)
            : verdict.problem;
        }
        try {
          await backoff.wait(verdict);
        } catch (problem) {
          throw this.#giveUp(
            channel,
            problem instanceof Problem ? problem : verdict.problem,
            ambiguous,
          );
        }
        channel.onRetry();
        const now = await this.#readBack(channel, deadline, ambiguous || this.#done > 0);
        const landed = this.#landedUpTo(now);
        if (landed < this.#done) {
          // A person edited the worksheet meanwhile.
          if (this.#done === 0 && !ambiguous) return { landed: false, table: now, mayLand: false };
          throw channel.outcomeUnknown(verdict.problem);
        }
        this.#done = landed;
        ambiguous = false;
        if (unknown || gone) session = await this.#open(channel, deadline);
      }
    }
    void channel.closeSession(session, deadline).catch(() => {});
    return { landed: true, plan: this.plan };
  }

  /**
   * After the last attempt: closes every session of the push and reads the worksheet. All of it
   * landed: the plan; none: null. Part of it, or a person's edit since: the first settle throws
   * (the client hears that the outcome is unknown), a later one answers null, so that the copy
   * can be read again and the sheet served; the keys of the push are then freed.
   */
  async settle(channel: PushChannel, deadline: number): Promise<string | null> {
    for (const session of this.sessions) {
      await this.#close(channel, session, deadline, null);
    }
    const table = await channel.read(deadline);
    const landed = this.#landedUpTo(table);
    if (landed === this.steps.length) return this.plan;
    if ((landed === 0 && this.#done === 0) || this.#settledBefore) return null;
    this.#settledBefore = true;
    throw channel.outcomeUnknown(
      new Problem('upstream-unavailable', 'Part of the write may be in the worksheet.'),
    );
  }

  /** The largest k whose image the worksheet holds; -1 when it holds none of them. */
  #landedUpTo(table: ProviderTable): number {
    if (!sameHeader(table.columns, this.columns)) return -1;
    for (let k = this.images.length - 1; k >= this.#done; k--) {
      if (sameRows(table.rows, this.images[k] as Cell[][])) return k;
    }
    return -1;
  }

  async #open(channel: PushChannel, deadline: number): Promise<string> {
    const session = await channel.openSession(deadline);
    this.sessions.push(session);
    return session;
  }

  async #close(
    channel: PushChannel,
    session: string,
    deadline: number,
    cause: Problem | null,
  ): Promise<void> {
    try {
      await channel.closeSession(session, deadline);
    } catch (error) {
      if (sessionGone(error)) return;
      // Not closed: a request of the session may still land; settle tries again.
      throw channel.outcomeUnknown(
        cause ??
          (error instanceof Problem ? error : new Problem('upstream-unavailable', String(error))),
      );
    }
  }

  async #readBack(channel: PushChannel, deadline: number, mayHaveLanded: boolean) {
    try {
      return await channel.read(deadline);
    } catch (error) {
      if (!(error instanceof Problem) || !mayHaveLanded) throw error;
      throw channel.outcomeUnknown(error);
    }
  }

  #giveUp(channel: PushChannel, last: Problem | null, ambiguous: boolean): Problem {
    const problem =
      last ??
      new Problem(
        'upstream-unavailable',
        'The deadline for this write passed before it could be sent; nothing was changed.',
        {},
        { 'retry-after': '1' },
      );
    return ambiguous || this.#done > 0 ? channel.outcomeUnknown(problem) : problem;
  }
}

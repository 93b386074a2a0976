import type { Problem } from '../errors/problem.ts';
import type { SheetStore, WriteRequest } from '../store/store.ts';
import type { Sheet } from '../model/sheet.ts';
import type { WriteResult } from '../model/write-effect.ts';

export type CommitResult = WriteResult | Problem;

/**
 * What became of one write, as a value each layer passes up unchanged, so that whoever holds the
 * write's `Idempotency-Key` knows what to keep without asking anyone:
 * - `ran`: it was committed or sent, and `answer` is what happened. `recorded`: its key's answer
 *   is already stored with it (in the write's own transaction, or with the mark of the push that
 *   carries it, which settles it), so the key's holder records nothing.
 * - `refused`: decided without sending anything, as the request was asked (a 4xx is its answer).
 * - `unsent`: dropped before it was sent (its client left, its deadline passed, the server shut
 *   down, another server took the sheet); nothing was applied anywhere, and its key is free.
 */
export type WriteFate =
  | { kind: 'ran'; answer: CommitResult; recorded: boolean }
  | { kind: 'refused'; problem: Problem }
  | { kind: 'unsent'; problem: Problem };

/** A write that ran, its key's answer stored with it. */
export function ranRecorded(answer: CommitResult): WriteFate {
  return { kind: 'ran', answer, recorded: true };
}

/** A write dropped before it was sent. */
export function unsent(problem: Problem): WriteFate {
  return { kind: 'unsent', problem };
}

/** What a write path's failure means for each write it took: the store may hold them or not. */
export function failedCommit(problem: Problem): WriteFate {
  // A store commit whose outcome is not known may have stored the key's answer with the write
  // (or tied it to a push's mark): the key is left as it is, held by that transaction or push,
  // or by its lease until it passes.
  return { kind: 'ran', answer: problem, recorded: problem.code === 'store-outcome-unknown' };
}

/** The answer a write reaches its client with. */
export function fateAnswer(fate: WriteFate): CommitResult {
  return fate.kind === 'ran' ? fate.answer : fate.problem;
}

/**
 * How a group of writes to one sheet is committed. Sheets that live only here commit to the
 * store; sheets mirrored from a provider first replay their writes upstream.
 */
export interface WritePath {
  /** Commits the writes in order; each gets its fate (see `WriteFate`). */
  commit(
    sheet: Sheet,
    writes: WriteRequest[],
    context: { firstArrival: number },
  ): Promise<WriteFate[]>;
  /** Resolves when the next commit may start; a provider uses it to pace upstream writes. */
  ready?(sheet: Sheet): Promise<void>;
}

export class StoreWritePath implements WritePath {
  constructor(private readonly store: SheetStore) {}

  /** Every keyed write's answer commits with it (or it was taken over): each is recorded. */
  async commit(sheet: Sheet, writes: WriteRequest[]): Promise<WriteFate[]> {
    return (await this.store.writeRows(sheet.id, writes)).map(ranRecorded);
  }
}

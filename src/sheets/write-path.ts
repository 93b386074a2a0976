import type { Problem } from '../errors/problem.ts';
import type { SheetStore, WriteRequest } from '../store/store.ts';
import type { Sheet } from '../model/sheet.ts';
import type { WriteResult } from '../model/write-effect.ts';

export type CommitResult = WriteResult | Problem;

/**
 * How a group of writes to one sheet is committed. Sheets that live only here commit to the
 * store; sheets mirrored from a provider first replay their writes upstream.
 */
export interface WritePath {
  /** Commits the writes in order; each gets its outcome or its Problem. */
  commit(
    sheet: Sheet,
    writes: WriteRequest[],
    context: { firstArrival: number },
  ): Promise<CommitResult[]>;
  /** Resolves when the next commit may start; a provider uses it to pace upstream writes. */
  ready?(sheet: Sheet): Promise<void>;
}

export class StoreWritePath implements WritePath {
  constructor(private readonly store: SheetStore) {}

  commit(sheet: Sheet, writes: WriteRequest[]): Promise<CommitResult[]> {
    return this.store.writeRows(sheet.id, writes);
  }
}

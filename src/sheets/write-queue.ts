import { headerChanged, Problem } from '../errors/problem.ts';
import type { WriteOp } from '../query/plan.ts';
import type { WriteResult } from './write-effect.ts';
import type { SheetStore } from '../store/store.ts';
import { sameColumns, type Sheet } from './sheet.ts';
import type { WritePath } from './write-path.ts';

interface Pending {
  op: WriteOp;
  /** The columns the write was planned against, by name and position. */
  columns: string[];
  arrival: number;
  resolve: (result: WriteResult) => void;
  reject: (error: unknown) => void;
}

/** Bounds one commit, so that a flood of writes still commits in steady steps. */
const maxBatch = 500;

/**
 * The write path. Work on one sheet runs one piece at a time, in arrival order. Writes that
 * arrive while a commit is running are committed together in the next one (group commit): each
 * client still sees its own write succeed or fail alone, but many share one sync to disk, or one
 * upstream request. A request is answered only after its commit is durable.
 */
export class WriteQueue {
  readonly #pending = new Map<string, Pending[]>();
  /** The tail of each sheet's chain of work; a new piece starts when the one before ends. */
  readonly #tails = new Map<string, Promise<unknown>>();

  constructor(
    private readonly store: SheetStore,
    private readonly pathFor: (sheet: Sheet) => WritePath,
  ) {}

  submit(sheet: Sheet, op: WriteOp): Promise<WriteResult> {
    const sheetId = sheet.id;
    return new Promise((resolve, reject) => {
      let pending = this.#pending.get(sheetId);
      if (pending === undefined) {
        pending = [];
        this.#pending.set(sheetId, pending);
        // Let the requests already read from the sockets join this first commit.
        setImmediate(() => void this.exclusive(sheetId, () => this.#drain(sheetId)));
      }
      pending.push({ op, columns: sheet.columns, arrival: Date.now(), resolve, reject });
    });
  }

  /** Runs `work` when nothing else is running on the sheet, e.g. re-reading it from a provider. */
  exclusive<T>(sheetId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(sheetId) ?? Promise.resolve();
    const run = previous.then(work, work);
    const tail = run.catch(() => undefined);
    this.#tails.set(sheetId, tail);
    void tail.then(() => {
      if (this.#tails.get(sheetId) === tail) this.#tails.delete(sheetId);
    });
    return run;
  }

  async #drain(sheetId: string): Promise<void> {
    for (;;) {
      if ((this.#pending.get(sheetId)?.length ?? 0) === 0) return;
      const sheet = await this.store.getSheet(sheetId);
      const path = sheet === null ? null : this.pathFor(sheet);
      // Waiting here, before the batch is taken, lets it grow while the provider's pace holds it.
      await path?.ready?.(sheet as Sheet);
      const pending = this.#pending.get(sheetId) ?? [];
      const taken = pending.splice(0, maxBatch);
      if (pending.length === 0) this.#pending.delete(sheetId);
      if (taken.length === 0) return;
      if (sheet === null || path === null) {
        const gone = new Problem('sheet-not-found', `No sheet with id "${sheetId}".`);
        for (const write of taken) write.reject(gone);
        continue;
      }
      const batch = taken.filter((write) => {
        if (sameColumns(write.columns, sheet.columns)) return true;
        write.reject(headerChanged(sheet.name));
        return false;
      });
      if (batch.length === 0) continue;
      try {
        const results = await path.commit(
          sheet,
          batch.map((write) => write.op),
          { firstArrival: Math.min(...batch.map((write) => write.arrival)) },
        );
        batch.forEach((write, i) => {
          const result = results[i];
          if (result instanceof Problem || result === undefined) write.reject(result);
          else write.resolve(result);
        });
      } catch (error) {
        for (const write of batch) write.reject(error);
      }
    }
  }
}

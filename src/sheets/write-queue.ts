import { Problem } from '../errors/problem.ts';
import type { WriteOp, WriteOutcome } from '../query/plan.ts';
import type { SheetStore } from '../store/store.ts';

interface Pending {
  op: WriteOp;
  resolve: (outcome: WriteOutcome) => void;
  reject: (error: unknown) => void;
}

/** Bounds one commit, so that a flood of writes still commits in steady steps. */
const maxBatch = 500;

/**
 * The write path. Writes to one sheet are applied one after another in arrival order, and the
 * writes that arrive while a commit is running are committed together in the next one (group
 * commit): each client still sees its own write succeed or fail alone, but many share one sync
 * to disk. A request is answered only after its commit is durable.
 */
export class WriteQueue {
  readonly #queues = new Map<string, Pending[]>();
  readonly #running = new Set<string>();

  constructor(private readonly store: SheetStore) {}

  submit(sheetId: string, op: WriteOp): Promise<WriteOutcome> {
    return new Promise((resolve, reject) => {
      let queue = this.#queues.get(sheetId);
      if (queue === undefined) {
        queue = [];
        this.#queues.set(sheetId, queue);
      }
      queue.push({ op, resolve, reject });
      if (!this.#running.has(sheetId)) {
        this.#running.add(sheetId);
        // Let the requests already read from the sockets join this first commit.
        setImmediate(() => void this.#drain(sheetId));
      }
    });
  }

  async #drain(sheetId: string): Promise<void> {
    for (;;) {
      const queue = this.#queues.get(sheetId) ?? [];
      const batch = queue.splice(0, maxBatch);
      if (batch.length === 0) break;
      try {
        const outcomes = await this.store.applyWrites(
          sheetId,
          batch.map((pending) => pending.op),
        );
        batch.forEach((pending, i) => {
          const outcome = outcomes[i];
          if (outcome instanceof Problem) pending.reject(outcome);
          else if (outcome !== undefined) pending.resolve(outcome);
        });
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.#queues.delete(sheetId);
    this.#running.delete(sheetId);
  }
}

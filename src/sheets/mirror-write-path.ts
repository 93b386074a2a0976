import { headerChanged, Problem } from '../errors/problem.ts';
import type { WriteOp } from '../query/plan.ts';
import type { SheetProvider } from '../providers/provider.ts';
import type { SheetStore } from '../store/store.ts';
import { sameColumns, type Sheet } from './sheet.ts';
import type { SheetMirror } from './sheet-mirror.ts';
import type { WriteEffect } from './write-effect.ts';
import type { CommitResult, WritePath } from './write-path.ts';

/**
 * Commits writes to a sheet mirrored from a provider. The writes are planned against a copy no
 * older than the sheet's freshness window, replayed upstream as one atomic request, and only
 * then applied to the copy: if the provider refuses, neither side changes.
 */
export class MirrorWritePath implements WritePath {
  constructor(
    private readonly store: SheetStore,
    private readonly mirror: SheetMirror,
    private readonly provider: SheetProvider,
  ) {}

  ready(): Promise<void> {
    return this.provider.writeSlot();
  }

  /** Servers sharing a store take turns: one at a time replays a sheet's writes upstream. */
  commit(stale: Sheet, ops: WriteOp[], context: { firstArrival: number }): Promise<CommitResult[]> {
    return this.store.exclusive(stale.id, () => this.#commit(stale, ops, context));
  }

  async #commit(
    stale: Sheet,
    ops: WriteOp[],
    { firstArrival }: { firstArrival: number },
  ): Promise<CommitResult[]> {
    // A marker is set while a push is under way. Found set, it means a push was cut off (its
    // server died, or Google failed without saying whether it applied the batch): the
    // spreadsheet may hold writes the copy lacks, so the copy is re-read before planning.
    const marker = `pushing:${stale.id}`;
    const interrupted = !(await this.store.claimFlag(marker));
    const sheet = await this.mirror.refreshIfStale(stale.id, interrupted);
    if (!sameColumns(sheet.columns, stale.columns)) {
      await this.store.releaseFlag(marker);
      return ops.map(() => headerChanged(sheet.name));
    }
    const planned = await this.store.applyWrites(sheet.id, ops, 'plan');
    const accepted: WriteOp[] = [];
    const effects: WriteEffect[] = [];
    planned.forEach((result, i) => {
      if (result instanceof Problem || result.effect === undefined) return;
      accepted.push(ops[i] as WriteOp);
      effects.push(result.effect);
    });
    let refusal: Problem | null = null;
    if (accepted.length > 0) {
      try {
        await this.provider.push(sheet, effects, firstArrival + this.provider.deadlineMs);
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        refusal = error;
      }
    }
    const committed = refusal === null ? await this.store.applyWrites(sheet.id, accepted) : [];
    // Only an outage leaves it unknown whether Google applied the batch; then the marker stays.
    if (refusal?.code !== 'provider-unavailable') await this.store.releaseFlag(marker);
    // The commit replays the plan on the same rows, so it cannot differ; if it ever did, the
    // copy is no longer the spreadsheet's and is re-read before it is used again.
    if (committed.some((result) => result instanceof Problem)) this.mirror.forget(sheet.id);
    let next = 0;
    return planned.map((result) => {
      if (result instanceof Problem) return result;
      if (refusal !== null) return refusal;
      const done = committed[next++];
      return done ?? unexpected();
    });
  }
}

function unexpected(): Problem {
  return new Problem('internal-error', 'A write planned against the sheet could not be applied.');
}

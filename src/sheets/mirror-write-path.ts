import { randomBytes } from 'node:crypto';
import type { Cell } from '../cells/cell.ts';
import { headerChanged, Problem } from '../errors/problem.ts';
import type { SheetProvider } from '../providers/provider.ts';
import { MemoryRows } from '../store/memory-rows.ts';
import { planWrite, versionMismatch } from '../store/plan-write.ts';
import type { PlannedWrite, SheetStore, WriteRequest } from '../store/store.ts';
import { runSync } from '../store/work.ts';
import { sameColumns, type Sheet } from './sheet.ts';
import type { SheetMirror } from './sheet-mirror.ts';
import type { CommitResult, WritePath } from './write-path.ts';

/**
 * Commits writes to a sheet mirrored from a provider: planned once, in memory, on a copy known
 * to match the spreadsheet; sent upstream as one atomic request that lands exactly once; and only
 * then applied to the copy. If the provider refuses, neither side changes. While the request is
 * out, the sheet carries a marker; it is cleared only once the copy is known to match again, so
 * that a push whose outcome stays unknown (or a server that dies mid-push) makes the next reader
 * or writer read the spreadsheet afresh before trusting the copy.
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
  commit(
    stale: Sheet,
    writes: WriteRequest[],
    { firstArrival }: { firstArrival: number },
  ): Promise<CommitResult[]> {
    const deadline = firstArrival + this.provider.deadlineMs;
    return this.store.exclusive(stale.id, () => this.#commit(stale, writes, deadline));
  }

  async #commit(stale: Sheet, writes: WriteRequest[], deadline: number): Promise<CommitResult[]> {
    let sheet = await this.mirror.refreshIfStale(stale.id);
    for (;;) {
      if (!sameColumns(sheet.columns, stale.columns)) {
        return writes.map(() => headerChanged(sheet.name));
      }
      const { rows } = await this.store.loadRows(sheet.id);
      const planned = planInMemory(sheet, rows, writes);
      const effects = planned.flatMap((write) => (write instanceof Problem ? [] : write.effects));
      if (effects.length === 0) return planned.map((write) => answer(write, sheet.version));
      const push = { id: randomBytes(12).toString('base64url'), expected: rows, deadline };
      await this.store.markPushing(sheet.id, push.id);
      let outcome;
      try {
        outcome = await this.provider.push(sheet, effects, push);
      } catch (error) {
        if (!(error instanceof Problem)) throw error;
        // Only a push that certainly did not land leaves the copy matching the spreadsheet.
        if (error.code !== 'upstream-outcome-unknown') await this.store.markPushing(sheet.id, null);
        return planned.map((write) => (write instanceof Problem ? write : error));
      }
      if (outcome.landed) {
        const accepted = planned.filter(
          (write): write is PlannedWrite => !(write instanceof Problem),
        );
        const applied = await this.store.applyPlanned(sheet.id, accepted, 'api');
        let next = 0;
        return planned.map((write) =>
          write instanceof Problem ? write : (applied[next++] ?? write),
        );
      }
      // It did not land, and the spreadsheet changed meanwhile: plan again on what it holds now.
      const { table } = outcome;
      sheet = (await this.store.replaceRows(sheet.id, table.columns, table.rows)).sheet;
      this.mirror.synced(sheet.id);
    }
  }
}

/** Plans writes in order on a copy of the rows, each seeing those before it. */
function planInMemory(
  sheet: Sheet,
  rows: Cell[][],
  writes: WriteRequest[],
): (PlannedWrite | Problem)[] {
  const copy = new MemoryRows(
    sheet.name,
    rows.map((row) => [...row]),
  );
  let version = sheet.version;
  return writes.map(({ op, ifMatch }) => {
    const mismatch = versionMismatch(sheet.name, ifMatch, version);
    if (mismatch !== null) return mismatch;
    try {
      const planned = runSync(planWrite(copy, op), null);
      if (planned.effects.length > 0) version++;
      return planned;
    } catch (error) {
      if (error instanceof Problem) return error;
      throw error;
    }
  });
}

/** A write that changed nothing answers at the version the sheet is at. */
function answer(write: PlannedWrite | Problem, version: number): CommitResult {
  return write instanceof Problem ? write : { ...write, version };
}

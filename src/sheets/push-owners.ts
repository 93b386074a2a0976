import { Problem } from '../errors/problem.ts';
import type { PartlyLanded, PushJournal } from '../providers/provider.ts';
import { keyOutcome } from '../store/idempotency-records.ts';
import type { MirrorWrite, PushEnd, SheetStore, WriteRequest } from '../store/store.ts';

/**
 * Names for the writes of a push, by which a provider that learns each write's own outcome
 * answers it (see `PartlyLanded`): a write with an `Idempotency-Key` is named by its key, so that
 * any server settling the push later can settle that key; others by their place in the batch.
 */
export function ownerOf(write: WriteRequest, index: number): string {
  const held = write.idempotency;
  return held === undefined ? `write:${index}` : `key:${JSON.stringify([held.scope, held.key])}`;
}

/** The owner of each effect of the plan, in the order the effects are pushed. */
export function effectOwners(writes: WriteRequest[], planned: (MirrorWrite | Problem)[]): string[] {
  return planned.flatMap((write, i) => {
    if (write instanceof Problem) return [];
    const owner = ownerOf(writes[i] as WriteRequest, i);
    return write.effects.map(() => owner);
  });
}

/**
 * How a push that landed in part ends for its keys: a write that did not land frees its key, one
 * of which part landed keeps answering that its outcome is unknown.
 */
export function partlyLandedEnd(settled: PartlyLanded, sheetName: string): PushEnd {
  const byKey: NonNullable<PushEnd['byKey']> = [];
  for (const [owners, outcome] of [
    [settled.missed, null],
    [settled.partly, keyOutcome(partlyLanded(sheetName))],
  ] as const) {
    for (const owner of owners) {
      if (!owner.startsWith('key:')) continue;
      const [scope, key] = JSON.parse(owner.slice(4)) as [string, string];
      byKey.push({ scope, key, outcome });
    }
  }
  return { plan: settled.plan, byKey };
}

/** The answer to a write of which only part reached the spreadsheet. */
export function partlyLanded(sheetName: string): Problem {
  return new Problem(
    'upstream-outcome-unknown',
    `Only part of this write reached the spreadsheet of sheet "${sheetName}" before it stopped, and the rest will not be sent. Read the rows before sending the write again.`,
    {},
    { 'retry-after': '1' },
  );
}

/** The answer to a write of a push that landed in part, when this write did not land at all. */
export function notLanded(): Problem {
  return new Problem(
    'upstream-unavailable',
    'The spreadsheet did not take this write (other writes sent with it did), and none of it can land later; nothing of it was changed. Try again after the Retry-After delay.',
    {},
    { 'retry-after': '1' },
  );
}

/** The store's record of one push, as its provider keeps it (see `PushJournal`). */
export function pushJournal(store: SheetStore, sheetId: string, pushId: string): PushJournal {
  return {
    load: () => store.pushRecord(sheetId, pushId),
    save: (record, previous) => store.savePushRecord(sheetId, pushId, record, previous),
  };
}

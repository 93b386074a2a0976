import { sheetNotFound } from '../errors/problem.ts';
import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';
import type { SheetRecord } from './store-records.ts';
import type { RowEvent } from './store.ts';
import type { StoredRows } from './stored-rows.ts';

// Steps the engine's units share: a sheet found (or the problem of its absence), its fence, and
// its save with the row events of a write.

/** Whether the sheet's lock epoch is still `epoch` (null: a write made under no lock). */
export function* holdsEpoch(db: Dialect, sheetId: string, epoch: number | null): DbWork<boolean> {
  if (epoch === null) return true;
  return (yield* db.sheets.pushFence(sheetId))?.epoch === epoch;
}

export function fenced(sheetId: string): string {
  return `Another server took sheet ${sheetId}; this server's read of it was not taken.`;
}

export function* sheetOrMissing(db: Dialect, id: string, lock = false): DbWork<SheetRecord> {
  const record = yield* db.sheets.sheetById(id, lock);
  if (record === null) throw sheetNotFound(id);
  return record;
}

/**
 * Ends a write: its appended rows stored, the index if the sheet outgrew the threshold, the
 * sheet's counts, the events. A write that changed no row (and so appended none) changes
 * nothing, unless `save` asks for the sheet to be saved anyway.
 */
export function* saveSheetAndEvents(
  db: Dialect,
  source: StoredRows,
  events: RowEvent[],
  save = false,
): DbWork<void> {
  if (events.length === 0 && !save && !source.indexGrew) return;
  if (events.length > 0) {
    yield* source.settle();
    // The time of the events, which the sheet's changes are of.
    source.record.updatedAt = (events.at(-1) as RowEvent).createdAt;
    yield* db.outbox.insertEvents(events);
  }
  yield* db.sheets.saveSheet(source.record);
}

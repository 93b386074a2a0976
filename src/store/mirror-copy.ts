import type { Cell } from '../cells/cell.ts';
import type { WriteResult } from '../model/write-effect.ts';
import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';
import { keyOutcome, settlePush } from './idempotency-records.ts';
import { pushedRowKeys } from './pushed-rows.ts';
import { diffRows } from './replace-rows.ts';
import { columnsEvent, rereadOrder, rowEvents } from './row-events.ts';
import { fenced, holdsEpoch, saveSheetAndEvents, sheetOrMissing } from './sheet-units.ts';
import { LockLost, type SheetRecord } from './store-records.ts';
import type {
  ChangeSource,
  MirrorWrite,
  PushedKey,
  PushEnd,
  ReplaceFence,
  RowEvent,
} from './store.ts';
import { StoredRows } from './stored-rows.ts';

// A mirrored sheet's copy taking what its spreadsheet holds: writes a push applied upstream, or
// a fresh read of the whole tab (see `SheetStore.applyPlanned` and `SheetStore.replaceRows`).

/** Writes planned on rows in hand and applied upstream, as `SheetStore.applyPlanned` takes them. */
export interface PlannedWrites {
  sheetId: string;
  pushId: string;
  writes: MirrorWrite[];
  origin: ChangeSource;
  base: Cell[][] | null;
  plan: string | null;
  epoch: number | null;
}

/**
 * The unit of `SheetStore.applyPlanned`: null while the push no longer holds the sheet. `events`
 * receives the unit's row events (emptied first), for the commit to look for should its
 * outcome be unknown.
 */
export function* applyPlannedWrites(
  db: Dialect,
  indexThreshold: number,
  events: RowEvent[],
  { sheetId, pushId, writes, origin, base, plan, epoch }: PlannedWrites,
): DbWork<{ results: WriteResult[]; record: SheetRecord } | null> {
  events.length = 0;
  const current = yield* sheetOrMissing(db, sheetId, true);
  // Another server took the sheet (or re-read it) since this push was marked: not ours.
  if (current.pushing !== pushId || !(yield* holdsEpoch(db, sheetId, epoch))) return null;
  const source = new StoredRows(db, current, indexThreshold);
  if (base !== null) {
    // The tab as checked before the push, which the writes were planned on: first the copy
    // takes it, as a re-read would.
    const stored = yield* db.rows.rowsBetween(current.key, 0, current.rowCount);
    const effects = diffRows(source.codec, stored, base);
    for (const effect of effects) yield* source.apply(effect);
    if (effects.length > 0) {
      source.record.version++;
      events.push(...rowEvents(source.record, rereadOrder(source.changes), 'provider'));
    }
  }
  const results: WriteResult[] = [];
  const answers: PushedKey[] = [];
  for (const { outcome, effects, actor, idempotency } of writes) {
    const changes = source.changes.length;
    for (const effect of effects) yield* source.apply(effect);
    if (effects.length > 0) {
      source.record.version++;
      events.push(...rowEvents(source.record, source.changes.slice(changes), origin, actor));
    }
    const result = { outcome, effects, version: source.record.version };
    results.push(result);
    if (idempotency !== undefined) answers.push({ held: idempotency, outcome: keyOutcome(result) });
  }
  // The keys tied to the push take these answers with the writes, whatever follows.
  yield* settlePush(db, sheetId, pushId, { plan, answers });
  // The push these writes came from landed, and the copy now holds it: it matches again.
  source.record.pushing = null;
  yield* db.pushes.dropPushRecords(sheetId, null);
  yield* saveSheetAndEvents(db, source, events, true);
  return { results, record: source.record };
}

/** A fresh read of a mirrored sheet's spreadsheet, as `SheetStore.replaceRows` takes it. */
export interface TabRead {
  sheetId: string;
  columns: string[];
  rows: Cell[][];
  marker: string | null;
  settled: { pushId: string; end: PushEnd } | undefined;
  fence: ReplaceFence | undefined;
}

/** The unit of `SheetStore.replaceRows`. */
export function* takeTabRead(
  db: Dialect,
  indexThreshold: number,
  { sheetId, columns, rows, marker, settled, fence }: TabRead,
): DbWork<{ record: SheetRecord; changed: boolean }> {
  let record = yield* sheetOrMissing(db, sheetId, true);
  if (fence !== undefined) {
    // Another server took the sheet, or marked a push of its own: this read is not to be taken.
    const held = yield* holdsEpoch(db, sheetId, fence.epoch);
    if (!held || record.pushing !== fence.pushing) throw new LockLost(fenced(sheetId));
  }
  // The push was closed before the read: its keys learn how it ended with the copy, and the
  // rows of the plan that landed get the keys its answer named.
  const pushed =
    settled === undefined
      ? null
      : yield* pushedRowKeys(db, sheetId, settled.pushId, settled.end.plan);
  if (settled !== undefined) yield* settlePush(db, sheetId, settled.pushId, settled.end);
  const sameHeader =
    record.columns.length === columns.length && record.columns.every((c, i) => c === columns[i]);
  const events: RowEvent[] = [];
  let previousColumns: string[] | null = null;
  if (!sameHeader) {
    // A new header changes every row's JSON: the rows are stored again under it, each value
    // under its column's name, silently; the diff below then names the rows whose values
    // changed (none when a column was only added or moved).
    const old = new StoredRows(db, record, indexThreshold, false);
    const all = Array.from({ length: record.rowCount }, (_, i) => i);
    const oldRows = all.length > 0 ? yield* old.rowsAt(all) : [];
    // The rows are the same rows under a new header: they keep their keys.
    const oldRids = all.length > 0 ? yield* old.ridsAt(all) : [];
    if (all.length > 0) yield* old.apply({ kind: 'delete', positions: all, before: oldRows });
    yield* db.rows.deleteAllEntries(record.key);
    yield* db.blocks.deleteAllBlocks(record.key);
    const before = record.columns;
    previousColumns = before;
    // The columns indexed before stay indexed under their names, wherever they are now.
    const indexedColumns = old.record.indexedColumns
      .map((col) => columns.indexOf(before[col] as string))
      .filter((col) => col >= 0)
      .sort((a, b) => a - b);
    record = { ...old.record, columns, indexed: false, indexedColumns };
    const from = columns.map((column) => before.indexOf(column));
    const remapped = oldRows.map((row) => from.map((i) => (i < 0 ? null : (row[i] ?? null))));
    const moved = new StoredRows(db, record, indexThreshold, false);
    if (remapped.length > 0) {
      yield* moved.apply({ kind: 'insert', at: 0, rows: remapped, rids: oldRids });
    }
  }
  const source = new StoredRows(db, record, indexThreshold);
  const current = yield* db.rows.rowsBetween(record.key, 0, record.rowCount);
  const effects = diffRows(source.codec, current, rows);
  const present = new Set(current.map((row) => row.rid));
  for (const effect of effects) {
    const nextRid = source.record.nextRid;
    const keyed = pushed?.keyed(effect, source.codec, nextRid, (rid) => present.has(rid));
    yield* source.apply(keyed ?? effect);
  }
  const changed = !sameHeader || effects.length > 0;
  if (changed) {
    source.record.version++;
    if (previousColumns !== null) events.push(columnsEvent(source.record, previousColumns));
    events.push(...rowEvents(source.record, rereadOrder(source.changes), 'provider'));
  }
  // The copy is now what the spreadsheet holds, whatever an earlier push left unknown.
  const markerMoved = source.record.pushing !== marker;
  source.record.pushing = marker;
  yield* db.pushes.dropPushRecords(sheetId, marker);
  yield* saveSheetAndEvents(db, source, events, markerMoved);
  return { record: source.record, changed };
}

import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';
import { pushKeys, settlePush } from './idempotency-records.ts';
import { keepPushedRows, type PushedRows } from './pushed-rows.ts';
import { RowCodec } from './row-json.ts';
import { holdsEpoch, sheetOrMissing } from './sheet-units.ts';
import type { SheetRecord } from './store-records.ts';
import type { PushedKey, PushMark } from './store.ts';

// The mark a mirrored sheet carries while one of its pushes is out, and what is kept with it
// (see `SheetStore.markPushing` and the calls after it). Each is one unit, under the sheet's row
// lock; null or false when the fence says the sheet is no longer as the push expects.

/** The unit of `SheetStore.markPushing`: the sheet as marked, or null. */
export function* markPush(
  db: Dialect,
  sheetId: string,
  mark: PushMark,
): DbWork<SheetRecord | null> {
  const record = yield* sheetOrMissing(db, sheetId, true);
  const { version, pushing } = mark.expect;
  if (record.version !== version || record.pushing !== pushing) return null;
  if (!(yield* holdsEpoch(db, sheetId, mark.epoch ?? null))) return null;
  // The keys the push's rows were planned with are never given to another row.
  if (mark.reserveRids !== undefined && mark.reserveRids > record.nextRid) {
    record.nextRid = mark.reserveRids;
  }
  // The batch's keys are tied to the push before it is sent: a store failure after Google
  // applied it cannot lose them, and the push's settling answers them.
  const { plan, keys = [] } = mark;
  if (keys.length > 0 && !(yield* pushKeys(db, mark.pushId, plan ?? '', keys))) return null;
  record.pushing = mark.pushId;
  yield* db.pushes.dropPushRecords(sheetId, mark.pushId);
  if (mark.rows !== undefined) {
    yield* keepPushedRows(db, new RowCodec(record.columns), sheetId, mark.pushId, mark.rows);
  }
  yield* db.sheets.saveSheet(record);
  yield* db.sheets.setPushSettleAfter(record.key, mark.settleAfter ?? null);
  return record;
}

/** The unit of `SheetStore.keepPushedRows`. */
export function* keepRowsOfPush(
  db: Dialect,
  sheetId: string,
  pushId: string,
  rows: PushedRows,
): DbWork<boolean> {
  const record = yield* sheetOrMissing(db, sheetId, true);
  if (record.pushing !== pushId) return false;
  yield* keepPushedRows(db, new RowCodec(record.columns), sheetId, pushId, rows);
  return true;
}

/** The unit of `SheetStore.clearPushing`: the sheet with its mark cleared, or null. */
export function* clearPush(
  db: Dialect,
  sheetId: string,
  pushId: string,
  answers: PushedKey[] | undefined,
  epoch: number | null,
): DbWork<SheetRecord | null> {
  const record = yield* sheetOrMissing(db, sheetId, true);
  // A server that lost the sheet changes nothing: the one that holds it settles the push.
  if (!(yield* holdsEpoch(db, sheetId, epoch))) return null;
  yield* settlePush(db, sheetId, pushId, { plan: null, ...(answers && { answers }) });
  if (record.pushing !== pushId) return null;
  record.pushing = null;
  yield* db.pushes.dropPushRecords(sheetId, null);
  yield* db.sheets.saveSheet(record);
  return record;
}

/** The unit of `SheetStore.savePushRecord`. */
export function* keepPushRecord(
  db: Dialect,
  sheetId: string,
  pushId: string,
  record: string,
  previous: string | null,
): DbWork<boolean> {
  const current = yield* sheetOrMissing(db, sheetId, true);
  if (current.pushing !== pushId) return false;
  if ((yield* db.pushes.pushRecord(sheetId, pushId)) !== previous) return false;
  yield* db.pushes.putPushRecord(sheetId, pushId, record, new Date().toISOString());
  return true;
}

import type { DbWork } from '../db-work.ts';
import type { PushTagEntry } from '../store-records.ts';
import type { Sql } from './sql.ts';

/**
 * Push tags as the store counts them, per spreadsheet: each with its size in characters and the
 * time (epoch ms) until which it may still guard an attempt of its push; and the records a
 * provider keeps of each push of a sheet.
 */
export interface PushStatements {
  /** Locks the spreadsheet's budget until the unit ends, so that reservations take turns. */
  lockPushTags(spreadsheet: string): DbWork<void>;
  /** The spreadsheet's push tags and row anchors (those with `anchorTab`). */
  pushTagsOf(spreadsheet: string): DbWork<PushTagEntry[]>;
  /** Adds a tag (or anchor), or moves the guard (last use) of one already counted to `entry`'s. */
  savePushTag(spreadsheet: string, entry: PushTagEntry): DbWork<void>;
  deletePushTags(spreadsheet: string, tags: number[]): DbWork<void>;
  /** A provider's record of push `pushId` of the sheet (see `SheetStore.pushRecord`). */
  pushRecord(sheetId: string, pushId: string): DbWork<string | null>;
  putPushRecord(sheetId: string, pushId: string, record: string, at: string): DbWork<void>;
  /** Drops the sheet's push records but the one of `keep` (the push still marked, if any). */
  dropPushRecords(sheetId: string, keep: string | null): DbWork<void>;
}

/** Push tags and push records over a dialect's driver, written once for both databases. */
export function pushSql(sql: Sql): PushStatements {
  const { flavor } = sql;
  return {
    *lockPushTags(spreadsheet: string): DbWork<void> {
      yield* sql.changes(
        'INSERT INTO push_tag_budgets (spreadsheet) VALUES ($1) ON CONFLICT DO NOTHING',
        [spreadsheet],
      );
      yield* sql.rows(
        `SELECT spreadsheet FROM push_tag_budgets WHERE spreadsheet = $1${flavor.forUpdate}`,
        [spreadsheet],
      );
    },

    *pushTagsOf(spreadsheet: string): DbWork<PushTagEntry[]> {
      const rows = yield* sql.rows<{
        tag: number | string;
        chars: number;
        guard_until: number | string;
        anchor_tab: number | string | null;
      }>('SELECT tag, chars, guard_until, anchor_tab FROM push_tags WHERE spreadsheet = $1', [
        spreadsheet,
      ]);
      return rows.map((row) => ({
        tag: Number(row.tag),
        chars: row.chars,
        guardUntil: Number(row.guard_until),
        ...(row.anchor_tab !== null && { anchorTab: Number(row.anchor_tab) }),
      }));
    },

    *savePushTag(spreadsheet: string, entry: PushTagEntry): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO push_tags (spreadsheet, tag, chars, guard_until, anchor_tab)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (spreadsheet, tag) DO UPDATE SET guard_until = excluded.guard_until`,
        [spreadsheet, entry.tag, entry.chars, entry.guardUntil, entry.anchorTab ?? null],
      );
    },

    *deletePushTags(spreadsheet: string, tags: number[]): DbWork<void> {
      yield* sql.changes(
        `DELETE FROM push_tags WHERE spreadsheet = $1 AND ${flavor.oneOf('tag', 2, 'int')}`,
        [spreadsheet, flavor.list(tags)],
      );
    },

    *pushRecord(sheetId: string, pushId: string): DbWork<string | null> {
      const [row] = yield* sql.rows<{ record: string }>(
        'SELECT record FROM push_records WHERE sheet_id = $1 AND push_id = $2',
        [sheetId, pushId],
      );
      return row?.record ?? null;
    },

    *putPushRecord(sheetId: string, pushId: string, record: string, at: string): DbWork<void> {
      yield* sql.changes(
        `INSERT INTO push_records (sheet_id, push_id, record, updated_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (sheet_id, push_id) DO UPDATE SET record = excluded.record,
           updated_at = excluded.updated_at`,
        [sheetId, pushId, record, at],
      );
    },

    *dropPushRecords(sheetId: string, keep: string | null): DbWork<void> {
      yield* sql.changes('DELETE FROM push_records WHERE sheet_id = $1 AND push_id <> $2', [
        sheetId,
        keep ?? '',
      ]);
    },
  };
}

import type { DbWork } from '../db-work.ts';
import type { PushTagEntry } from '../store.ts';
import { IdempotencySql } from './idempotency-sql.ts';

/**
 * Push tags as the store counts them, per spreadsheet: each with its size in characters and the
 * time (epoch ms) until which it may still guard an attempt of its push.
 */
export abstract class PushTagSql extends IdempotencySql {
  /** Locks the spreadsheet's budget until the unit ends, so that reservations take turns. */
  *lockPushTags(spreadsheet: string): DbWork<void> {
    yield* this.run(
      'INSERT INTO push_tag_budgets (spreadsheet) VALUES ($1) ON CONFLICT DO NOTHING',
      [spreadsheet],
    );
    yield* this.all(
      `SELECT spreadsheet FROM push_tag_budgets WHERE spreadsheet = $1${this.flavor.forUpdate}`,
      [spreadsheet],
    );
  }

  pushTagsOf(spreadsheet: string): DbWork<PushTagEntry[]> {
    return this.all(
      'SELECT tag, chars, guard_until FROM push_tags WHERE spreadsheet = $1',
      [spreadsheet],
      (row: { tag: number | string; chars: number; guard_until: number | string }) => ({
        tag: Number(row.tag),
        chars: row.chars,
        guardUntil: Number(row.guard_until),
      }),
    );
  }

  /** Adds a tag, or moves the guard of one already counted to `entry`'s. */
  savePushTag(spreadsheet: string, entry: PushTagEntry): DbWork<void> {
    return this.run(
      `INSERT INTO push_tags (spreadsheet, tag, chars, guard_until) VALUES ($1, $2, $3, $4)
       ON CONFLICT (spreadsheet, tag) DO UPDATE SET guard_until = excluded.guard_until`,
      [spreadsheet, entry.tag, entry.chars, entry.guardUntil],
    );
  }

  deletePushTags(spreadsheet: string, tags: number[]): DbWork<void> {
    return this.run(
      `DELETE FROM push_tags WHERE spreadsheet = $1 AND ${this.flavor.oneOf('tag', 2, 'int')}`,
      [spreadsheet, this.flavor.list(tags)],
    );
  }
}

import type { Dialect } from './dialect.ts';
import type { PushTagEntry } from './store-records.ts';

/** Push tags, counted per spreadsheet by every server sharing the store. */
export interface PushTagStore {
  /**
   * Counts `entry`, a push's tag, in `spreadsheet`'s budget of `budget` characters, if the tags
   * that may still guard an attempt (`guardUntil` after `now`) leave room for it. Answers whether
   * it is counted, and the tags that guard nothing any more, to be removed with the push.
   */
  reservePushTag(
    spreadsheet: string,
    entry: PushTagEntry,
    budget: number,
    now: number,
  ): Promise<{ reserved: boolean; expired: number[] }>;
  /**
   * Counts a push's row anchors on tab `tabId` of `spreadsheet` (see `AnchorBudget.reserve`):
   * anchors take at most half of `budget`, so that push tags never wait for them. Answers the
   * anchors to remove, least recently used first (no longer counted), or null when no room.
   */
  reserveAnchors(
    spreadsheet: string,
    tabId: number,
    anchors: { used: number[]; created: number[]; seen: number[] | null },
    limits: { budget: number; chars: number; now: number },
  ): Promise<number[] | null>;
  /** Counts tags a read found that are not counted yet (such as an earlier version's). */
  notePushTags(spreadsheet: string, entries: PushTagEntry[]): Promise<void>;
  /** Moves a counted tag's guard (its attempts are all answered: it guards nothing any more). */
  guardPushTag(spreadsheet: string, tag: number, guardUntil: number): Promise<void>;
  /** Stops counting tags removed from the spreadsheet. */
  forgetPushTags(spreadsheet: string, tags: number[]): Promise<void>;
}

/** Push tags over a dialect: each call one unit of work over its push tag statements. */
export function pushTagStore(db: Dialect): PushTagStore {
  return {
    reservePushTag(
      spreadsheet: string,
      entry: PushTagEntry,
      budget: number,
      now: number,
    ): Promise<{ reserved: boolean; expired: number[] }> {
      return db.write(function* () {
        yield* db.pushes.lockPushTags(spreadsheet);
        const counted = yield* db.pushes.pushTagsOf(spreadsheet);
        const tags = counted.filter((t) => t.anchorTab === undefined && t.tag !== entry.tag);
        const expired = tags.filter((t) => t.guardUntil <= now);
        // Row anchors count whenever they were last used (they keep to half the budget).
        const live = counted.filter((t) => t.tag !== entry.tag && !expired.includes(t));
        // Tags past their guard are removed in the push's own batch, before its tag is made.
        const used = live.reduce((sum, t) => sum + t.chars, 0);
        const reserved = used + entry.chars <= budget;
        if (reserved) yield* db.pushes.savePushTag(spreadsheet, entry);
        return { reserved, expired: expired.map((t) => t.tag) };
      });
    },

    reserveAnchors(
      spreadsheet: string,
      tabId: number,
      anchors: { used: number[]; created: number[]; seen: number[] | null },
      { budget, chars, now }: { budget: number; chars: number; now: number },
    ): Promise<number[] | null> {
      return db.write(function* () {
        yield* db.pushes.lockPushTags(spreadsheet);
        const counted = (yield* db.pushes.pushTagsOf(spreadsheet)).filter(
          (t) => t.anchorTab !== undefined,
        );
        const needed = new Set([...anchors.used, ...anchors.created]);
        const seen = anchors.seen ?? [];
        const present = new Set([...seen, ...anchors.created]);
        // Anchors of the tab its last read did not find went with their rows.
        const gone =
          anchors.seen === null
            ? []
            : counted.filter((t) => t.anchorTab === tabId && !present.has(t.tag));
        const kept = counted.filter((t) => !gone.includes(t));
        const known = new Set(kept.map((t) => t.tag));
        const entry = (tag: number, usedAt: number) => ({
          tag,
          chars,
          guardUntil: usedAt,
          anchorTab: tabId,
        });
        // Found on the tab but not counted (made by a push whose answer was lost): the oldest.
        const noted = seen.filter((tag) => !known.has(tag)).map((tag) => entry(tag, 0));
        const all = [
          ...kept.map((t) => (needed.has(t.tag) ? { ...t, guardUntil: now } : t)),
          ...noted.map((t) => (needed.has(t.tag) ? { ...t, guardUntil: now } : t)),
          ...anchors.created.filter((tag) => !known.has(tag)).map((tag) => entry(tag, now)),
        ];
        let total = all.reduce((sum, t) => sum + t.chars, 0);
        const evicted: PushTagEntry[] = [];
        // Least recently used first, never one this push needs.
        for (const candidate of [...all].sort((a, b) => a.guardUntil - b.guardUntil)) {
          if (total <= budget / 2) break;
          if (needed.has(candidate.tag)) continue;
          evicted.push(candidate);
          total -= candidate.chars;
        }
        if (total > budget / 2) return null;
        const forgotten = [...gone, ...evicted].map((t) => t.tag);
        if (forgotten.length > 0) yield* db.pushes.deletePushTags(spreadsheet, forgotten);
        for (const t of all) if (!evicted.includes(t)) yield* db.pushes.savePushTag(spreadsheet, t);
        return evicted.map((t) => t.tag);
      });
    },

    notePushTags(spreadsheet: string, entries: PushTagEntry[]): Promise<void> {
      return db.write(function* () {
        yield* db.pushes.lockPushTags(spreadsheet);
        const counted = new Set((yield* db.pushes.pushTagsOf(spreadsheet)).map((t) => t.tag));
        for (const entry of entries)
          if (!counted.has(entry.tag)) yield* db.pushes.savePushTag(spreadsheet, entry);
      });
    },

    guardPushTag(spreadsheet: string, tag: number, guardUntil: number): Promise<void> {
      return db.write(function* () {
        const counted = (yield* db.pushes.pushTagsOf(spreadsheet)).find((t) => t.tag === tag);
        if (counted !== undefined)
          yield* db.pushes.savePushTag(spreadsheet, { ...counted, guardUntil });
      });
    },

    forgetPushTags(spreadsheet: string, tags: number[]): Promise<void> {
      if (tags.length === 0) return Promise.resolve();
      return db.write(() => db.pushes.deletePushTags(spreadsheet, tags));
    },
  };
}

import type { Cell } from '../cells/cell.ts';
import type { MirroredSource, Sheet, SheetSource } from '../model/sheet.ts';
import type { WriteEffect } from '../model/write-effect.ts';

/** A whole tab as read from a provider: its header's column names and its rows. */
export interface ProviderTable {
  columns: string[];
  rows: Cell[][];
  /** The source as found, e.g. with the tab's current title. */
  source: MirroredSource;
  /** The push tags the tab carries, by tag id. */
  pushTags: Map<number, PushTag>;
  /**
   * What the spreadsheet shows in the cells whose shown text differs from the typed value's own
   * (a date as `3/1/2021`, a number formatted `0.00`), by `row,column` of `rows`: what a text
   * column reads. Absent for a provider that does not say.
   */
  shown?: Map<string, string>;
}

/** A push's tag as the tab carries it: the plan that landed (or `void`), and its deadline. */
export interface PushTag {
  plan: string;
  /** Epoch ms: no attempt of the push started after it (0 when not known). */
  deadline: number;
}

/**
 * A provider whose pushes leave tags in the spreadsheet keeps them within a budget per
 * spreadsheet, counted in the store by every server (see `SheetStore.reservePushTag`).
 */
export interface TagBudget {
  /** Characters of tags one spreadsheet may hold. */
  chars: number;
  /** The spreadsheet a sheet's tab is in: its tabs share one budget. */
  documentOf(sheet: Sheet): string;
  /** A push's tag as counted: its size, and until when it may still guard a late attempt. */
  entry(tag: number, value: PushTag): { tag: number; chars: number; guardUntil: number };
  /** The size of one row anchor, for a provider that anchors rows (see `AnchorBudget`). */
  anchorChars: number;
}

/** What became of a push. */
export type PushOutcome =
  /**
   * One of the push's plans landed (`plan`): the others never can. `unguarded`: every attempt
   * sent was answered, so none can land later and its tag guards nothing any more. `pruned`:
   * the tags the push removed from the spreadsheet.
   */
  | { landed: true; plan: string; unguarded?: boolean; pruned?: number[] }
  /**
   * It did not land, and the spreadsheet is no longer what the writes were planned on: plan
   * again on `table`, under the same tag, so that still at most one plan of the push lands.
   * `mayLand`: an attempt of it was sent and may still be applied later.
   */
  | { landed: false; table: ProviderTable; mayLand: boolean };

/**
 * One push: the writes of a batch, sent as one atomic request that also creates the push's tag.
 * The tag's id is fixed for every attempt and every plan of the push, and a spreadsheet refuses a
 * second tag of one id, so whatever the provider does with attempts it was sent (apply them
 * late, twice, after their client gave up), at most one of them lands.
 */
export interface Push {
  /** The tag's id: a positive 32-bit integer, the same for every attempt and plan of the push. */
  tag: number;
  /** This plan's id, the tag's value: tells which plan of the push landed. */
  plan: string;
  /** The plans sent earlier under the same tag, which may still land. */
  earlier: string[];
  /** The columns and rows the writes were planned on. */
  expected: { columns: string[]; rows: Cell[][] };
  /** Whether the writes choose rows by position (anything but plain appends). */
  positional: boolean;
  /** Epoch ms after which no attempt starts. */
  deadline: number;
  /** The push tags the tab carried when last read, for the provider to prune old ones. */
  tags: Map<number, PushTag>;
  /** Tags of any tab of the spreadsheet that guard nothing any more, to remove with the push. */
  prune?: number[];
  /** Aborted when the server lost the sheet's lock: no further attempt starts. */
  signal?: AbortSignal;
  /**
   * Whether this server still holds the sheet's lock, asked of the database: a provider calls it
   * before every request that may change the spreadsheet (each attempt, each block), and sends
   * nothing more once it answers false. Neither Google nor Graph can be fenced, so one request
   * already sent when the lock is lost stays out (see the docs); this keeps it to one.
   */
  holdsLock?: () => Promise<boolean>;
  /** Where the provider keeps what settles the push, for any server (see `PushJournal`). */
  journal?: PushJournal;
  /** Counts the push's row anchors in the spreadsheet's budget (Google; see `AnchorBudget`). */
  anchors?: AnchorBudget;
  /**
   * For each effect, a name of the write it belongs to: a provider that learns which of its
   * requests landed answers, when the push lands in part, which writes did (see `PartlyLanded`).
   */
  owners?: string[];
}

/**
 * Row anchors (developer metadata a push keeps on the rows it chooses) counted in the same
 * per-spreadsheet budget as push tags, by every server, least recently used removed first.
 */
export interface AnchorBudget {
  /**
   * Counts a push's anchors on tab `tabId`: `used` (kept, now most recently used), `created`
   * (about to be made) and `seen` (every anchor the tab's last read found, a counted anchor of the
   * tab not among them being gone; null when no read is trusted). Answers the anchors to remove to keep within the budget, least
   * recently used first, or null when even that leaves no room.
   */
  reserve(
    tabId: number,
    anchors: { used: number[]; created: number[]; seen: number[] | null },
  ): Promise<number[] | null>;
  /** Stops counting anchors removed from the spreadsheet. */
  forget(ids: number[]): Promise<void>;
  /** How many anchors the budget holds at most. */
  capacity: number;
}

/**
 * What a provider keeps in the store about one push, written before its first change is sent:
 * enough to settle the push from the spreadsheet alone, on this server or another, after a
 * restart or a crash. It lives while the sheet carries the push's marker.
 */
export interface PushJournal {
  load(): Promise<string | null>;
  /**
   * Replaces `previous` (null: nothing kept yet) with `record`. False, and nothing saved, once
   * the sheet no longer carries the push's marker or another server replaced the record.
   */
  save(record: string, previous: string | null): Promise<boolean>;
}

/**
 * A push whose plan landed in part, as a provider without an atomic batch learns it: the writes
 * (by their owner names) that did not land at all, and those of which part landed; the others
 * of `plan` landed whole.
 */
export interface PartlyLanded {
  plan: string;
  missed: string[];
  partly: string[];
}

/** How a settle ended: the plan that landed, null when none did, or which writes did. */
export type Settled = string | null | PartlyLanded;

/** What a check of the tab against the copy found: no change, or the tab as it is. */
export type TabCheck =
  { changed: false; pushTags?: Map<number, PushTag> } | { changed: true; table: ProviderTable };

/**
 * A spreadsheet service that sheets can mirror. The spreadsheet stays the source of truth: the
 * store holds a copy that is re-read when stale, and every write is replayed upstream, whole or
 * not at all, exactly once, before it is acknowledged.
 */
/** One request to a provider as metrics count it: how it ended, or that it is sent again. */
export type UpstreamEvent =
  | {
      /** `probe`: a request for the spreadsheet's version, asked before reading its values. */
      request: 'read' | 'write' | 'probe';
      retry: false;
      /** `ambiguous`: a write that failed after it may have been applied (its answer was lost). */
      outcome: 'ok' | 'rate_limited' | 'failed' | 'ambiguous';
    }
  | { request: 'read' | 'write'; retry: true };

export interface SheetProvider {
  /** Told of every upstream request, when the app keeps metrics. */
  onUpstream?: (event: UpstreamEvent) => void;
  /** How long a write may wait for the provider, retries included, before it is refused. */
  readonly deadlineMs: number;
  /** Reads the tab a source names; `connect` resolves a source given by a user. */
  read(source: SheetSource, deadline?: number): Promise<ProviderTable>;
  /**
   * Whether the tab still holds `copy` (columns and rows), and the tab as it is when not: a read
   * of the tab, unless a cheaper probe of the spreadsheet's version answers "unchanged" since the
   * tab was last read as the copy (then without `pushTags`).
   */
  changedSince(
    sheet: Sheet,
    copy: { columns: string[]; rows: Cell[][] },
    deadline: number,
  ): Promise<TabCheck>;
  /**
   * Applies the effects in order, atomically, at most once: the outcome is learned from the
   * spreadsheet's tags. No attempt starts past the deadline. Throws a Problem when nothing landed
   * nor can land any more (`upstream-unavailable`, `provider-rate-limited`, refusals), or
   * `upstream-outcome-unknown` when an attempt may still land.
   */
  push(sheet: Sheet, effects: WriteEffect[], push: Push): Promise<PushOutcome>;
  /**
   * Closes a push whose outcome is unknown: creates its tag with no change, so that none of its
   * attempts can land any more, unless one already has. Answers the plan that landed, or null;
   * a provider that sends a push in several requests may answer which writes of it landed.
   */
  settle(sheet: Sheet, tag: number, deadline: number, journal?: PushJournal): Promise<Settled>;
  /**
   * For a provider with `unfencedMs`: stops what it can of a push another server sent, before
   * waiting out the requests that may still be in flight (an Excel push's sessions are closed).
   */
  cutOff?(sheet: Sheet, deadline: number, journal: PushJournal): Promise<void>;
  /**
   * Readies a push of writes that choose rows before it is marked (Google: anchors the rows it
   * targets, in a write of its own verified by a read). Null when ready; the tab as read when it
   * no longer holds `expected` (plan again on it). Throws a Problem when it cannot (nothing of
   * the writes was sent).
   */
  prepare?(
    sheet: Sheet,
    effects: WriteEffect[],
    push: {
      expected: { columns: string[]; rows: Cell[][] };
      deadline: number;
      anchors?: AnchorBudget;
    },
  ): Promise<ProviderTable | null>;
  /** Resolves when an upstream write may be sent, pacing writes to the provider's quota. */
  writeSlot(): Promise<void>;
  /**
   * How long after a push's deadline one of its requests may still change the spreadsheet with
   * nothing to stop it: a server that takes a sheet over from one that lost its lock waits that
   * long before settling the push (writes meanwhile answer 503). Absent or 0 when the provider is
   * fenced by the push itself (Google: the push's tag refuses any attempt once settled).
   */
  readonly unfencedMs?: number;
  /** Set when pushes leave tags in the spreadsheet (Google): their budget per spreadsheet. */
  readonly tagBudget?: TagBudget;
}

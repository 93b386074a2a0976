import type { Cell } from '../cells/cell.ts';
import type { Sheet, SheetSource } from '../sheets/sheet.ts';
import type { WriteEffect } from '../sheets/write-effect.ts';

/** A whole tab as read from a provider: its header's column names and its rows. */
export interface ProviderTable {
  columns: string[];
  rows: Cell[][];
  /** The source as found, e.g. with the tab's current title. */
  source: SheetSource;
  /** The id of the last push the spreadsheet records as applied, if any. */
  lastPush: string | null;
}

/** What became of a push. */
export type PushOutcome =
  | { landed: true }
  /** It did not land, and the spreadsheet is no longer what the copy holds: plan again on it. */
  | { landed: false; table: ProviderTable };

export interface Push {
  /** Recorded in the spreadsheet in the same atomic request, to tell later whether it landed. */
  id: string;
  /** The rows the writes were planned on: the spreadsheet as the copy holds it. */
  expected: Cell[][];
  /** Epoch ms after which no more attempts are made. */
  deadline: number;
}

/**
 * A spreadsheet service that sheets can mirror. The spreadsheet stays the source of truth: the
 * store holds a copy that is re-read when stale, and every write is replayed upstream, whole or
 * not at all, exactly once, before it is acknowledged.
 */
/** One request to a provider as metrics count it: how it ended, or that it is sent again. */
export type UpstreamEvent =
  | {
      request: 'read' | 'write';
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
  read(source: SheetSource): Promise<ProviderTable>;
  /**
   * Applies the effects in order, atomically, and never twice: after a failure that may have
   * been applied, it first finds out whether it was. Throws a Problem when nothing landed
   * (rate limits, outages or refusals past the deadline) or when whether it landed could not be
   * learned by the deadline (`upstream-outcome-unknown`).
   */
  push(sheet: Sheet, effects: WriteEffect[], push: Push): Promise<PushOutcome>;
  /** Resolves when an upstream write may be sent, pacing writes to the provider's quota. */
  writeSlot(): Promise<void>;
}

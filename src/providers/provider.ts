import type { Cell } from '../cells/cell.ts';
import type { Sheet, SheetSource } from '../sheets/sheet.ts';
import type { WriteEffect } from '../sheets/write-effect.ts';

/** A whole tab as read from a provider: its header's column names and its rows. */
export interface ProviderTable {
  columns: string[];
  rows: Cell[][];
  /** The source as found, e.g. with the tab's current title. */
  source: SheetSource;
}

/**
 * A spreadsheet service that sheets can mirror. The spreadsheet stays the source of truth: the
 * store holds a copy that is re-read when stale, and every write is replayed upstream, whole or
 * not at all, before it is acknowledged.
 */
export interface SheetProvider {
  /** How long a write may wait for the provider, retries included, before it is refused. */
  readonly deadlineMs: number;
  /** Reads the tab a source names; `connect` resolves a source given by a user. */
  read(source: SheetSource): Promise<ProviderTable>;
  /** Applies the effects in order, atomically; throws a Problem if the provider refuses. */
  push(sheet: Sheet, effects: WriteEffect[], deadline: number): Promise<void>;
  /** Resolves when an upstream write may be sent, pacing writes to the provider's quota. */
  writeSlot(): Promise<void>;
}

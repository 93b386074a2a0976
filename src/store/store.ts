import type { Cell } from '../cells/cell.ts';
import type { Problem } from '../errors/problem.ts';
import type { ReadPlan, WriteOp } from '../query/plan.ts';
import type { Sheet, SheetSettings, SheetSource } from '../sheets/sheet.ts';
import type { WriteResult } from '../sheets/write-effect.ts';

/** Rows read, and their positions when the plan asked for them. */
export interface RowsRead {
  rows: Cell[][];
  positions: number[] | null;
}

/** An API key as stored: its secret only as a hash. */
export interface ApiKeyRecord {
  id: string;
  sheetId: string;
  name: string;
  scopes: string[];
  hash: string;
  createdAt: string;
}

export interface NewSheet {
  id: string;
  name: string;
  columns: string[];
  source: SheetSource;
  settings: SheetSettings;
}

export interface SheetChanges {
  name?: string;
  settings?: Partial<SheetSettings>;
  source?: SheetSource;
}

/**
 * Where sheets and their rows live. Everything above this interface is the same whichever
 * database runs; each backend compiles plans into its own SQL.
 */
export interface SheetStore {
  listSheets(): Promise<Sheet[]>;
  getSheet(id: string): Promise<Sheet | null>;
  /**
   * Creates a sheet from rows that may arrive over time (a streamed upload). The sheet becomes
   * visible only once every row is in: if the rows fail part way, nothing is left behind.
   */
  createSheet(sheet: NewSheet, rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]>): Promise<Sheet>;
  updateSheet(id: string, changes: SheetChanges): Promise<Sheet | null>;
  deleteSheet(id: string): Promise<boolean>;
  readRows(sheet: Sheet, plan: ReadPlan): Promise<RowsRead>;
  /**
   * Applies writes in order in one transaction that is durable when the promise resolves. Each
   * write applies whole or not at all: a write that fails yields its Problem and leaves the
   * others to commit. In 'plan' mode nothing is kept: the results say what the writes would do,
   * with their effects in positions, for a provider to replay upstream first.
   */
  applyWrites(
    sheetId: string,
    ops: WriteOp[],
    mode?: 'commit' | 'plan',
  ): Promise<(WriteResult | Problem)[]>;
  /** Replaces a sheet's columns and rows at once, e.g. with a fresh read of its spreadsheet. */
  replaceRows(sheetId: string, columns: string[], rows: Cell[][]): Promise<Sheet>;
  /**
   * Sets a flag for one-time set-up, like the demo sheet: true for the one caller, across all
   * servers sharing the store, that set it first.
   */
  claimFlag(name: string): Promise<boolean>;
  releaseFlag(name: string): Promise<void>;
  /**
   * Runs `work` holding the sheet's write lock, which servers sharing the store take in turn.
   * Writes take it on their own; this is for work spanning more than one call, such as planning
   * a write, replaying it upstream and applying it.
   */
  exclusive<T>(sheetId: string, work: () => Promise<T>): Promise<T>;
  createKey(key: ApiKeyRecord): Promise<void>;
  listKeys(sheetId: string): Promise<ApiKeyRecord[]>;
  findKey(id: string): Promise<ApiKeyRecord | null>;
  /** True if the key existed. A deleted sheet's keys go with it. */
  deleteKey(sheetId: string, id: string): Promise<boolean>;
  /**
   * Counts a request against a rate limit shared by every server on this store; absent when one
   * server owns the store and counts in memory.
   */
  countHit?(key: string, windowMs: number): Promise<{ count: number; resetInMs: number }>;
  close(): Promise<void>;
}

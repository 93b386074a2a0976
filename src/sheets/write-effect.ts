import type { Cell } from '../cells/cell.ts';
import type { WriteOutcome } from '../query/plan.ts';

/**
 * What a write did, in positions: which rows it appended, changed or removed. Positions count
 * from row 0 under the header as the sheet stood just before this write. A provider replays
 * effects on the spreadsheet it mirrors.
 */
export type WriteEffect =
  | { kind: 'append'; rows: Cell[][] }
  | { kind: 'update'; positions: number[]; cells: Map<number, Cell> }
  | { kind: 'delete'; positions: number[] };

export interface WriteResult {
  outcome: WriteOutcome;
  effect?: WriteEffect;
  /**
   * The sheet's version once this write is applied: versions count committed writes, so they
   * order every write to a sheet, whichever server took it.
   */
  version?: number;
}

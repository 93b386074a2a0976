import type { Cell } from '../cells/cell.ts';

/**
 * What a write did, in positions: which rows it appended, changed or removed. Positions count
 * from row 0 under the header as the sheet stood just before this effect. `before` and `after`
 * are the rows as they were and became; a provider replays effects on the spreadsheet it
 * mirrors, and can check its copy against them.
 */
export type WriteEffect =
  | {
      kind: 'append';
      rows: Cell[][];
      /** The row ids (keys) the rows are stored with, when chosen before; else fresh ones. */
      rids?: number[];
    }
  | {
      kind: 'update';
      positions: number[];
      /** The cells written to every row, by column; the other columns are left as they were. */
      cells: Map<number, Cell>;
      before: Cell[][];
      after: Cell[][];
    }
  | { kind: 'delete'; positions: number[]; before: Cell[][] };

/**
 * Rows a person inserted above others, as a re-read of the spreadsheet finds them. The API never
 * inserts rows in the middle, so providers never replay this.
 */
export interface InsertEffect {
  kind: 'insert';
  at: number;
  rows: Cell[][];
  /** The row ids (keys) the rows are stored with, when known (a push's rows); else fresh ones. */
  rids?: number[];
}

/**
 * Rows a person moved, as a re-read finds them: they keep their ids and cells, and only their
 * place changes. The rows at `from` (positions just before this effect) are taken out and put
 * at `to` (positions just after it); the rows between keep their order. `shown` holds the same
 * rows' positions before and after the whole re-read, which its `rows.updated` event tells (the
 * rows it deletes and inserts around this effect shift them). Providers never replay this.
 */
export interface MoveEffect {
  kind: 'move';
  from: number[];
  to: number[];
  shown: { from: number[]; to: number[] };
  /** For a row also edited in place, its cells now; null for a row that only moved. */
  after?: (Cell[] | null)[];
}

export type RowEffect = WriteEffect | InsertEffect | MoveEffect;

export interface WriteResult {
  outcome: WriteOutcome;
  effects: WriteEffect[];
  /**
   * The sheet's version once this write is applied: versions count writes that changed rows, so
   * they order every write to a sheet, whichever server took it.
   */
  version?: number;
}

/**
 * What a write answers: how many rows it created, updated or deleted; a POST also the keys of
 * the rows each body row created (or, for an upsert, updated), in body order. Answers stored
 * before keys existed have none.
 */
export type WriteOutcome =
  | { created: number; keys?: string[] }
  | { updated: number }
  | { deleted: number }
  | { created: number; updated: number; keys?: string[] };

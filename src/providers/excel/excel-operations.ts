import type { Cell } from '../../cells/cell.ts';
import { columnLetter } from '../../files/header.ts';
import type { WriteEffect } from '../../model/write-effect.ts';
import { cellToExcel, type GraphValue } from './excel-cells.ts';

/**
 * One step of a push, on one contiguous block of the worksheet: cells written (a PATCH of an
 * absolute range) or whole rows deleted with the rows below shifting up. An append first inserts
 * whole rows where it writes (`insert`, shifting down whatever lies there), in the same request
 * chain: Graph cannot make a write conditional on the cells it replaces, and a person inserting
 * rows above moves a row onto the address planned, which an insert pushes down where a PATCH
 * alone would write over it.
 */
export type Operation =
  | {
      kind: 'write';
      address: string;
      values: GraphValue[][];
      numberFormat: (string | null)[][];
      /**
       * Cells inserted (`A7:C8`, the sheet's columns), shifting down what lies there, just
       * before the cells are written. Not whole rows: Graph answers an insert with the range
       * inserted, and whole rows are 16,384 cells wide.
       */
      insert?: string;
      /**
       * Where the insert and the write go instead of `insert` and `address`: defined names that
       * Excel moves with a person's inserts above (see append-anchors.ts). The write then
       * covers the inserted rows and one row above and below them, left as they are.
       */
      anchor?: Anchor;
    }
  | { kind: 'delete'; address: string };

/**
 * The Graph requests an operation takes: an anchored append's insert, write and the deletes of
 * its two names and of the names it drops; another append's insert and write; else one.
 */
export function requestCount(operation: Operation): number {
  if (operation.kind !== 'write' || operation.insert === undefined) return 1;
  return operation.anchor === undefined ? 2 : 4 + (operation.anchor.drop?.length ?? 0);
}

/**
 * An operation, the rows under the header once it has landed (its after-image), the block it
 * works on (rows under the header and columns, from 0, inclusive: a delete's whole rows) and the
 * effects it carries (their indexes in the list planned).
 */
export interface Step {
  operation: Operation;
  after: Cell[][];
  area: Area;
  effects: number[];
}

/** A block of cells: rows under the header and columns, counted from 0, bounds included. */
export interface Area {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

/**
 * The operations that replay `effects` on a worksheet whose rows under the header are `rows`,
 * in order, each with the rows it leaves: appends insert and write the rows below the last (one
 * block for appends that follow each other, as a group commit gathers them), updates write
 * each run of adjacent rows over the columns they change (cells between them left as they are),
 * deletes remove each run of adjacent rows, the lowest run first, so that the rows of the runs
 * still to delete keep their numbers. Row r under the header is worksheet row r + 2.
 */
export function planSteps(width: number, rows: Cell[][], effects: WriteEffect[]): Step[] {
  const steps: Step[] = [];
  let current = rows;
  let carried: number[] = [];
  const push = (operation: Operation, after: Cell[][], area: Area) => {
    steps.push({ operation, after, area, effects: carried });
    current = after;
  };
  for (const { effect, indexes } of coalesced(effects)) {
    carried = indexes;
    if (effect.kind === 'append') {
      if (effect.rows.length === 0) continue;
      const first = current.length;
      const last = first + effect.rows.length - 1;
      const write = writeOperation(
        first,
        0,
        width - 1,
        effect.rows,
        (row, column) => row[column] ?? null,
      );
      push(
        { ...write, insert: write.address },
        [...current, ...effect.rows.map((row) => padded(row, width))],
        { top: first, bottom: last, left: 0, right: width - 1 },
      );
    } else if (effect.kind === 'update') {
      const columns = [...effect.cells.keys()];
      if (columns.length === 0) continue;
      const left = Math.min(...columns);
      const right = Math.max(...columns);
      const afterOf = new Map(effect.positions.map((position, i) => [position, effect.after[i]]));
      for (const [low, high] of runs(effect.positions, 'ascending')) {
        const block = range(low, high).map((position) => afterOf.get(position) ?? []);
        const after = [...current];
        block.forEach((row, i) => (after[low + i] = padded(row, width)));
        push(
          writeOperation(low, left, right, block, (row, column) =>
            effect.cells.has(column) ? (row[column] ?? null) : undefined,
          ),
          after,
          { top: low, bottom: high, left, right },
        );
      }
    } else {
      for (const [low, high] of runs(effect.positions, 'descending')) {
        const after = [...current];
        after.splice(low, high - low + 1);
        push({ kind: 'delete', address: `${low + 2}:${high + 2}` }, after, {
          top: low,
          bottom: high,
          left: 0,
          right: width - 1,
        });
      }
    }
  }
  return steps;
}

/**
 * Appends that follow each other are one block of rows: one request, however many writes. Each
 * merged effect names the effects it carries.
 */
function coalesced(effects: WriteEffect[]): { effect: WriteEffect; indexes: number[] }[] {
  const merged: { effect: WriteEffect; indexes: number[] }[] = [];
  effects.forEach((effect, index) => {
    const last = merged.at(-1);
    if (effect.kind === 'append' && last?.effect.kind === 'append') {
      last.effect = { kind: 'append', rows: [...last.effect.rows, ...effect.rows] };
      last.indexes.push(index);
    } else {
      merged.push({ effect, indexes: [index] });
    }
  });
  return merged;
}

/** A PATCH of rows `first`… over columns `left`..`right`; `cellAt` undefined leaves a cell be. */
function writeOperation(
  first: number,
  left: number,
  right: number,
  block: Cell[][],
  cellAt: (row: Cell[], column: number) => Cell | undefined,
): Extract<Operation, { kind: 'write' }> {
  const values: GraphValue[][] = [];
  const numberFormat: (string | null)[][] = [];
  for (const row of block) {
    const written = range(left, right).map((column) => {
      const cell = cellAt(row, column);
      return cell === undefined ? { value: null, numberFormat: null } : cellToExcel(cell);
    });
    values.push(written.map((w) => w.value));
    numberFormat.push(written.map((w) => w.numberFormat));
  }
  const last = first + block.length - 1;
  const address = `${columnLetter(left)}${first + 2}:${columnLetter(right)}${last + 2}`;
  return { kind: 'write', address, values, numberFormat };
}

/** Adjacent positions gathered into [low, high] runs, in the order asked for. */
export function runs(positions: number[], order: 'ascending' | 'descending'): [number, number][] {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const found: [number, number][] = [];
  for (const position of sorted) {
    const last = found.at(-1);
    if (last !== undefined && last[1] === position - 1) last[1] = position;
    else found.push([position, position]);
  }
  return order === 'ascending' ? found : found.reverse();
}

const range = (low: number, high: number) =>
  Array.from({ length: high - low + 1 }, (_, i) => low + i);

const padded = (row: Cell[], width: number): Cell[] =>
  Array.from({ length: width }, (_, i) => row[i] ?? null);

/** The names that anchor an append where Excel moves it (see append-anchors.ts). */
export interface Anchor {
  /** The prefix of every name of this push's appends (see `pushPrefix`). */
  prefix: string;
  /** Worksheet cells the names refer to when added: the rows appended, and the span. */
  endAddress: string;
  spanAddress: string;
  /** The names in use now; absent until they are added. */
  end?: string;
  span?: string;
  /** Names earlier pushes left on the worksheet, deleted in the append's `$batch`. */
  drop?: string[];
}

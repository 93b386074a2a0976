import { createHash } from 'node:crypto';
import type { Cell } from '../../cells/cell.ts';
import type { Area, Operation } from './excel-operations.ts';

/**
 * How a push recognises, on a worksheet read back, how far its operations got: for each k, a
 * mark of the worksheet once operations 1..k have landed (k = 0: none), small enough to keep in
 * the store with the push.
 *
 * A mark holds the number of rows and a digest of the cells that tell k from its neighbours:
 * the cells operation k wrote (for a delete, the row that moved up into the gap) and the cells
 * operation k + 1 is about to change (for a delete, the rows it removes and the one below). Only
 * cells the push writes, or rows it removes, are compared: a formula elsewhere whose value
 * follows the written cells (a total, a running count) does not hide that the push landed.
 */
export interface ImageMark {
  rows: number;
  digest: string;
}

/** The marks of images[0..n], images[k] being the rows once operations 1..k landed. */
export function imageMarks(
  images: Cell[][][],
  operations: Operation[],
  areas: Area[],
  width: number,
): ImageMark[] {
  return images.map((image, k) => ({
    rows: image.length,
    digest: digestAt(image, watchedCells(operations, areas, k, image.length, width)),
  }));
}

/**
 * The largest k, from `from` up, whose mark the rows hold; -1 when they hold none of them (a
 * person changed the worksheet meanwhile).
 */
export function landedUpTo(
  rows: Cell[][],
  marks: ImageMark[],
  operations: Operation[],
  areas: Area[],
  width: number,
  from = 0,
): number {
  for (let k = marks.length - 1; k >= from; k--) {
    const mark = marks[k] as ImageMark;
    if (rows.length !== mark.rows) continue;
    const cells = watchedCells(operations, areas, k, rows.length, width);
    if (digestAt(rows, cells) === mark.digest) return k;
  }
  return -1;
}

/** The cells compared for image k, as [row, column] under the header, in order. */
function watchedCells(
  operations: Operation[],
  areas: Area[],
  k: number,
  height: number,
  width: number,
): [number, number][] {
  const cells = new Map<string, [number, number]>();
  const add = (row: number, column: number) => {
    if (row < 0 || row >= height || column < 0 || column >= width) return;
    cells.set(`${row}:${column}`, [row, column]);
  };
  const rowsOf = (top: number, bottom: number) => {
    for (let row = top; row <= bottom; row++) for (let c = 0; c < width; c++) add(row, c);
  };
  const writtenBy = (operation: Operation, area: Area) => {
    if (operation.kind !== 'write') return;
    operation.values.forEach((line, r) =>
      line.forEach((value, c) => {
        if (value !== null) add(area.top + r, area.left + c);
      }),
    );
  };
  // Operation k, landed: its cells, or for a delete the row that moved up into the gap.
  const done = operations[k - 1];
  const doneArea = areas[k - 1];
  if (done !== undefined && doneArea !== undefined) {
    if (done.kind === 'write') writtenBy(done, doneArea);
    else rowsOf(doneArea.top, doneArea.top);
  }
  // Operation k + 1, not landed: the cells it would change, or the rows it would remove.
  const next = operations[k];
  const nextArea = areas[k];
  if (next !== undefined && nextArea !== undefined) {
    if (next.kind === 'write') writtenBy(next, nextArea);
    else rowsOf(nextArea.top, nextArea.bottom + 1);
  }
  return [...cells.values()].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

function digestAt(rows: Cell[][], cells: [number, number][]): string {
  const values = cells.map(([row, column]) => rows[row]?.[column] ?? null);
  return createHash('sha256').update(JSON.stringify(values)).digest('base64url');
}

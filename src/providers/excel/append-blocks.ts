import { createHash } from 'node:crypto';
import type { Cell } from '../../cells/cell.ts';
import type { Step } from './excel-operations.ts';

/**
 * How a push recognises appended rows that landed away from the place planned. A person who
 * inserts rows above while Graph holds an append moves the append's insert and write with the
 * rows below it: the rows land whole, but above the rows that were pushed down, so none of the
 * push's marks (which know positions) matches the worksheet. The rows themselves are still
 * found: an append landed when its block of rows is in the worksheet more often than it was in
 * the image it was planned on. Only ever used to tell that appends landed, never that they did
 * not (a person may have edited the rows since).
 */
export interface AppendBlock {
  rows: number;
  digest: string;
  /** How often the block was in the worksheet before the append, as planned. */
  copiesBefore: number;
}

/** For each step, its block when it appends (null otherwise); images[k]: rows before step k. */
export function appendBlocks(
  images: Cell[][][],
  steps: Step[],
  width: number,
): (AppendBlock | null)[] {
  return steps.map((step, k) => {
    const { operation, area } = step;
    if (operation.kind !== 'write' || operation.insert === undefined) return null;
    const block = step.after.slice(area.top, area.bottom + 1);
    const digest = digestOf(block, width);
    return {
      rows: block.length,
      digest,
      copiesBefore: copiesOf(images[k] ?? [], block.length, digest, width),
    };
  });
}

/**
 * Whether every operation from `from` on is an append whose block the rows hold more often than
 * before it: then all of them landed, wherever a person's insert put them.
 */
export function appendsLanded(
  rows: Cell[][],
  blocks: (AppendBlock | null)[] | undefined,
  from: number,
  width: number,
): boolean {
  const rest = blocks?.slice(from) ?? [];
  if (rest.length === 0) return false;
  return rest.every(
    (block) =>
      block !== null && copiesOf(rows, block.rows, block.digest, width) > block.copiesBefore,
  );
}

function copiesOf(rows: Cell[][], height: number, digest: string, width: number): number {
  if (height === 0) return 0;
  const keys = rows.map((row) => rowKey(row, width));
  let copies = 0;
  for (let top = 0; top + height <= rows.length; top++) {
    if (digestOfKeys(keys.slice(top, top + height)) === digest) copies++;
  }
  return copies;
}

function digestOf(rows: Cell[][], width: number): string {
  return digestOfKeys(rows.map((row) => rowKey(row, width)));
}

const rowKey = (row: Cell[], width: number) =>
  JSON.stringify(Array.from({ length: width }, (_, c) => row[c] ?? null));

function digestOfKeys(keys: string[]): string {
  return createHash('sha256').update(keys.join('\n')).digest('base64url');
}

import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import type { RowCodec, StoredRow } from './row-json.ts';
import { keptRows } from './row-diff.ts';

/**
 * The fewest effects that turn the stored rows into `rows`, as a re-read of a spreadsheet finds
 * them. Rows that stayed are found by their text (see row-diff.ts), so a person's insert or
 * delete in the middle shifts the rows below without naming them. Between two rows that stayed,
 * old and new rows are paired in order as updates, and the rest are deleted or inserted there.
 * An unchanged spreadsheet is no effect, so its version and every cached answer stay.
 *
 * The effects come in this order, so that each names rows as plainly as it can: one delete of
 * the rows gone, by their positions before the change; inserts, top down, at their positions
 * after it; one update of the rows changed in place, at their positions after it.
 */
export function diffRows(codec: RowCodec, current: StoredRow[], rows: Cell[][]): RowEffect[] {
  const texts = rows.map((row) => codec.encode(row));
  const keyOf = (row: { json: string; dates: string | null }) =>
    `${row.dates ?? ''}\u0000${row.json}`;
  const shortest = Math.min(current.length, rows.length);
  const same = (i: number, j: number) =>
    keyOf(current[i] as StoredRow) === keyOf(texts[j] as StoredRow);
  let prefix = 0;
  while (prefix < shortest && same(prefix, prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    same(current.length - 1 - suffix, rows.length - 1 - suffix)
  ) {
    suffix++;
  }
  const oldEnd = current.length - suffix;
  const newEnd = rows.length - suffix;
  const middle =
    keptRows(current.slice(prefix, oldEnd).map(keyOf), texts.slice(prefix, newEnd).map(keyOf)) ??
    [];
  // The rows that stayed, as anchors, with one past the end of the middle closing the last gap.
  const anchors: [number, number][] = [
    ...middle.map(([i, j]): [number, number] => [i + prefix, j + prefix]),
    [oldEnd, newEnd],
  ];
  const deleted: number[] = [];
  const inserted: { at: number; rows: Cell[][] }[] = [];
  const updated: { old: number; pos: number }[] = [];
  let i = prefix;
  let j = prefix;
  for (const [keptOld, keptNew] of anchors) {
    const paired = Math.min(keptOld - i, keptNew - j);
    for (let p = 0; p < paired; p++) {
      if (!same(i + p, j + p)) updated.push({ old: i + p, pos: j + p });
    }
    for (let pos = i + paired; pos < keptOld; pos++) deleted.push(pos);
    if (keptNew - j > paired) {
      inserted.push({ at: j + paired, rows: rows.slice(j + paired, keptNew) });
    }
    i = keptOld + 1;
    j = keptNew + 1;
  }
  const effects: RowEffect[] = [];
  if (deleted.length > 0) {
    effects.push({
      kind: 'delete',
      positions: deleted,
      before: deleted.map((pos) => codec.decode(current[pos] as StoredRow)),
    });
  }
  for (const insert of inserted) effects.push({ kind: 'insert', ...insert });
  if (updated.length > 0) {
    effects.push({
      kind: 'update',
      positions: updated.map((row) => row.pos),
      // Rows found changed are replaced whole, from `after`; no provider replays this effect.
      cells: new Map(),
      before: updated.map((row) => codec.decode(current[row.old] as StoredRow)),
      after: updated.map((row) => rows[row.pos] as Cell[]),
    });
  }
  return effects;
}

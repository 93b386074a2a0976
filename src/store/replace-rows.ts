import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import { matchRows } from './match-rows.ts';
import type { RowCodec, RowText, StoredRow } from './row-json.ts';

/**
 * The fewest effects that turn the stored rows into `rows`, as a re-read of a spreadsheet finds
 * them, keeping each row's id (its key) while people edit: rows are matched by their text as a
 * multiset, then by position among those left (see match-rows.ts). A person's insert or delete
 * in the middle shifts the rows below without naming them; a row a person moved is moved, not
 * deleted and created again; a row edited in place is updated. An unchanged spreadsheet is no
 * effect, so its version and every cached answer stay.
 *
 * The effects come in this order, so that each names rows as plainly as it can: one delete of
 * the rows gone, by their positions before the change; one move of the rows that changed
 * places (with their new cells, for rows also edited); inserts, top down, at their positions after the change; one update of the rows
 * changed in place, at their positions after it.
 */
export function diffRows(codec: RowCodec, current: StoredRow[], rows: Cell[][]): RowEffect[] {
  // A row's JSON starts with `{`, its date columns with a digit: the two never mix up.
  const keyOf = (row: RowText) => (row.dates === null ? row.json : `${row.dates}\u0000${row.json}`);
  const beforeKeys = current.map(keyOf);
  const afterKeys = rows.map((row) => keyOf(codec.encode(row)));
  const before: (Cell[] | undefined)[] = [];
  const decoded = (i: number) => (before[i] ??= codec.decode(current[i] as StoredRow));
  const { source, moved, edited } = matchRows(beforeKeys, afterKeys, (i, j) =>
    likeness(decoded(i), rows[j] as Cell[]),
  );

  const kept = new Uint8Array(current.length);
  for (const i of source) if (i >= 0) kept[i] = 1;
  const effects: RowEffect[] = [];
  const deleted: number[] = [];
  kept.forEach((isKept, i) => {
    if (isKept === 0) deleted.push(i);
  });
  if (deleted.length > 0) {
    effects.push({ kind: 'delete', positions: deleted, before: deleted.map(decoded) });
  }

  // Once the deleted rows are gone, a row's place among the stored rows that stay.
  const rankBefore = new Int32Array(current.length);
  for (let i = 0, rank = 0; i < current.length; i++) if (kept[i] === 1) rankBefore[i] = rank++;
  const changed = (j: number) => edited[j] === 1;
  const move = {
    from: [] as number[],
    to: [] as number[],
    was: [] as number[],
    is: [] as number[],
  };
  const after: (Cell[] | null)[] = [];
  let rankAfter = 0;
  source.forEach((i, j) => {
    if (i < 0) return;
    if (moved[j] === 1) {
      move.from.push(rankBefore[i] as number);
      move.to.push(rankAfter);
      move.was.push(i);
      move.is.push(j);
      after.push(changed(j) ? (rows[j] as Cell[]) : null);
    }
    rankAfter++;
  });
  if (move.from.length > 0) {
    effects.push({
      kind: 'move',
      from: move.from,
      to: move.to,
      shown: { from: move.was, to: move.is },
      ...(after.some((cells) => cells !== null) && { after }),
    });
  }

  const updated: number[] = [];
  for (let j = 0; j < rows.length; j++) {
    const i = source[j] as number;
    if (i >= 0) {
      if (moved[j] === 0 && changed(j)) updated.push(j);
      continue;
    }
    let end = j;
    while (end < rows.length && source[end] === -1) end++;
    effects.push({ kind: 'insert', at: j, rows: rows.slice(j, end) });
    j = end - 1;
  }
  if (updated.length > 0) {
    effects.push({
      kind: 'update',
      positions: updated,
      // Rows found changed are replaced whole, from `after`; no provider replays this effect.
      cells: new Map(),
      before: updated.map((j) => decoded(source[j] as number)),
      after: updated.map((j) => rows[j] as Cell[]),
    });
  }
  return effects;
}

/**
 * The cells two rows share (same column, same value, not empty); -1 when that is less than half
 * the filled cells of either: then little says they are one row, edited, rather than a row
 * deleted and another typed in its place. Rows of one filled cell (a list of names) are always
 * paired by their place.
 */
function likeness(before: Cell[], after: Cell[]): number {
  let shared = 0;
  let filledBefore = 0;
  let filledAfter = 0;
  const width = Math.max(before.length, after.length);
  for (let c = 0; c < width; c++) {
    const a = before[c] ?? null;
    const b = after[c] ?? null;
    const hasA = a !== null && a !== '';
    const hasB = b !== null && b !== '';
    if (hasA) filledBefore++;
    if (hasB) filledAfter++;
    if (hasA && hasB && JSON.stringify(a) === JSON.stringify(b)) shared++;
  }
  const filled = Math.max(filledBefore, filledAfter);
  if (filled > 1 && shared * 2 < filled) return -1;
  return shared;
}

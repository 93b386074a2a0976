import type { Cell } from '../cells/cell.ts';
import type { RowEffect } from '../sheets/write-effect.ts';
import type { RowCodec, StoredRow } from './row-json.ts';

/**
 * The fewest effects that turn the stored rows into `rows`, as a re-read of a spreadsheet finds
 * them: rows equal at both ends stay, rows in the middle are updated in place, and what is left
 * over is deleted or inserted there. A person's single edit, insert or delete is one effect, and
 * an unchanged spreadsheet is none, so its version and every cached answer stay.
 */
export function diffRows(codec: RowCodec, current: StoredRow[], rows: Cell[][]): RowEffect[] {
  const texts = rows.map((row) => codec.encode(row));
  const same = (stored: StoredRow | undefined, i: number) =>
    stored !== undefined && stored.json === texts[i]?.json && stored.dates === texts[i]?.dates;
  const shortest = Math.min(current.length, rows.length);
  let prefix = 0;
  while (prefix < shortest && same(current[prefix], prefix)) prefix++;
  let suffix = 0;
  while (
    suffix < shortest - prefix &&
    same(current[current.length - 1 - suffix], rows.length - 1 - suffix)
  ) {
    suffix++;
  }
  const oldMiddle = current.length - suffix - prefix;
  const newMiddle = rows.length - suffix - prefix;
  const effects: RowEffect[] = [];
  const updated: number[] = [];
  for (let pos = prefix; pos < prefix + Math.min(oldMiddle, newMiddle); pos++) {
    if (!same(current[pos], pos)) updated.push(pos);
  }
  if (updated.length > 0) {
    effects.push({
      kind: 'update',
      positions: updated,
      // Rows found changed are replaced whole, from `after`; no provider replays this effect.
      cells: new Map(),
      before: updated.map((pos) => codec.decode(current[pos] as StoredRow)),
      after: updated.map((pos) => rows[pos] as Cell[]),
    });
  }
  if (oldMiddle > newMiddle) {
    const positions = Array.from(
      { length: oldMiddle - newMiddle },
      (_, i) => prefix + newMiddle + i,
    );
    effects.push({
      kind: 'delete',
      positions,
      before: positions.map((pos) => codec.decode(current[pos] as StoredRow)),
    });
  } else if (newMiddle > oldMiddle) {
    effects.push({
      kind: 'insert',
      at: prefix + oldMiddle,
      rows: rows.slice(prefix + oldMiddle, prefix + newMiddle),
    });
  }
  return effects;
}

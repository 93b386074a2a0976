import { cellText, type Cell } from '../cells/cell.ts';
import { compareText } from './match-text.ts';

/** A sort key as planned: the column's index, and its direction. */
export interface SortOrder {
  index: number;
  descending: boolean;
}

/**
 * The ascending order of `_sort`: numbers first, by value, then every other cell (text, dates,
 * true/false) by the text it shows, in code point order. Negative, zero or positive. An empty
 * cell comes after every other here; `sortPositions` keeps it last in descending order too.
 */
export function compareForSort(a: Cell, b: Cell): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' || typeof b === 'number') {
    if (typeof a !== 'number') return 1;
    if (typeof b !== 'number') return -1;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  return compareText(cellText(a), cellText(b));
}

/**
 * The order `_sort` reads rows in, as positions into `rows`: each key compares in turn, a
 * descending one in exactly the reverse of ascending order, except that empty cells come last
 * either way; rows equal on every key keep the order they have in `rows`, which is sheet order.
 */
export function sortPositions(rows: Cell[][], keys: SortOrder[]): number[] {
  const positions = rows.map((_, position) => position);
  return positions.sort((p, q) => {
    const a = rows[p] ?? [];
    const b = rows[q] ?? [];
    for (const { index, descending } of keys) {
      const x = a[index] ?? null;
      const y = b[index] ?? null;
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const order = compareForSort(x, y);
      if (order !== 0) return descending ? -order : order;
    }
    return p - q;
  });
}

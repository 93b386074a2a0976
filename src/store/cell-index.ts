import { DateCell, type Cell } from '../cells/cell.ts';
import { foldCase } from '../query/match-text.ts';
import type { Selection } from '../query/plan.ts';

/**
 * An entry of the cell index: one non-empty cell of an indexed sheet, by column and value, that
 * filters find rows by. Every sheet's entries share one table, keyed by sheet first, so the
 * schema does not grow with the number of sheets. Small sheets have no entries: they are read
 * whole and filtered in memory, which costs less than the index would.
 */
export type CellEntry =
  | { col: number; kind: 'number'; number: number; shown: string }
  | { col: number; kind: 'text'; text: string; folded: string | null }
  | { col: number; kind: 'boolean'; text: 'true' | 'false' };

export function cellEntry(col: number, cell: Cell): CellEntry | null {
  if (cell === null) return null;
  if (typeof cell === 'number') return { col, kind: 'number', number: cell, shown: String(cell) };
  if (typeof cell === 'boolean') return { col, kind: 'boolean', text: cell ? 'true' : 'false' };
  const text = cell instanceof DateCell ? cell.iso : cell;
  const folded = foldCase(text);
  return { col, kind: 'text', text, folded: folded === text ? null : folded };
}

/** The entries of a row's cells, or of only the columns listed. */
export function rowEntries(cells: Cell[], columns?: Iterable<number>): CellEntry[] {
  const entries: CellEntry[] = [];
  for (const col of columns ?? cells.keys()) {
    const entry = cellEntry(col, cells[col] ?? null);
    if (entry !== null) entries.push(entry);
  }
  return entries;
}

/** A row's entries with the row they belong to, as a dialect stores them. */
export interface RowEntries {
  rid: number;
  entries: CellEntry[];
}

/** The columns a filter selection reads, which the cell index must hold to answer it. */
export function filterColumns(selection: Selection): number[] {
  if ('ids' in selection || 'keys' in selection) return [];
  const columns = [...selection.filters, ...selection.any.flat()].map((filter) => filter.index);
  return [...columns, ...(selection.search?.columns ?? [])];
}

/** Whether a sheet's cell index holds every column a filter selection reads. */
export function indexHolds(indexedColumns: number[], selection: Selection): boolean {
  return filterColumns(selection).every((col) => indexedColumns.includes(col));
}

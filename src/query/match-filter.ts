import { cellText, DateCell, type Cell } from '../cells/cell.ts';
import type { FilterValue } from './parse-filter.ts';
import { compareText, foldCase, matchesPattern } from './match-text.ts';
import type { PlannedFilter, Search } from './plan.ts';

/**
 * What a filter means, in plain JavaScript: the definition every store must agree with, whether
 * it runs these functions itself or compiles filters to SQL. A cell is empty (null), a number,
 * text, true/false or a date; what it shows is `cellText(cell)`.
 */
export function matchesFilter(filter: PlannedFilter, cell: Cell): boolean {
  switch (filter.op) {
    case 'eq':
      return equals(cell, filter.value);
    case 'ne':
      return !equals(cell, filter.value);
    case 'in':
      return filter.values.some((value) => equals(cell, value));
    case 'nin':
      return !filter.values.some((value) => equals(cell, value));
    case 'ieq':
      return cell !== null && foldCase(cellText(cell)) === foldCase(filter.value.text);
    case 'like':
      return cell !== null && matchesPattern(filter.pattern, cellText(cell));
    case 'ilike':
      return cell !== null && matchesPattern(foldCase(filter.pattern), foldCase(cellText(cell)));
    case 'gt':
      return compares(cell, filter.value, (order) => order > 0);
    case 'ge':
      return compares(cell, filter.value, (order) => order >= 0);
    case 'lt':
      return compares(cell, filter.value, (order) => order < 0);
    case 'le':
      return compares(cell, filter.value, (order) => order <= 0);
  }
}

/** A row is selected when every filter holds and, for each `_or`, at least one alternative. */
export function matchesSelection(
  selection: { filters: PlannedFilter[]; any: PlannedFilter[][]; search?: Search },
  row: Cell[],
): boolean {
  const holds = (filter: PlannedFilter) => matchesFilter(filter, row[filter.index] ?? null);
  return (
    selection.filters.every(holds) &&
    selection.any.every((any) => any.some(holds)) &&
    (selection.search === undefined || matchesSearch(selection.search, row))
  );
}

/**
 * `_q`: some cell's text, case folded, contains the folded search text. Folding works letter by
 * letter (see `foldCase`), so this is "contains, ignoring case". Empty cells show no text.
 */
export function matchesSearch(search: Search, row: Cell[]): boolean {
  return search.columns.some((index) => {
    const cell = row[index] ?? null;
    return cell !== null && foldCase(cellText(cell)).includes(search.folded);
  });
}

/**
 * Equality as `col=v` and `__eq` mean it. An empty value means an empty cell. Otherwise a number
 * cell equals a value that stands for the same number, and any other cell (text, date, or
 * true/false) one whose text is exactly what the cell shows. So `ne`, the negation, matches
 * empty cells unless its value is empty, and `nin` matches them unless one of its values is.
 */
function equals(cell: Cell, value: FilterValue): boolean {
  if (value.text === '') return cell === null;
  if (cell === null) return false;
  if (typeof cell === 'number') return cell === value.number;
  return cellText(cell) === value.text;
}

/**
 * `gt`, `ge`, `lt` and `le`: a value that stands for a number compares with number cells, by
 * value; any other value with text and date cells, by code point. True/false never compares.
 */
function compares(cell: Cell, value: FilterValue, holds: (order: number) => boolean): boolean {
  if (value.number !== null) {
    const number = value.number;
    return typeof cell === 'number' && holds(cell < number ? -1 : cell > number ? 1 : 0);
  }
  if (typeof cell === 'string') return holds(compareText(cell, value.text));
  if (cell instanceof DateCell) return holds(compareText(cell.iso, value.text));
  return false;
}

import type { Cell } from '../api/types.ts';

const plainDecimal = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/**
 * What a cell typed into the grid is sent as. The rule is the server's rule for CSV text, so a
 * value typed here and the same value uploaded in a CSV file agree: a plain decimal that reads
 * back as the same text is a number (`42`, `3.25`, not `007` or `1.50`), `true` and `false` are
 * booleans, an empty box is an empty cell, and anything else is text.
 */
export function cellFromInput(text: string): Cell {
  if (text === '') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (text.length <= 17 && plainDecimal.test(text)) {
    const n = Number(text);
    if (String(n) === text) return n;
  }
  return text;
}

/** The text a person sees in a cell, and edits in its box. */
export function cellText(cell: Cell | undefined): string {
  return cell === null || cell === undefined ? '' : String(cell);
}

/** The cells of an edited row that differ from what was read, typed for the API. */
export function changedCells(
  before: Record<string, Cell>,
  texts: Record<string, string>,
): Record<string, Cell> {
  const changed: Record<string, Cell> = {};
  for (const [column, text] of Object.entries(texts)) {
    if (text !== cellText(before[column])) changed[column] = cellFromInput(text);
  }
  return changed;
}

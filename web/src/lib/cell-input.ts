import { numberFromText } from '../../../src/cells/number-text.ts';
import type { Cell } from '../api/types.ts';

/**
 * What a cell typed into the grid is sent as. Numbers follow the server's rule for CSV text (the
 * same module), so a value typed here and the same value uploaded in a CSV file agree: `42`,
 * `3.25` and `1.50` are numbers, `007`, `+5` and a 16-digit card number are text. `true` and
 * `false` are booleans, an empty box is an empty cell, and anything else is text.
 */
export function cellFromInput(text: string): Cell {
  if (text === '') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  return numberFromText(text) ?? text;
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

/** Characters of a row's name in a message, past which it is cut short. */
const labelLength = 40;

/**
 * A row named by what it holds, for messages: its first two cells that are not empty, quoted
 * (`“Ann, Lisbon”`). Positions move when anyone adds or deletes a row above; content does not.
 */
export function rowLabel(columns: readonly string[], row: Record<string, Cell>): string {
  const shown = columns
    .map((column) => cellText(row[column]))
    .filter((text) => text !== '')
    .slice(0, 2)
    .join(', ');
  if (shown === '') return 'with no cells';
  return `“${shown.length > labelLength ? `${shown.slice(0, labelLength - 1)}…` : shown}”`;
}

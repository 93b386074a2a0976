/**
 * Defined names of the workbook, as Excel keeps them: a name that refers to a box of cells of
 * one worksheet, and moves with those cells when cells are inserted or deleted. Each name is
 * kept on the worksheet it refers to, so that a shift of that worksheet's cells adjusts it in
 * the same step.
 */
import { columnLetters, parseAddress, quoteSheet, type Box } from './a1.ts';
import { invalidArgument } from './errors.ts';

export interface DefinedName {
  name: string;
  comment: string;
  /** The cells it refers to; null once all of them were deleted (`#REF!`). */
  box: Box | null;
}

/** What a name must look like: Excel's rules (a letter, `_` or `\` first; no cell reference). */
export function checkName(name: unknown): string {
  if (
    typeof name !== 'string' ||
    name.length === 0 ||
    name.length > 255 ||
    !/^[A-Za-z_\\][A-Za-z0-9_.\\]*$/.test(name) ||
    parseAddress(name) !== undefined ||
    /^[RrCc]$/.test(name) ||
    /^[Rr]\d*[Cc]\d*$/.test(name)
  ) {
    throw invalidArgument(`The argument 'name' is invalid: ${JSON.stringify(name)}.`);
  }
  return name;
}

/**
 * A reference as names/add takes it (`=Sheet1!$A$7:$C$8`, the `=` optional): the worksheet it
 * names (a workbook name's reference must name one) and the box.
 */
export function parseReference(reference: unknown): { sheet: string; box: Box } {
  const text = typeof reference === 'string' ? reference.replace(/^=/, '').trim() : '';
  const parsed = text === '' ? undefined : parseAddress(text);
  const sheet = parsed?.sheet;
  if (!parsed || sheet === undefined) {
    throw invalidArgument(`The argument 'reference' is invalid: ${JSON.stringify(reference)}.`);
  }
  return { sheet, box: parsed.box };
}

const absolute = (box: Box): string => {
  const start = `$${columnLetters(box.startColumn)}$${box.startRow + 1}`;
  const end = `$${columnLetters(box.endColumn - 1)}$${box.endRow}`;
  return start === end ? start : `${start}:${end}`;
};

/** Graph's workbookNamedItem for a name that refers to cells of `sheetName`. */
export function nameResource(defined: DefinedName, sheetName: string) {
  return {
    name: defined.name,
    comment: defined.comment,
    scope: 'Workbook',
    type: defined.box === null ? 'Error' : 'Range',
    value: defined.box === null ? '=#REF!' : `=${quoteSheet(sheetName)}!${absolute(defined.box)}`,
    visible: true,
  };
}

/** Whether a shift of `box`'s columns carries the reference (it lies within those columns). */
const inColumns = (ref: Box, box: Box): boolean =>
  ref.startColumn >= box.startColumn && ref.endColumn <= box.endColumn;

/**
 * Cells inserted at `box`, shifting down: a reference whose first row is at or below the first
 * inserted row moves down; one the insertion falls strictly inside (below its first row, up to
 * its last) grows; one above stays.
 */
export function namesAfterInsert(names: DefinedName[], box: Box): void {
  const height = box.endRow - box.startRow;
  for (const defined of names) {
    const ref = defined.box;
    if (ref === null || !inColumns(ref, box)) continue;
    if (ref.startRow >= box.startRow) {
      defined.box = { ...ref, startRow: ref.startRow + height, endRow: ref.endRow + height };
    } else if (box.startRow < ref.endRow) {
      defined.box = { ...ref, endRow: ref.endRow + height };
    }
  }
}

/**
 * Cells of `box` deleted, shifting up: a reference loses the rows deleted and moves up by those
 * deleted above it; one whose rows are all deleted refers to `#REF!`.
 */
export function namesAfterDelete(names: DefinedName[], box: Box): void {
  const deletedBefore = (row: number) => Math.max(0, Math.min(row, box.endRow) - box.startRow);
  for (const defined of names) {
    const ref = defined.box;
    if (ref === null || !inColumns(ref, box)) continue;
    if (ref.startRow >= box.startRow && ref.endRow <= box.endRow) {
      defined.box = null;
      continue;
    }
    defined.box = {
      ...ref,
      startRow: ref.startRow - deletedBefore(ref.startRow),
      endRow: ref.endRow - deletedBefore(ref.endRow),
    };
  }
}

/** A row moved (its cells cut and inserted elsewhere): each end of a reference follows its row. */
export function namesAfterMove(names: DefinedName[], move: (row: number) => number): void {
  for (const defined of names) {
    const ref = defined.box;
    if (ref === null) continue;
    const [top, bottom] = [move(ref.startRow), move(ref.endRow - 1)].sort((a, b) => a - b);
    defined.box = { ...ref, startRow: top ?? ref.startRow, endRow: (bottom ?? ref.endRow) + 1 };
  }
}

import { randomBytes } from 'node:crypto';
import type { Operation, Step } from './excel-operations.ts';

/**
 * Where an append lands when a person inserts rows above while Graph holds it: at the end of the
 * rows, as Excel moves it. Graph has no conditional write, but Excel moves a defined name with the
 * cells it refers to. Before the push's session read (which then shows the names right below the
 * rows it was planned on), two names of the worksheet are added over the sheet's columns, for an
 * append of k rows below the last row N:
 *
 * - `end`, rows N+1..N+k: the append's cells are inserted where it is then (shifting down
 *   whatever lies there), wherever a person's insert above moved it;
 * - `span`, rows N..N+1: the insert falls strictly inside it, so it grows to rows N..N+k+1
 *   around the inserted cells, and a PATCH of its k+2 rows (the first and last `null`, which
 *   leaves cells as they are) fills them.
 *
 * Both are deleted in the same `$batch`. A name's text is `Sheetport_<push>_<attempt>_end`: a
 * push that adds them again (after a failure) takes new ones under the same prefix, and names
 * a failure left behind are found by the prefix the push's record keeps and deleted by the next
 * push on the sheet.
 */
export interface Anchor {
  /** The prefix of every name of this push's appends (`Sheetport_<push>`). */
  prefix: string;
  /** Worksheet cells the names refer to when added: the rows appended, and the span. */
  endAddress: string;
  spanAddress: string;
  /** The names in use now; absent until they are added. */
  end?: string;
  span?: string;
}

/** Every name Sheetport adds starts with this: recognisable in the Name Manager. */
export const anchorPrefix = 'Sheetport_';

export const anchorComment =
  'Added by Sheetport for an append in progress and deleted with it; safe to delete if it stays.';

/** The names of one attempt to anchor an append: new ones each time, under the push's prefix. */
export function anchorNames(prefix: string): { end: string; span: string } {
  const attempt = randomBytes(3).toString('hex');
  return { end: `${prefix}_${attempt}_end`, span: `${prefix}_${attempt}_span` };
}

/**
 * Gives the push's first append its anchor, when no operation before it moves rows (only
 * updates, which leave the names where they are): an append after a delete or another append
 * would need names where no row is yet, and keeps its absolute address (its cells inserted below
 * the last row as planned). Answers the anchored operation's index, or -1.
 */
export function anchorFirstAppend(steps: Step[]): number {
  for (const [index, { operation }] of steps.entries()) {
    if (operation.kind !== 'write') return -1;
    if (operation.insert === undefined) continue;
    const first = firstRowOf(operation.insert);
    const columns = columnsOf(operation.insert);
    operation.anchor = {
      prefix: `${anchorPrefix}${randomBytes(8).toString('hex')}`,
      endAddress: operation.insert,
      spanAddress: `${columns[0]}${first - 1}:${columns[1]}${first}`,
    };
    return index;
  }
  return -1;
}

/** The index of the operation that carries an anchor, or -1. */
export const anchoredIndex = (operations: Operation[]): number =>
  operations.findIndex((operation) => operation.kind === 'write' && operation.anchor !== undefined);

const firstRowOf = (address: string): number =>
  Number((address.split(':')[0] ?? '').replace(/^[A-Z]+/, ''));

const columnsOf = (address: string): [string, string] => {
  const [from = '', to = from] = address.split(':');
  return [from.replace(/\d+$/, ''), to.replace(/\d+$/, '')];
};

/** `A7:C8` → `$A$7:$C$8`, on the worksheet named `sheet` (quoted as Excel quotes it). */
export function referenceOf(sheet: string, address: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.]*$/.test(sheet) && !/^[A-Za-z]{1,3}\d+$/.test(sheet);
  const quoted = plain ? sheet : `'${sheet.replaceAll("'", "''")}'`;
  const absolute = address
    .split(':')
    .map((cell) => cell.replace(/^([A-Z]+)(\d+)$/, '$$$1$$$2'))
    .join(':');
  return `=${quoted}!${absolute}`;
}

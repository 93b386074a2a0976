import { createHash, randomBytes } from 'node:crypto';
import type { Operation, Step } from './excel-operations.ts';

/*
 * Where an append lands when a person inserts rows above while Graph holds it: at the end of the
 * rows, as Excel moves it. Graph has no conditional write, but Excel moves a defined name with the
 * cells it refers to. Before the push's session read (which then shows the names right below the
 * rows it was planned on), two names of the workbook (the scope at which Graph documents range
 * work through a name) are added over the sheet's columns of the worksheet, for an append of k
 * rows below the last row N:
 *
 * - `end`, rows N+1..N+k: the append's cells are inserted where it is then (shifting down
 *   whatever lies there), wherever a person's insert above moved it;
 * - `span`, rows N..N+1: the insert falls strictly inside it, so it grows to rows N..N+k+1
 *   around the inserted cells, and a PATCH of its k+2 rows (the first and last `null`, which
 *   leaves cells as they are) fills them.
 *
 * Both are deleted in the same `$batch`. A name reads
 * `Sheetport_<worksheet>_<deadline>_<push>_<attempt>_end`: unique in the workbook, and telling
 * whose it is without a lookup (see `namesToDrop`). A push that adds them again (after a
 * failure) takes new ones under the same prefix.
 */

/** Every name Sheetport adds starts with this: recognisable in the Name Manager. */
export const anchorPrefix = 'Sheetport_';

export const anchorComment =
  'Added by Sheetport for an append in progress and deleted with it; safe to delete if it stays.';

/** The names of one attempt to anchor an append: new ones each time, under the push's prefix. */
export function anchorNames(prefix: string): { end: string; span: string } {
  const attempt = randomBytes(3).toString('hex');
  return { end: `${prefix}_${attempt}_end`, span: `${prefix}_${attempt}_span` };
}

/** Eight hex digits of the worksheet's id: the workbook's names tell which worksheet they serve. */
export const worksheetMarker = (worksheetId: string): string =>
  createHash('sha256').update(worksheetId).digest('hex').slice(0, 8);

/**
 * The prefix of one push's names: its worksheet, its deadline (milliseconds, base 36), which
 * says when the names can no longer be in use, and a random part of its own.
 */
export function pushPrefix(worksheetId: string, deadline: number): string {
  const push = randomBytes(8).toString('hex');
  return `${anchorPrefix}${worksheetMarker(worksheetId)}_${Math.max(0, Math.floor(deadline)).toString(36)}_${push}`;
}

const generated =
  /^Sheetport_([0-9a-f]{8})_([0-9a-z]{1,12})_[0-9a-f]{16}_[0-9a-f]{6}_(?:end|span)$/;

/**
 * Of the workbook's names, those Sheetport left on the worksheet that may be deleted now by the
 * push whose names start with `prefix`: of the exact form Sheetport generates, carrying its
 * comment, of the same worksheet, not the push's own, and of a push whose deadline passed more
 * than `settledMs` ago (its sessions are gone, nothing of it can land). A person's name is never
 * one, nor a name of a push still at work, on this or another server, for this or another
 * Sheetport sheet over the same worksheet. `kept`: names of Sheetport on the worksheet that
 * stay for now (a later push deletes them).
 */
export function namesToDrop(
  listed: { name?: unknown; comment?: unknown }[],
  prefix: string,
  now: number,
  settledMs: number,
): { drop: string[]; kept: number } {
  const marker = prefix.slice(anchorPrefix.length).split('_')[0];
  const drop: string[] = [];
  let kept = 0;
  for (const { name, comment } of listed) {
    const match = typeof name === 'string' ? generated.exec(name) : null;
    if (match === null || comment !== anchorComment || match[1] !== marker) continue;
    if ((name as string).startsWith(`${prefix}_`)) continue;
    const deadline = parseInt(match[2] ?? '', 36);
    if (deadline + settledMs < now) drop.push(name as string);
    else kept++;
  }
  return { drop, kept };
}

/**
 * Gives the push's first append its anchor, names under `prefix` (see `pushPrefix`), when no
 * operation before it moves rows (only updates, which leave the names where they are): an
 * append after a delete or another append would need names where no row is yet, and keeps its
 * absolute address (its cells inserted below the last row as planned). Answers the anchored
 * operation's index, or -1.
 */
export function anchorFirstAppend(steps: Step[], prefix: string): number {
  for (const [index, { operation }] of steps.entries()) {
    if (operation.kind !== 'write') return -1;
    if (operation.insert === undefined) continue;
    const first = firstRowOf(operation.insert);
    const columns = columnsOf(operation.insert);
    operation.anchor = {
      prefix,
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

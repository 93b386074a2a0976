import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { Selection, WriteOp } from '../query/plan.ts';
import type { RowEffect, WriteEffect, WriteOutcome } from '../model/write-effect.ts';
import type { DbWork } from './db-work.ts';
import { keyOfRid } from '../query/row-key.ts';

/**
 * The rows a write is planned against: the stored sheet inside a write transaction, or a copy in
 * memory that a provider's writes are planned on before they go upstream. Each effect applied is
 * seen by the selections that follow, so the writes of one commit see each other in order.
 */
export interface RowSource {
  readonly name: string;
  readonly rowCount: number;
  /**
   * Whether a row with every cell empty may stand among the others. A spreadsheet drops trailing
   * empty rows and appends after its last row with data, so on a mirrored copy an empty row would
   * shift every position after it; rows that live only here keep them.
   */
  readonly keepsEmptyRows: boolean;
  /** The positions a selection chooses, ascending; filters are already checked against columns. */
  select(selection: Selection): DbWork<number[]>;
  /** The rows at these positions, in the order given. */
  rowsAt(positions: number[]): DbWork<Cell[][]>;
  /** The ids (keys) of the rows at these positions, in the order given. */
  ridsAt(positions: number[]): DbWork<number[]>;
  /** Ids for `count` rows about to be appended: never given to a row of this sheet before. */
  nextRids(count: number): number[];
  /** The ETags of the rows with these ids as they stand now, by id; a row gone has none. */
  rowEtags(rids: number[]): DbWork<Map<number, string>>;
  apply(effect: RowEffect): DbWork<void>;
}

/** A row's ETag as an `If-Match` names it: the write applies only if the row is still so. */
export interface RowTag {
  rid: number;
  etag: string;
}

/** One write as planned against the rows: what it answers, and the effects it applied. */
export interface WritePlan {
  outcome: WriteOutcome;
  effects: WriteEffect[];
}

/** Plans one write against the rows as they stand, and applies its effects to them. */
export function* planWrite(source: RowSource, op: WriteOp): DbWork<WritePlan> {
  // Checked before any effect is applied: a write is refused whole or applied whole.
  yield* checkNamedKeys(source, op);
  if (op.kind === 'append') {
    if (!source.keepsEmptyRows) refuseEmptyRows(source.name, op.rows);
    // The keys are chosen here, so the answer can name the rows in body order.
    const rids = source.nextRids(op.rows.length);
    const effect: WriteEffect = { kind: 'append', rows: op.rows, rids };
    yield* source.apply(effect);
    return { outcome: { created: op.rows.length, keys: rids.map(keyOfRid) }, effects: [effect] };
  }
  if (op.kind === 'upsert') {
    // An upsert never leaves an empty row: its key cell is never empty, and a row it changes
    // matched that key, so it keeps it.
    // Body rows in order: a later one sees what an earlier one created or changed.
    const outcome = { created: 0, updated: 0, keys: [] as string[] };
    const effects: WriteEffect[] = [];
    for (const row of op.rows) {
      const positions = yield* source.select({ filters: [row.key], any: [] });
      if (positions.length === 0) {
        const rids = source.nextRids(1);
        const effect: WriteEffect = { kind: 'append', rows: [row.full], rids };
        yield* source.apply(effect);
        effects.push(effect);
        outcome.created++;
        outcome.keys.push(...rids.map(keyOfRid));
      } else {
        // The key of the first row it matched, in sheet order, as the body row's answer.
        const [first] = yield* source.ridsAt(positions.slice(0, 1));
        effects.push(...(yield* update(source, positions, row.cells)));
        outcome.updated += positions.length;
        outcome.keys.push(keyOfRid(first as number));
      }
    }
    return { outcome, effects };
  }
  const positions = yield* source.select(op.selection);
  if (op.kind === 'delete') {
    if (positions.length === 0) return { outcome: { deleted: 0 }, effects: [] };
    const effect: WriteEffect = {
      kind: 'delete',
      positions,
      before: yield* source.rowsAt(positions),
    };
    yield* source.apply(effect);
    return { outcome: { deleted: positions.length }, effects: [effect] };
  }
  const cells =
    op.kind === 'replace' ? new Map(op.cells.map((cell, index) => [index, cell])) : op.cells;
  return {
    outcome: { updated: positions.length },
    effects: yield* update(source, positions, cells),
  };
}

/**
 * A `_key` in a write body is taken as a check: it must name the row written (every row the
 * write chooses; for an upsert's body row, the rows it updates), or the write is refused.
 */
function* checkNamedKeys(source: RowSource, op: WriteOp): DbWork<void> {
  if (op.kind === 'replace' || op.kind === 'patch') {
    if (op.named === undefined) return;
    const rids = yield* source.ridsAt(yield* source.select(op.selection));
    if (rids.every((rid) => keyOfRid(rid) === op.named)) return;
    throw namedOther(op.named, 'the row this write chooses');
  }
  if (op.kind !== 'upsert') return;
  for (const [i, row] of op.rows.entries()) {
    if (row.named === undefined) continue;
    const positions = yield* source.select({ filters: [row.key], any: [] });
    const rids = yield* source.ridsAt(positions);
    if (positions.length > 0 && rids.every((rid) => keyOfRid(rid) === row.named)) continue;
    const where = op.rows.length > 1 ? ` (row ${i} of the body)` : '';
    throw namedOther(row.named, `the row the upsert's value matches${where}`);
  }
}

function namedOther(named: string, what: string): Problem {
  return new Problem(
    'invalid-body',
    `The body gives "_key" "${named}", which is not the key of ${what}; a body's "_key" may only repeat the key of the row it writes, and may be left out. Nothing was written.`,
    { key: named },
  );
}

/** Sets `cells` in the rows at `positions`; an empty change changes nothing. */
function* update(
  source: RowSource,
  positions: number[],
  cells: Map<number, Cell>,
): DbWork<WriteEffect[]> {
  if (positions.length === 0 || cells.size === 0) return [];
  const before = yield* source.rowsAt(positions);
  const after = before.map((row) =>
    row.map((cell, index) => (cells.has(index) ? (cells.get(index) ?? null) : cell)),
  );
  if (!source.keepsEmptyRows) refuseEmptyRows(source.name, after);
  const effect: WriteEffect = { kind: 'update', positions, cells, before, after };
  yield* source.apply(effect);
  return [effect];
}

/** Refuses, before anything is applied, a write that would leave a row with every cell empty. */
function refuseEmptyRows(name: string, rows: Cell[][]): void {
  if (rows.every((row) => row.some((cell) => cell !== null))) return;
  throw new Problem(
    'empty-row',
    `Sheet "${name}" mirrors a spreadsheet, which does not keep rows with every cell empty: such a row would vanish there and move the rows after it. Nothing was written; give the row at least one value, or DELETE it.`,
  );
}

/**
 * `If-Match`: a write based on a read of an older version may find other rows at its positions,
 * so it is refused whole; null when the version is the one asked for, or none was.
 */
export function versionMismatch(
  name: string,
  ifMatch: number[] | null,
  version: number,
): Problem | null {
  if (ifMatch === null || ifMatch.includes(version)) return null;
  return new Problem(
    'precondition-failed',
    `Sheet "${name}" has changed since the read this write was based on (it is at version ${version}, and If-Match named another), so positions may no longer point at the same rows. Nothing was written: read the rows again and resend.`,
    { version },
    { etag: `W/"${version}"` },
  );
}

/**
 * `If-Match` with sheet versions and row ETags: the write applies when the sheet is at one of
 * the versions, or when every row named by its ETag is as it was (other rows may have changed).
 * Null when it may apply, else the 412 that refuses it whole.
 */
export function* preconditionFailed(
  source: RowSource,
  version: number,
  ifMatch: number[] | null,
  rowTags: RowTag[] = [],
): DbWork<Problem | null> {
  if (ifMatch === null && rowTags.length === 0) return null;
  if (ifMatch?.includes(version) === true) return null;
  if (rowTags.length === 0) return versionMismatch(source.name, ifMatch, version);
  const current = yield* source.rowEtags([...new Set(rowTags.map((tag) => tag.rid))]);
  const changed = rowTags.filter((tag) => current.get(tag.rid) !== tag.etag);
  if (changed.length === 0) return null;
  const keys = [...new Set(changed.map((tag) => keyOfRid(tag.rid)))];
  return new Problem(
    'precondition-failed',
    `The row${keys.length === 1 ? '' : 's'} with key ${keys.map((key) => `"${key}"`).join(', ')} in sheet "${source.name}" changed (or went) since the read this write was based on (If-Match named ${keys.length === 1 ? 'its' : 'their'} ETag). Nothing was written: read the row again and resend.`,
    { keys, version },
    { etag: `W/"${version}"` },
  );
}

/** Checks `_id` positions against the sheet: one past the last row is a 404, and nothing runs. */
export function checkPositions(name: string, rowCount: number, ids: number[]): number[] {
  const missing = ids.filter((id) => id >= rowCount);
  if (missing.length > 0) {
    throw new Problem(
      'row-not-found',
      `No row at _id ${missing.join(', ')}: sheet "${name}" has ${rowCount} rows, numbered 0 to ${rowCount - 1}.`,
      { ids: missing },
    );
  }
  return [...ids].sort((a, b) => a - b);
}

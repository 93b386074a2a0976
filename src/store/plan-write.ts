import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { Selection, WriteOp } from '../query/plan.ts';
import type { WriteOutcome } from '../model/write-effect.ts';
import type { RowEffect, WriteEffect } from '../model/write-effect.ts';
import type { Work } from './work.ts';

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
  select(selection: Selection): Work<number[]>;
  /** The rows at these positions, in the order given. */
  rowsAt(positions: number[]): Work<Cell[][]>;
  apply(effect: RowEffect): Work<void>;
}

export interface PlannedWrite {
  outcome: WriteOutcome;
  effects: WriteEffect[];
}

/** Plans one write against the rows as they stand, and applies its effects to them. */
export function* planWrite(source: RowSource, op: WriteOp): Work<PlannedWrite> {
  if (op.kind === 'append') {
    if (!source.keepsEmptyRows) refuseEmptyRows(source.name, op.rows);
    const effect: WriteEffect = { kind: 'append', rows: op.rows };
    yield* source.apply(effect);
    return { outcome: { created: op.rows.length }, effects: [effect] };
  }
  if (op.kind === 'upsert') {
    // An upsert never leaves an empty row: its key cell is never empty, and a row it changes
    // matched that key, so it keeps it.
    // Body rows in order: a later one sees what an earlier one created or changed.
    const outcome = { created: 0, updated: 0 };
    const effects: WriteEffect[] = [];
    for (const row of op.rows) {
      const positions = yield* source.select({ filters: [row.key], any: [] });
      if (positions.length === 0) {
        const effect: WriteEffect = { kind: 'append', rows: [row.full] };
        yield* source.apply(effect);
        effects.push(effect);
        outcome.created++;
      } else {
        effects.push(...(yield* update(source, positions, row.cells)));
        outcome.updated += positions.length;
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

/** Sets `cells` in the rows at `positions`; an empty change changes nothing. */
function* update(
  source: RowSource,
  positions: number[],
  cells: Map<number, Cell>,
): Work<WriteEffect[]> {
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

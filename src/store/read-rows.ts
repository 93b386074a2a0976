import type { Cell } from '../cells/cell.ts';
import { matchesSelection } from '../query/match-filter.ts';
import { sortPositions } from '../query/sort-rows.ts';
import type { ReadPlan } from '../query/plan.ts';
import type { Dialect, SheetRecord } from './dialect.ts';
import { checkPositions } from './plan-write.ts';
import { RowCodec, withPosition, type StoredRow } from './row-json.ts';
import type { Work } from './work.ts';

/**
 * The rows a read answers, before they are put into words: a range of positions when the sheet
 * is read in order without filters (the common case, answered from stored JSON in one
 * statement), or a list of positions in answer order, with the rows already read to find them.
 */
export type Chosen =
  | { kind: 'range'; from: number; to: number; total: number }
  | { kind: 'list'; positions: number[]; total: number; loaded: Map<number, StoredRow> | null };

/** Chooses the rows a read plan asks for: filters, `_id`s, sort, then the page. */
export function* chooseRows(dialect: Dialect, sheet: SheetRecord, plan: ReadPlan): Work<Chosen> {
  const { selection } = plan;
  let positions: number[];
  let loaded: Map<number, StoredRow> | null = null;
  if ('ids' in selection) {
    positions = checkPositions(sheet.name, sheet.rowCount, selection.ids);
  } else if (selection.filters.length === 0 && selection.any.length === 0) {
    if (plan.sort.length === 0) return pageOfRange(sheet.rowCount, plan);
    positions = Array.from({ length: sheet.rowCount }, (_, i) => i);
  } else if (sheet.indexed) {
    positions = yield* dialect.matchingPositions(sheet.key, selection);
  } else {
    // A small sheet is read whole and filtered here: cheaper than an index it would not need.
    const codec = new RowCodec(sheet.columns);
    const rows = yield* dialect.rowsBetween(sheet.key, 0, sheet.rowCount);
    loaded = new Map();
    positions = [];
    for (const row of rows) {
      if (!matchesSelection(selection, codec.decode(row))) continue;
      positions.push(row.pos);
      loaded.set(row.pos, row);
    }
  }
  if (plan.sort.length > 0) {
    loaded = yield* loadRows(dialect, sheet, positions, loaded);
    const codec = new RowCodec(sheet.columns);
    const rows = positions.map((pos) => codec.decode(loaded?.get(pos) as StoredRow));
    const order = sortPositions(rows, plan.sort);
    positions = order.map((i) => positions[i] as number);
  }
  const end = plan.limit === null ? undefined : plan.offset + plan.limit;
  return {
    kind: 'list',
    positions: positions.slice(plan.offset, end),
    total: positions.length,
    loaded,
  };
}

function pageOfRange(rowCount: number, plan: ReadPlan): Chosen {
  const from = Math.min(plan.offset, rowCount);
  const to = plan.limit === null ? rowCount : Math.min(rowCount, from + plan.limit);
  return { kind: 'range', from, to, total: rowCount };
}

/** The stored rows at these positions, reading only those not read already. */
export function* loadRows(
  dialect: Dialect,
  sheet: SheetRecord,
  positions: number[],
  loaded: Map<number, StoredRow> | null,
): Work<Map<number, StoredRow>> {
  const rows = loaded ?? new Map<number, StoredRow>();
  const missing = positions.filter((pos) => !rows.has(pos));
  if (missing.length === 0) return rows;
  const read =
    missing.length === sheet.rowCount
      ? yield* dialect.rowsBetween(sheet.key, 0, sheet.rowCount)
      : yield* dialect.rowsAt(sheet.key, missing);
  for (const row of read) rows.set(row.pos, row);
  return rows;
}

/** How many rows a chosen set holds. */
export function countOf(chosen: Chosen): number {
  return chosen.kind === 'range' ? chosen.to - chosen.from : chosen.positions.length;
}

/** The rows of one chunk of a chosen set as JSON joined by commas, from the stored text. */
export function* jsonOf(
  dialect: Dialect,
  sheet: SheetRecord,
  chosen: Chosen,
  withIds: boolean,
  fields: number[] | null,
): Work<Buffer> {
  if (fields === null) {
    if (chosen.kind === 'range') {
      return yield* dialect.jsonBetween(sheet.key, chosen.from, chosen.to, withIds);
    }
    if (chosen.loaded === null && isAscending(chosen.positions)) {
      return yield* dialect.jsonAt(sheet.key, chosen.positions, withIds);
    }
  }
  const rows = yield* storedOf(dialect, sheet, chosen);
  const codec = fields === null ? null : new FieldCodec(sheet.columns, fields);
  const parts = rows.map((row) => {
    const json = codec === null ? row.json : codec.json(row);
    return withIds ? withPosition(json, row.pos) : json;
  });
  return Buffer.from(parts.join(','));
}

/** The rows of a chosen set as cells, in answer order, with their positions. */
export function* cellsOf(
  dialect: Dialect,
  sheet: SheetRecord,
  chosen: Chosen,
): Work<{ positions: number[]; rows: Cell[][] }> {
  const rows = yield* storedOf(dialect, sheet, chosen);
  const codec = new RowCodec(sheet.columns);
  return { positions: rows.map((row) => row.pos), rows: rows.map((row) => codec.decode(row)) };
}

function* storedOf(dialect: Dialect, sheet: SheetRecord, chosen: Chosen): Work<StoredRow[]> {
  if (chosen.kind === 'range') return yield* dialect.rowsBetween(sheet.key, chosen.from, chosen.to);
  const rows = yield* loadRows(dialect, sheet, chosen.positions, chosen.loaded);
  return chosen.positions.map((pos) => rows.get(pos) as StoredRow);
}

function isAscending(positions: number[]): boolean {
  return positions.every((pos, i) => i === 0 || pos > (positions[i - 1] as number));
}

/** Rows narrowed to some of their columns, in the order asked (`_fields`). */
class FieldCodec {
  readonly #full: RowCodec;
  readonly #keys: string[];

  constructor(
    columns: string[],
    private readonly fields: number[],
  ) {
    this.#full = new RowCodec(columns);
    this.#keys = fields.map(
      (index, i) => `${i === 0 ? '{' : ','}${JSON.stringify(columns[index])}:`,
    );
  }

  json(row: StoredRow): string {
    if (this.fields.length === 0) return '{}';
    const cells = this.#full.decode(row);
    return `${this.fields.map((index, i) => (this.#keys[i] as string) + JSON.stringify(cells[index] ?? null)).join('')}}`;
  }
}

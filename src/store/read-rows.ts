import type { Cell } from '../cells/cell.ts';
import { matchesSelection } from '../query/match-filter.ts';
import { sortPositions } from '../query/sort-rows.ts';
import { isFiltered, type Filtering, type ReadPlan } from '../query/plan.ts';
import { indexHolds } from './cell-index.ts';
import type { Dialect } from './dialect.ts';
import type { SheetRecord } from './store-records.ts';
import { checkPositions } from './plan-write.ts';
import { RowCodec, withPosition, type StoredRow } from './row-json.ts';
import type { DbWork } from './db-work.ts';
import { keysNotFound, ridOfKey, withKey } from '../query/row-key.ts';

/**
 * The rows a read answers, before they are put into words: a range of positions when the sheet
 * is read in order without filters (the common case, answered from stored JSON in one
 * statement), or a list of positions in answer order, with the rows already read to find them.
 */
export type RowsToAnswer =
  | { kind: 'range'; from: number; to: number; total: number }
  | { kind: 'list'; positions: number[]; total: number; loaded: Map<number, StoredRow> | null }
  /** All the rows an indexed sheet's filters match, in sheet order: found and joined at once. */
  | { kind: 'matching'; selection: Filtering };

/** A piece of an answer, and how many rows matched before paging. */
export interface AnswerPiece<T> {
  value: T;
  total: number;
}

/** Chooses the rows a read plan asks for: filters, `_id`s, sort, then the page. */
export function* chooseRows(
  dialect: Dialect,
  sheet: SheetRecord,
  plan: ReadPlan,
): DbWork<RowsToAnswer> {
  const { selection } = plan;
  let positions: number[];
  let loaded: Map<number, StoredRow> | null = null;
  if ('ids' in selection) {
    positions = checkPositions(sheet.name, sheet.rowCount, selection.ids);
  } else if ('keys' in selection) {
    // Rows chosen by key answer in sheet order, as rows chosen by `_id` do.
    const rids = selection.keys.map(ridOfKey);
    const known = rids.filter((rid): rid is number => rid !== null);
    const rows = known.length === 0 ? [] : yield* dialect.rows.rowsByRid(sheet.key, known);
    const found = new Set(rows.map((row) => row.rid));
    const missing = selection.keys.filter((_, i) => !found.has(rids[i] ?? -1));
    if (missing.length > 0) throw keysNotFound(sheet.name, missing);
    loaded = new Map(rows.map((row) => [row.pos, row]));
    positions = rows.map((row) => row.pos);
  } else if (!isFiltered(selection)) {
    if (plan.sort.length === 0) return pageOfRange(sheet.rowCount, plan);
    positions = Array.from({ length: sheet.rowCount }, (_, i) => i);
  } else if (sheet.indexed && indexHolds(sheet.indexedColumns, selection)) {
    if (plan.sort.length === 0 && plan.limit === null && plan.offset === 0) {
      return { kind: 'matching', selection };
    }
    positions = yield* dialect.rows.matchingPositions(sheet.key, selection);
  } else {
    // A small sheet is read whole and filtered here: cheaper than an index it would not need. So
    // is a large one whose index lacks a column filtered on, which RowStore puts in before it
    // reads, so only a read that began before its sheet's header changed can come here.
    const codec = new RowCodec(sheet.columns);
    const rows = yield* dialect.rows.rowsBetween(sheet.key, 0, sheet.rowCount);
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

/** A position past any row: positions are 32-bit integers in the stores. */
const endOfSheet = 2 ** 31 - 1;

/**
 * The page of a read of every row. Without `_limit` it runs to the end of the sheet as the read
 * finds it, which may have grown since the sheet was looked up.
 */
function pageOfRange(rowCount: number, plan: ReadPlan): RowsToAnswer {
  const from = Math.min(plan.offset, endOfSheet);
  const to = plan.limit === null ? endOfSheet : Math.min(endOfSheet, from + plan.limit);
  return { kind: 'range', from, to, total: rowCount };
}

/** The stored rows at these positions, reading only those not read already. */
export function* loadRows(
  dialect: Dialect,
  sheet: SheetRecord,
  positions: number[],
  loaded: Map<number, StoredRow> | null,
): DbWork<Map<number, StoredRow>> {
  const rows = loaded ?? new Map<number, StoredRow>();
  const missing = positions.filter((pos) => !rows.has(pos));
  if (missing.length === 0) return rows;
  const read =
    missing.length === sheet.rowCount
      ? yield* dialect.rows.rowsBetween(sheet.key, 0, sheet.rowCount)
      : yield* dialect.rows.rowsAt(sheet.key, missing);
  for (const row of read) rows.set(row.pos, row);
  return rows;
}

/**
 * The rows of one chunk of a chosen set as JSON, from the stored text: pieces of rows joined by
 * commas, to be joined by commas in turn.
 */
export function* jsonOf(
  dialect: Dialect,
  sheet: SheetRecord,
  chosen: RowsToAnswer,
  withIds: boolean,
  fields: number[] | null,
  withKeys = false,
): DbWork<AnswerPiece<Buffer[]>> {
  // Keys are put in front of each row here, from the rows read: not by the dialects' fast paths.
  if (fields === null && !withKeys) {
    if (chosen.kind === 'matching') {
      const { count, json } = yield* dialect.rows.jsonMatching(
        sheet.key,
        chosen.selection,
        withIds,
      );
      return { value: [json], total: count };
    }
    if (chosen.kind === 'range') {
      // A large sheet read from its first row to its end comes from its ready blocks.
      const blocks =
        sheet.indexed && chosen.from === 0 && !withIds
          ? yield* dialect.blocks.jsonOfBlocks(sheet.key, chosen.to)
          : null;
      const json = blocks ?? [
        yield* dialect.rows.jsonBetween(
          sheet.key,
          chosen.from,
          chosen.to,
          withIds,
          Math.min(chosen.to, sheet.rowCount) - chosen.from,
        ),
      ];
      return { value: json, total: chosen.total };
    }
    if (chosen.loaded === null && isAscending(chosen.positions)) {
      const json = yield* dialect.rows.jsonAt(sheet.key, chosen.positions, withIds);
      return { value: [json], total: chosen.total };
    }
  }
  const { rows, total } = yield* storedOf(dialect, sheet, chosen);
  const codec = fields === null ? null : new FieldCodec(sheet.columns, fields);
  const parts = rows.map((row) => {
    const json = codec === null ? row.json : codec.json(row);
    if (withKeys) return withKey(json, row.rid, withIds ? row.pos : null);
    return withIds ? withPosition(json, row.pos) : json;
  });
  return { value: [Buffer.from(parts.join(','))], total };
}

/** The rows of a chosen set as cells, in answer order, with their positions. */
export function* cellsOf(
  dialect: Dialect,
  sheet: SheetRecord,
  chosen: RowsToAnswer,
): DbWork<AnswerPiece<{ positions: number[]; rids: number[]; rows: Cell[][] }>> {
  const { rows, total } = yield* storedOf(dialect, sheet, chosen);
  const codec = new RowCodec(sheet.columns);
  return {
    value: {
      positions: rows.map((row) => row.pos),
      rids: rows.map((row) => row.rid),
      rows: rows.map((row) => codec.decode(row)),
    },
    total,
  };
}

function* storedOf(
  dialect: Dialect,
  sheet: SheetRecord,
  chosen: RowsToAnswer,
): DbWork<{ rows: StoredRow[]; total: number }> {
  if (chosen.kind === 'range') {
    return {
      rows: yield* dialect.rows.rowsBetween(sheet.key, chosen.from, chosen.to),
      total: chosen.total,
    };
  }
  const positions =
    chosen.kind === 'matching'
      ? yield* dialect.rows.matchingPositions(sheet.key, chosen.selection)
      : chosen.positions;
  const rows = yield* loadRows(
    dialect,
    sheet,
    positions,
    chosen.kind === 'list' ? chosen.loaded : null,
  );
  return {
    rows: positions.map((pos) => rows.get(pos) as StoredRow),
    total: chosen.kind === 'list' ? chosen.total : positions.length,
  };
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

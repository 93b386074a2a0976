import { cellAsText, cellText, isStorableText, type Cell } from '../cells/cell.ts';
import { excerpt } from '../errors/excerpt.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheet, SheetSettings } from '../model/sheet.ts';
import { equalityValue, type Filter, type FilterValue } from './parse-filter.ts';
import { foldCase } from './match-text.ts';
import type { RowQuery } from './parse-row-query.ts';

/** A filter whose column has been found in the sheet: `index` is the column's position. */
export type PlannedFilter = Filter & { index: number };

/**
 * Which rows a request is about: positions before the request, or the rows matching every one of
 * `filters` and at least one filter of each entry of `any` (none of either means all rows).
 */
export type Selection = { ids: number[] } | { keys: string[] } | Filtering;

/** A selection by filters, `_or` and `_q`: none of them means every row. */
export interface Filtering {
  filters: PlannedFilter[];
  any: PlannedFilter[][];
  search?: Search;
}

/**
 * `_q`: rows where some cell's text, case folded, contains `folded`. It reads every column,
 * listed so that a store can index them as it does filtered columns; never the column names.
 */
export interface Search {
  folded: string;
  columns: number[];
}

/** Whether a selection chooses rows by anything: `_id`s, a filter, an `_or` or a `_q`. */
export function isFiltered(selection: Selection): boolean {
  return (
    'ids' in selection ||
    'keys' in selection ||
    selection.filters.length > 0 ||
    selection.any.length > 0 ||
    selection.search !== undefined
  );
}

export interface ReadPlan {
  selection: Selection;
  sort: { index: number; descending: boolean }[];
  limit: number | null;
  offset: number;
  withIds: boolean;
  /** `_with_key=true`: each row starts with its key (after `_id`, when asked too). */
  withKeys: boolean;
  /** The columns each row carries, by index, in the order asked; null for all, in sheet order. */
  fields: number[] | null;
}

/** Whether a plan reads rows in sheet order, unfiltered: all of them, or a page. */
export function inSheetOrder({ selection, sort }: ReadPlan): boolean {
  return !isFiltered(selection) && sort.length === 0;
}

/** Whether a plan reads every row of the sheet, whole, as the store keeps it. */
export function readsWholeSheet(plan: ReadPlan): boolean {
  return (
    inSheetOrder(plan) &&
    plan.limit === null &&
    plan.offset === 0 &&
    !plan.withIds &&
    !plan.withKeys &&
    plan.fields === null
  );
}

/** One change to a sheet, checked against its columns and ready for a store to apply. */
export type WriteOp =
  | { kind: 'append'; rows: Cell[][] }
  | { kind: 'replace'; selection: Selection; cells: Cell[]; named?: string }
  | { kind: 'patch'; selection: Selection; cells: Map<number, Cell>; named?: string }
  | { kind: 'delete'; selection: Selection }
  | { kind: 'upsert'; rows: UpsertRow[] };

/** A body row of an upsert: the rows it updates are those its key filter chooses. */
export interface UpsertRow {
  key: PlannedFilter;
  /** The columns it sets, as a PATCH does. */
  cells: Map<number, Cell>;
  /** The row it appends when no row matches. */
  full: Cell[];
  /** The `_key` the body row gave: it must name the row it updates. */
  named?: string;
}

/**
 * What planning needs of a sheet: its name (for messages), its columns, and which of them are
 * text columns (see `text-columns.ts`).
 */
export type SheetShape = Pick<Sheet, 'name' | 'columns'> & {
  settings?: Pick<SheetSettings, 'textColumns'>;
};

/** Whether a column keeps every cell as text. */
function isTextColumn(sheet: SheetShape, column: string): boolean {
  return sheet.settings?.textColumns?.includes(column) === true;
}

/**
 * A filter on a text column compares text with text: `sku=1001` and `sku__gt(0500)` read their
 * values as written, never as numbers, as the column's cells are.
 */
function asTextFilter(filter: Filter): Filter {
  const text = (value: FilterValue): FilterValue => ({ text: value.text, number: null });
  if ('values' in filter) return { ...filter, values: filter.values.map(text) };
  if ('value' in filter) return { ...filter, value: text(filter.value) };
  return filter;
}

export function columnIndex(sheet: SheetShape, column: string): number {
  const index = sheet.columns.indexOf(column);
  if (index < 0) {
    throw new Problem(
      'unknown-column',
      `Column "${excerpt(column)}" does not exist in sheet "${sheet.name}"; its columns are ${sheet.columns
        .map((name) => `"${name}"`)
        .join(', ')}.`,
      { column: excerpt(column) },
    );
  }
  return index;
}

export function planSelection(sheet: SheetShape, query: RowQuery): Selection {
  if (query.ids !== null) return { ids: query.ids };
  if (query.keys !== null) return { keys: query.keys };
  const plan = (filter: Filter): PlannedFilter => ({
    ...(isTextColumn(sheet, filter.column) ? asTextFilter(filter) : filter),
    index: columnIndex(sheet, filter.column),
  });
  const selection = {
    filters: query.filters.map(plan),
    any: query.any.map((alternatives) => alternatives.map(plan)),
  };
  if (query.search === null) return selection;
  const search = { folded: foldCase(query.search), columns: sheet.columns.map((_, i) => i) };
  return { ...selection, search };
}

export function planRead(sheet: SheetShape, query: RowQuery): ReadPlan {
  if (query.withIds && sheet.columns.includes('_id')) {
    throw new Problem(
      'invalid-parameter',
      `Sheet "${sheet.name}" has a column named "_id", which _with_id=true would shadow; read positions by _sort and _offset instead, or rename the column.`,
      { parameter: '_with_id' },
    );
  }
  if (query.withKeys && sheet.columns.includes('_key')) {
    throw new Problem(
      'invalid-parameter',
      `Sheet "${sheet.name}" has a column named "_key", which _with_key=true would shadow; rename the column in the spreadsheet to read rows with their keys.`,
      { parameter: '_with_key' },
    );
  }
  return {
    selection: planSelection(sheet, query),
    sort: query.sort.map((key) => ({
      index: columnIndex(sheet, key.column),
      descending: key.descending,
    })),
    limit: query.limit,
    offset: query.offset,
    withIds: query.withIds,
    withKeys: query.withKeys,
    fields: query.fields?.map((column) => columnIndex(sheet, column)) ?? null,
  };
}

/** PUT, PATCH and DELETE must name their rows: an empty query never means "every row". */
export function planTargetedSelection(
  sheet: SheetShape,
  query: RowQuery,
  method: string,
): Selection {
  if (
    query.sort.length > 0 ||
    query.limit !== null ||
    query.offset !== 0 ||
    query.withIds ||
    query.withKeys ||
    query.fields !== null
  ) {
    throw new Problem(
      'invalid-parameter',
      `_sort, _limit, _offset, _with_id, _with_key and _fields apply to GET only, not to ${method}.`,
    );
  }
  if (
    query.ids === null &&
    query.keys === null &&
    query.filters.length === 0 &&
    query.any.length === 0 &&
    query.search === null
  ) {
    throw new Problem(
      'selection-required',
      `${method} needs _key=<key>[,<key>...], _id=<n>[,<n>...], a filter, an _or or a _q to choose rows; it never means every row.`,
    );
  }
  return planSelection(sheet, query);
}

/**
 * A body row's `_key`, taken out of it: a client that read rows with their keys may send a row
 * back whole. It must name the row written (checked as the write is planned). A sheet with a
 * column named `_key` has no such member: there `_key` is that column.
 */
export function takeBodyKey(
  sheet: SheetShape,
  body: unknown,
  where = 'The body',
): { body: unknown; named: string | null } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { body, named: null };
  if (!Object.hasOwn(body, '_key') || sheet.columns.includes('_key')) return { body, named: null };
  const { _key: named, ...rest } = body as Record<string, unknown>;
  if (typeof named !== 'string') {
    throw new Problem(
      'invalid-body',
      `${where} gives "_key" a ${named === null ? 'null' : typeof named}; a row's key is text, as "_key" answers it (e.g. "17"), and may be left out. Nothing was written.`,
    );
  }
  return { body: rest, named };
}

/** Checks a JSON row object against the sheet's columns; returns its cells by column position. */
export function planCells(sheet: SheetShape, body: unknown, where = 'The body'): Map<number, Cell> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new Problem(
      'invalid-body',
      `${where} must be a JSON object mapping column names to values, e.g. {"${sheet.columns[0] ?? 'column'}": "value"}.`,
    );
  }
  const cells = new Map<number, Cell>();
  for (const [column, value] of Object.entries(body)) {
    const cell = planCell(column, value, where);
    // A number written to a text column is kept as its decimal text: 1001 is "1001".
    cells.set(columnIndex(sheet, column), isTextColumn(sheet, column) ? cellAsText(cell) : cell);
  }
  return cells;
}

function planCell(column: string, value: unknown, where: string): Cell {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (!isStorableText(value)) {
      throw new Problem(
        'invalid-body',
        `${where} gives column "${excerpt(column)}" text with a NUL character or a lone surrogate, which a sheet cannot hold.`,
        { column: excerpt(column) },
      );
    }
    return value === '' ? null : value;
  }
  throw new Problem(
    'invalid-body',
    `${where} gives column "${excerpt(column)}" a ${Array.isArray(value) ? 'list' : 'nested object'}; a cell holds text, a number, true/false or null.`,
    { column: excerpt(column) },
  );
}

export function fullRow(sheet: SheetShape, cells: Map<number, Cell>): Cell[] {
  return sheet.columns.map((_, index) => cells.get(index) ?? null);
}

/**
 * `POST ?_upsert=<column>`: each body row updates the rows whose `<column>` equals its own value
 * (the equality of `<column>=<value>`, so `*` is literal), or is appended when none does. Every
 * body row must give the column a value.
 */
export function planUpsert(sheet: SheetShape, column: string, body: unknown): WriteOp {
  const key = columnIndex(sheet, column);
  const objects = Array.isArray(body) ? body : [body];
  if (objects.length === 0) {
    throw new Problem('invalid-body', 'The body is an empty array: there is no row to add.');
  }
  const rows = objects.map((given, i): UpsertRow => {
    const where = Array.isArray(body) ? `Row ${i} of the body` : 'The body';
    const { body: object, named } = takeBodyKey(sheet, given, where);
    const cells = planCells(sheet, object, where);
    const value = cells.get(key) ?? null;
    if (value === null) {
      throw new Problem(
        'upsert-key-missing',
        `${where} has no value in "${excerpt(column)}", the column _upsert matches rows by; every row needs one. Nothing was written.`,
        { column, ...(Array.isArray(body) ? { row: i } : {}) },
      );
    }
    const filter: PlannedFilter = {
      column,
      op: 'eq',
      value: equalityValue(cellText(value)),
      index: key,
    };
    return { key: filter, cells, full: fullRow(sheet, cells), ...(named !== null && { named }) };
  });
  return { kind: 'upsert', rows };
}

/** POST takes one row object or a non-empty array of them. */
export function planAppend(sheet: SheetShape, body: unknown): WriteOp {
  const objects = Array.isArray(body) ? body : [body];
  if (objects.length === 0) {
    throw new Problem('invalid-body', 'The body is an empty array: there is no row to add.');
  }
  const rows = objects.map((given, i) => {
    const where = Array.isArray(body) ? `Row ${i} of the body` : 'The body';
    const { body: object, named } = takeBodyKey(sheet, given, where);
    if (named !== null) {
      throw new Problem(
        'invalid-body',
        `${where} gives "_key" "${excerpt(named)}", but a row added by POST gets a new key, which the answer's "keys" names; leave "_key" out (or PUT to /rows/${excerpt(named)} to write that row). Nothing was written.`,
      );
    }
    return fullRow(sheet, planCells(sheet, object, where));
  });
  return { kind: 'append', rows };
}

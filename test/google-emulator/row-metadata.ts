/**
 * Developer metadata on rows follows its row, as the Sheets reference documents: "if developer
 * metadata is associated with row 5 and another row is then subsequently inserted above row 5,
 * that original metadata will still be associated with the row it was first associated with
 * (what is now row 6). If the associated object is deleted its metadata is deleted too." Rows
 * inserted, deleted and moved (by the API or by a person) take their entries along.
 *
 * Two things the reference leaves unsaid are switches (`UndocumentedRules`), so that a test can
 * run both ways: whether a `deleteDeveloperMetadata` whose filter matches nothing fails its
 * batch, and whether a sort moves row metadata with the rows sorted.
 */
import type { MetadataLocation, StoredMetadata } from './developer-metadata.ts';

export interface UndocumentedRules {
  /** A delete whose filter matches no entry refuses the whole batch (default: it does nothing). */
  emptyDeleteFails: boolean;
  /** A sort takes each row's metadata with it (default), or leaves it at the grid row. */
  sortMovesRowMetadata: boolean;
}

export const defaultRules = (): UndocumentedRules => ({
  emptyDeleteFails: false,
  sortMovesRowMetadata: true,
});

/** Moves each entry on a row of the sheet to where `to` sends its row; null: the row is gone. */
export function remapRows(
  entries: StoredMetadata[],
  sheetId: number,
  to: (row: number) => number | null,
): StoredMetadata[] {
  return entries.flatMap((entry) => {
    const location: MetadataLocation = entry.location;
    if (!('sheetId' in location) || location.sheetId !== sheetId || location.row === undefined) {
      return [entry];
    }
    const row = to(location.row);
    return row === null ? [] : [{ ...entry, location: { sheetId, row } }];
  });
}

/** `count` rows inserted at `at`: the rows from there on move down. */
export const afterInsert =
  (at: number, count: number) =>
  (row: number): number =>
    row >= at ? row + count : row;

/** Rows `start` to `end` (exclusive) deleted, with their metadata; the rows below move up. */
export const afterDelete =
  (start: number, end: number) =>
  (row: number): number | null =>
    row < start ? row : row < end ? null : row - (end - start);

/**
 * Rows `start` to `end` (exclusive) moved so that they land before the row that was at
 * `destination` (MoveDimensionRequest's `destinationIndex`, counted before the move).
 */
export function afterMove(start: number, end: number, destination: number) {
  const count = end - start;
  return (row: number): number => {
    if (destination < start) {
      if (row >= start && row < end) return destination + (row - start);
      if (row >= destination && row < start) return row + count;
      return row;
    }
    if (row >= start && row < end) return destination - count + (row - start);
    if (row >= end && row < destination) return row - count;
    return row;
  };
}

/** A permutation's map: the row that was at `order[i]` is now at `first + i`. */
export function afterPermutation(first: number, order: number[]) {
  const moved = new Map(order.map((from, i) => [from, first + i]));
  return (row: number): number => moved.get(row) ?? row;
}

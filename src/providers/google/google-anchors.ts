import type { sheets_v4 } from '@googleapis/sheets';
import type { WriteEffect } from '../../model/write-effect.ts';
import { runs } from './google-requests.ts';

type Request = sheets_v4.Schema$Request;

/**
 * Row anchors: developer metadata on one row each, which Google keeps with its row as rows are
 * inserted, deleted and moved above it (and deletes with the row). A push that chooses rows
 * asserts, in its own batch, that every anchor is still at the row it was planned on: it deletes
 * the anchor by id with an exact-location lookup on that row, then creates it again there under
 * the same id. An anchor moved elsewhere is not deleted, so creating its id again is refused, and
 * the whole batch with it (documented by Google, whatever it does with a delete that matches
 * nothing). A target a person deleted is seen by the anchor on the row after its run, which moved.
 */
export const anchorKey = 'sheetport.row';

/** Characters an anchor holds in the spreadsheet's developer metadata: its key (no value). */
export const anchorChars = anchorKey.length;

/** A tab's anchors as read: anchor id by position (0 is the first row under the header). */
export interface TabAnchors {
  byPosition: Map<number, number>;
  /** The grid's rows, header included: an anchor can sit on any of them. */
  gridRows: number;
}

/** The anchors of a tab, from the rowMetadata of its grid (grid row 0 is the header). */
export function anchorsOfTab(tab: sheets_v4.Schema$Sheet): TabAnchors {
  const byPosition = new Map<number, number>();
  (tab.data?.[0]?.rowMetadata ?? []).forEach((row, r) => {
    for (const entry of row.developerMetadata ?? []) {
      if (entry.metadataKey === anchorKey && typeof entry.metadataId === 'number' && r > 0) {
        byPosition.set(r - 1, entry.metadataId);
      }
    }
  });
  const gridRows = tab.properties?.gridProperties?.rowCount ?? 0;
  return { byPosition, gridRows };
}

/**
 * The positions a push must anchor, as the rows stood before its effects: every row an update
 * or a delete chooses (not rows the push itself appends), and the row after each run of them,
 * when the grid has one (a person deleting a target moves it). Appends choose no row.
 */
export function anchorPositions(
  effects: WriteEffect[],
  rows: number,
  gridRows: number,
  capacity = Infinity,
): number[] {
  // Where each current position came from; -1 for a row appended by an earlier effect.
  const origin = Array.from({ length: rows }, (_, i) => i);
  const targets = new Set<number>();
  /** The first and last row of each run of one effect's targets: they bound the rest. */
  const ends = new Set<number>();
  for (const effect of effects) {
    if (effect.kind === 'append') {
      origin.push(...effect.rows.map(() => -1));
      continue;
    }
    const chosen = effect.positions.map((position) => origin[position] ?? -1);
    for (const from of chosen) if (from >= 0) targets.add(from);
    for (const [first, last] of runs(chosen.filter((from) => from >= 0))) {
      ends.add(first).add(last);
    }
    if (effect.kind === 'delete') {
      for (const position of [...effect.positions].sort((a, b) => b - a)) {
        origin.splice(position, 1);
      }
    }
  }
  const after = runs([...targets])
    .map(([, last]) => last + 1)
    // Grid row last + 2 is the row after: under the header, within the grid.
    .filter((position) => position + 1 < Math.max(gridRows, rows + 1));
  const sorted = (positions: Set<number>) => [...positions].sort((a, b) => a - b);
  const every = sorted(new Set([...targets, ...after]));
  if (every.length <= capacity) return every;
  // Too many for the budget: the ends of each run, which any insert, delete or single move
  // touching the run shifts (only a shuffle inside a run, which one effect treats alike, is not).
  const bounds = sorted(new Set([...ends, ...after]));
  return bounds.length <= capacity ? bounds : [];
}

/**
 * Where the rows a push appends end up, under the header, once all its effects applied to
 * `rows` rows: their anchors go in the same batch, after the effects, so that a later write to
 * them finds them anchored. Where a person's edit since the read puts them elsewhere, the
 * anchors mark other rows, which is as good: a plan trusts an anchor only where a read finds it.
 */
export function appendedPositions(effects: WriteEffect[], rows: number): number[] {
  // After each effect, which rows are the push's own appended ones.
  const appended: boolean[] = Array.from({ length: rows }, () => false);
  for (const effect of effects) {
    if (effect.kind === 'append') appended.push(...effect.rows.map(() => true));
    if (effect.kind !== 'delete') continue;
    for (const position of [...effect.positions].sort((a, b) => b - a)) {
      appended.splice(position, 1);
    }
  }
  return appended.flatMap((own, position) => (own ? [position] : []));
}

const rowRange = (tabId: number, position: number): sheets_v4.Schema$DimensionRange => ({
  sheetId: tabId,
  dimension: 'ROWS',
  startIndex: position + 1,
  endIndex: position + 2,
});

function createAnchor(tabId: number, id: number, position: number): Request {
  return {
    createDeveloperMetadata: {
      developerMetadata: {
        metadataId: id,
        metadataKey: anchorKey,
        location: { dimensionRange: rowRange(tabId, position) },
        visibility: 'DOCUMENT',
      },
    },
  };
}

/** Creates anchors, each on its row: sent before a push whose targets lack one. */
export function anchorCreateRequests(tabId: number, anchors: Map<number, number>): Request[] {
  return [...anchors].map(([position, id]) => createAnchor(tabId, id, position));
}

/**
 * Asserts each anchor is at its position: deleted there by id and exact location, then created
 * there again under its id, which Google refuses (with the whole batch) if it is anywhere else.
 */
export function anchorCheckRequests(tabId: number, anchors: Map<number, number>): Request[] {
  return [...anchors].flatMap(([position, id]) => [
    {
      deleteDeveloperMetadata: {
        dataFilter: {
          developerMetadataLookup: {
            metadataId: id,
            metadataLocation: { dimensionRange: rowRange(tabId, position) },
            locationMatchingStrategy: 'EXACT_LOCATION',
          },
        },
      },
    },
    createAnchor(tabId, id, position),
  ]);
}

/** Removes anchors by id alone (least recently used ones, to keep within the budget). */
export function anchorDeleteRequests(ids: number[]): Request[] {
  return ids.map((metadataId) => ({
    deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataId } } },
  }));
}

/** Whether a read finds every anchor of the plan where the plan expects it. */
export function anchorsInPlace(read: TabAnchors, planned: Map<number, number>): boolean {
  return [...planned].every(([position, id]) => read.byPosition.get(position) === id);
}

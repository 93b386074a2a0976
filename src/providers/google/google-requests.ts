import type { sheets_v4 } from '@googleapis/sheets';
import type { Cell } from '../../cells/cell.ts';
import type { WriteEffect } from '../../model/write-effect.ts';
import type { PushTag } from '../provider.ts';
import { cellToGoogle } from './google-cells.ts';

type Request = sheets_v4.Schema$Request;

/**
 * Turns write effects into the requests of one `spreadsheets.batchUpdate`, which Google applies
 * in order and all or none. Position p is grid row p + 1, under the header row. Consecutive rows
 * and columns are coalesced into ranges, and deletions run bottom-up so that each range still
 * means what it meant before the others.
 */
export function batchRequests(tabId: number, width: number, effects: WriteEffect[]): Request[] {
  return effects.flatMap((effect): Request[] => {
    switch (effect.kind) {
      case 'append':
        return [
          {
            appendCells: {
              sheetId: tabId,
              rows: effect.rows.map((row) => ({
                values: Array.from({ length: width }, (_, i) => cellToGoogle(row[i] ?? null)),
              })),
              fields: 'userEnteredValue',
            },
          },
        ];
      case 'update':
        return runs(effect.positions).flatMap(([first, last]) =>
          columnRuns(effect.cells).map(([start, cells]) => ({
            updateCells: {
              range: {
                sheetId: tabId,
                startRowIndex: first + 1,
                endRowIndex: last + 2,
                startColumnIndex: start,
                endColumnIndex: start + cells.length,
              },
              rows: Array.from({ length: last - first + 1 }, () => ({
                values: cells.map(cellToGoogle),
              })),
              fields: 'userEnteredValue',
            },
          })),
        );
      case 'delete':
        return runs(effect.positions)
          .reverse()
          .map(([first, last]) => ({
            deleteDimension: {
              range: {
                sheetId: tabId,
                dimension: 'ROWS',
                startIndex: first + 1,
                endIndex: last + 2,
              },
            },
          }));
    }
  });
}

/** The key of the developer metadata that records, on the tab, the pushes that landed. */
const pushKey = 'sheetport.push';

/**
 * Requests that create a push's tag, sent inside the same batch as its changes: Google applies
 * the batch all or none, and refuses a second tag of one id (so the whole batch), so the changes
 * land at most once, exactly when the tag does. Tags of older pushes go in the same batch.
 */
export function pushTagRequests(
  tabId: number,
  tag: number,
  value: PushTag,
  prune: number[] = [],
): Request[] {
  return [
    ...prune.map((metadataId) => ({
      deleteDeveloperMetadata: { dataFilter: { developerMetadataLookup: { metadataId } } },
    })),
    {
      createDeveloperMetadata: {
        developerMetadata: {
          metadataId: tag,
          metadataKey: pushKey,
          metadataValue: `${value.plan}@${value.deadline}`,
          location: { sheetId: tabId },
          visibility: 'DOCUMENT',
        },
      },
    },
  ];
}

/** The push tags of a tab, from its developer metadata; tags of an older form have deadline 0. */
export function pushTagsOf(metadata: sheets_v4.Schema$DeveloperMetadata[]): Map<number, PushTag> {
  const tags = new Map<number, PushTag>();
  for (const entry of metadata) {
    if (entry.metadataKey !== pushKey || typeof entry.metadataId !== 'number') continue;
    const value = entry.metadataValue ?? '';
    const at = value.lastIndexOf('@');
    const deadline = at < 0 ? 0 : Number(value.slice(at + 1));
    tags.set(entry.metadataId, {
      plan: at < 0 ? value : value.slice(0, at),
      deadline: Number.isFinite(deadline) ? deadline : 0,
    });
  }
  return tags;
}

/** How long a push's tag is kept after its deadline: attempts still held by Google may land. */
export const tagRetentionMs = 5 * 60_000;

/** A tag's size as the spreadsheet holds it: its key and its value, in characters. */
export function tagChars(value: PushTag): number {
  return pushKey.length + `${value.plan}@${value.deadline}`.length;
}

/**
 * The tags past their retention, never the push's own. None is removed earlier, whatever their
 * number: a tag younger than that may still refuse a late attempt of its push. How many a
 * spreadsheet holds is bounded by its budget instead (see `reservePushTag`).
 */
export function tagsToPrune(
  tags: Map<number, PushTag>,
  own: number,
  now: number,
  retentionMs = tagRetentionMs,
): number[] {
  return [...tags]
    .filter(([id, tag]) => id !== own && tag.deadline < now - retentionMs)
    .map(([id]) => id);
}

/** Sorted positions as runs of consecutive ones: [0,1,2,5] -> [[0,2],[5,5]]. */
export function runs(positions: number[]): [number, number][] {
  const sorted = [...new Set(positions)].sort((a, b) => a - b);
  const result: [number, number][] = [];
  for (const position of sorted) {
    const last = result.at(-1);
    if (last !== undefined && last[1] === position - 1) last[1] = position;
    else result.push([position, position]);
  }
  return result;
}

/** Cells by column as runs of adjacent columns, each with its cells in order. */
function columnRuns(cells: Map<number, Cell>): [number, Cell[]][] {
  return runs([...cells.keys()]).map(([first, last]) => [
    first,
    Array.from({ length: last - first + 1 }, (_, i) => cells.get(first + i) ?? null),
  ]);
}

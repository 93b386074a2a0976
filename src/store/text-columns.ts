import { cellAsText, type Cell } from '../cells/cell.ts';
import type { RowEffect } from '../model/write-effect.ts';
import type { Dialect } from './dialect.ts';
import type { DbWork } from './db-work.ts';
import { rowEvents } from './row-events.ts';
import { saveSheetAndEvents } from './sheet-units.ts';
import type { SheetRecord } from './store-records.ts';
import type { RowEvent } from './store.ts';
import { StoredRows } from './stored-rows.ts';

// Columns declared text: their numbers, true/false and dates become the text they show.

/**
 * Declares columns of a sheet still importing text, and makes their cells the text they show,
 * `chunkRows` rows a transaction: nobody sees the sheet yet, so no event tells of it.
 */
export async function declareText(
  db: Dialect,
  source: StoredRows,
  columns: string[],
  chunkRows: number,
): Promise<void> {
  const record = source.record;
  const declared = record.settings.textColumns ?? [];
  const added = columns.filter((column) => !declared.includes(column));
  if (added.length === 0) return;
  record.settings = { ...record.settings, textColumns: [...declared, ...added] };
  const indexes = added.map((column) => record.columns.indexOf(column));
  for (let start = 0; start < record.rowCount; start += chunkRows) {
    const end = Math.min(start + chunkRows, record.rowCount);
    await db.write(function* () {
      const stored = yield* db.rows.rowsBetween(record.key, start, end);
      const before = stored.map((row) => source.codec.decode(row));
      const after = before.map((cells) =>
        cells.map((cell, i) => (indexes.includes(i) ? cellAsText(cell) : cell)),
      );
      const changed = after.flatMap((row, i) =>
        row.some((cell, j) => cell !== before[i]?.[j]) ? [i] : [],
      );
      if (changed.length === 0) return;
      yield* source.apply({
        kind: 'update',
        positions: changed.map((i) => start + i),
        cells: new Map(),
        before: changed.map((i) => before[i] as Cell[]),
        after: changed.map((i) => after[i] as Cell[]),
      });
      yield* source.settle();
    });
  }
}

/** The indexes of the columns `after` declares text that `before` did not. */
export function addedTextColumns(before: SheetRecord, after: SheetRecord): number[] {
  const was = before.settings.textColumns ?? [];
  return (after.settings.textColumns ?? [])
    .filter((column) => !was.includes(column))
    .map((column) => after.columns.indexOf(column))
    .filter((index) => index >= 0);
}

/**
 * Declaring a column text turns the numbers, true/false and dates stored in it into the text
 * they show, in the same transaction as the setting: a write of the rows changed, with its
 * version and its `rows.updated` event, made by the administrator.
 */
export function* textColumnsConverted(
  db: Dialect,
  sheet: SheetRecord,
  added: number[],
  indexThreshold: number,
): DbWork<SheetRecord> {
  const source = new StoredRows(db, sheet, indexThreshold);
  const current = yield* db.rows.rowsBetween(sheet.key, 0, sheet.rowCount);
  // Each row is rewritten where it is: no row is matched, moved or taken for another.
  const changed: { pos: number; before: Cell[]; after: Cell[] }[] = [];
  for (const row of current) {
    const before = source.codec.decode(row);
    const after = [...before];
    for (const index of added) after[index] = cellAsText(after[index] ?? null);
    const text = source.codec.encode(after);
    if (text.json !== row.json || text.dates !== row.dates) {
      changed.push({ pos: row.pos, before, after });
    }
  }
  const effects: RowEffect[] =
    changed.length === 0
      ? []
      : [
          {
            kind: 'update',
            positions: changed.map((row) => row.pos),
            cells: new Map(),
            before: changed.map((row) => row.before),
            after: changed.map((row) => row.after),
          },
        ];
  for (const effect of effects) yield* source.apply(effect);
  const events: RowEvent[] = [];
  if (effects.length > 0) {
    source.record.version++;
    events.push(...rowEvents(source.record, source.changes, 'api', { type: 'admin' }));
  }
  yield* saveSheetAndEvents(db, source, events, true);
  return source.record;
}

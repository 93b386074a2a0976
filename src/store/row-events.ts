import type { Actor, ChangeSource, RowEvent } from './store.ts';
import type { SheetRecord } from './store-records.ts';
import { newEventId } from './event-id.ts';
import type { RowChange } from './stored-rows.ts';

/**
 * One event per kind of change a write made, with the rows it touched and who made it (a
 * provider's changes are the provider's; an API write's actor comes with its request).
 */
export function rowEvents(
  sheet: SheetRecord,
  changes: RowChange[],
  origin: ChangeSource,
  actor: Actor | undefined = origin === 'provider' ? { type: 'provider' } : undefined,
): RowEvent[] {
  const timestamp = new Date().toISOString();
  const byType = new Map<RowChange['type'], { rows: string[]; previous: string[] }>();
  for (const change of changes) {
    const merged = byType.get(change.type) ?? { rows: [], previous: [] };
    merged.rows.push(...change.rows);
    merged.previous.push(...(change.previous ?? []));
    byType.set(change.type, merged);
  }
  return [...byType].map(([type, { rows, previous }]) => {
    const id = newEventId();
    const data =
      `{"sheetId":${JSON.stringify(sheet.id)},"version":${sheet.version},"source":"${origin}",` +
      (actor === undefined ? '' : `"actor":${JSON.stringify(actor)},`) +
      `"rows":[${rows.join(',')}]` +
      (type === 'rows.updated' ? `,"previous":[${previous.join(',')}]}` : '}');
    const body = `{"id":"${id}","type":"${type}","timestamp":"${timestamp}","data":${data}}`;
    return { id, sheetId: sheet.id, type, body, createdAt: timestamp };
  });
}

/**
 * A re-read's changes in the order its events come: deleted, created, updated, whatever order
 * its effects ran in (rows moved are moved before rows are inserted among them).
 */
export function rereadOrder(changes: RowChange[]): RowChange[] {
  const order: RowChange['type'][] = ['rows.deleted', 'rows.created', 'rows.updated'];
  return [...changes].sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
}

/** A new header, found by a re-read: its own event, before the events of the rows it changed. */
export function columnsEvent(sheet: SheetRecord, previous: string[]): RowEvent {
  const timestamp = new Date().toISOString();
  const id = newEventId();
  const data =
    `{"sheetId":${JSON.stringify(sheet.id)},"version":${sheet.version},"source":"provider",` +
    `"actor":{"type":"provider"},"columns":${JSON.stringify(sheet.columns)},` +
    `"previousColumns":${JSON.stringify(previous)}}`;
  const body = `{"id":"${id}","type":"columns.changed","timestamp":"${timestamp}","data":${data}}`;
  return { id, sheetId: sheet.id, type: 'columns.changed', body, createdAt: timestamp };
}

import type { Actor, ChangeSource, RowEvent } from './store.ts';
import type { SheetRecord } from './store-records.ts';
import { newEventId } from './event-id.ts';
import type { RowChange } from './stored-rows.ts';

/** When events are made: their timestamp, and the time their ids start with, read once. */
export interface EventTime {
  ms: number;
  iso: string;
}

/**
 * The time of the events of one transaction: read from the clock once for all of them, so that
 * an event's id and its timestamp say the same millisecond, and the sheet's `updatedAt` too.
 */
export function eventTime(ms = Date.now()): EventTime {
  return { ms, iso: new Date(ms).toISOString() };
}

/**
 * One event per kind of change a write made, with the rows it touched and who made it (a
 * provider's changes are the provider's; an API write's actor comes with its request).
 */
export function rowEvents(
  sheet: SheetRecord,
  changes: RowChange[],
  origin: ChangeSource,
  actor: Actor | undefined = origin === 'provider' ? { type: 'provider' } : undefined,
  at: EventTime = eventTime(),
): RowEvent[] {
  const [only] = changes;
  // A single-row POST's write makes one change: its event is made without merging.
  if (changes.length === 1 && only !== undefined) {
    return [rowEvent(sheet, only.type, only.rows, only.previous ?? [], origin, actor, at)];
  }
  const byType = new Map<RowChange['type'], { rows: string[]; previous: string[] }>();
  for (const change of changes) {
    const merged = byType.get(change.type) ?? { rows: [], previous: [] };
    merged.rows.push(...change.rows);
    merged.previous.push(...(change.previous ?? []));
    byType.set(change.type, merged);
  }
  return [...byType].map(([type, { rows, previous }]) =>
    rowEvent(sheet, type, rows, previous, origin, actor, at),
  );
}

function rowEvent(
  sheet: SheetRecord,
  type: RowChange['type'],
  rows: string[],
  previous: string[],
  origin: ChangeSource,
  actor: Actor | undefined,
  at: EventTime,
): RowEvent {
  const id = newEventId(at.ms);
  const data =
    `{"sheetId":${JSON.stringify(sheet.id)},"version":${sheet.version},"source":"${origin}",` +
    (actor === undefined ? '' : `"actor":${JSON.stringify(actor)},`) +
    `"rows":[${rows.join(',')}]` +
    (type === 'rows.updated' ? `,"previous":[${previous.join(',')}]}` : '}');
  const body = `{"id":"${id}","type":"${type}","timestamp":"${at.iso}","data":${data}}`;
  return { id, sheetId: sheet.id, type, body, createdAt: at.iso };
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
export function columnsEvent(
  sheet: SheetRecord,
  previous: string[],
  at: EventTime = eventTime(),
): RowEvent {
  const timestamp = at.iso;
  const id = newEventId(at.ms);
  const data =
    `{"sheetId":${JSON.stringify(sheet.id)},"version":${sheet.version},"source":"provider",` +
    `"actor":{"type":"provider"},"columns":${JSON.stringify(sheet.columns)},` +
    `"previousColumns":${JSON.stringify(previous)}}`;
  const body = `{"id":"${id}","type":"columns.changed","timestamp":"${timestamp}","data":${data}}`;
  return { id, sheetId: sheet.id, type: 'columns.changed', body, createdAt: timestamp };
}

/**
 * Graph paths, as the emulator understands them, parsed from the raw (percent-encoded) path after
 * `/v1.0/`: drive items, sharing links, workbook sessions, worksheets and ranges, and `$batch`.
 */
export interface SheetRef {
  /** `worksheets('Name')` names the sheet; `worksheets/{x}` is its id or its name. */
  quoted: boolean;
  text: string;
}

export interface ItemRoute {
  driveId: string;
  itemId: string;
}

export type RangeAction = 'insert' | 'delete' | 'clear';

export type GraphRoute =
  | { op: 'batch' }
  | { op: 'me' }
  | { op: 'share'; shareId: string }
  | (ItemRoute &
      (
        | { op: 'driveItem' }
        | { op: 'createSession' }
        | { op: 'closeSession' }
        | { op: 'refreshSession' }
        | { op: 'worksheets' }
        | { op: 'worksheet'; sheet: SheetRef }
        | { op: 'usedRange'; sheet: SheetRef; valuesOnly: boolean }
        | { op: 'range'; sheet: SheetRef; address: string }
        | { op: 'rangeAction'; sheet: SheetRef; address: string; action: RangeAction }
        | NameRoute
      ));

/** The defined names of the workbook (Graph documents range work through names at that scope). */
export type NameRoute =
  | { op: 'names' }
  | { op: 'nameAdd' }
  | { op: 'name'; name: string }
  | { op: 'nameRange'; name: string }
  | { op: 'nameRangeAction'; name: string; action: RangeAction };

export type Operation = GraphRoute['op'];

const QUOTED_SHEET = /^worksheets\('((?:[^']|'')*)'\)$/;
const USED_RANGE = /^usedRange(?:\(valuesOnly=(true|false)\))?$/;
const RANGE = /^range\(address='((?:[^']|'')*)'\)$/;

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route of a path relative to the Graph root (`drives/…`), or undefined when not served. */
export function parseRoute(path: string): GraphRoute | undefined {
  const segments = path.replace(/^\/+/, '').replace(/\/+$/, '').split('/').map(decode);
  if (segments.some((each) => each === undefined)) return undefined;
  const parts = segments as string[];
  if (parts.length === 1 && parts[0] === '$batch') return { op: 'batch' };
  if (parts.length === 1 && parts[0] === 'me') return { op: 'me' };
  if (parts[0] === 'shares' && parts.length === 3 && parts[2] === 'driveItem' && parts[1]) {
    return { op: 'share', shareId: parts[1] };
  }
  const [drives, driveId, items, itemId, workbook, ...rest] = parts;
  if (drives !== 'drives' || items !== 'items' || !driveId || !itemId) return undefined;
  const item = { driveId, itemId };
  if (workbook === undefined) return { op: 'driveItem', ...item };
  if (workbook !== 'workbook') return undefined;
  return workbookRoute(item, rest);
}

function workbookRoute(item: ItemRoute, rest: string[]): GraphRoute | undefined {
  const [first, ...tail] = rest;
  if (
    tail.length === 0 &&
    (first === 'createSession' || first === 'closeSession' || first === 'refreshSession')
  ) {
    return { op: first, ...item };
  }
  if (first === 'worksheets' && tail.length === 0) return { op: 'worksheets', ...item };
  if (first === 'names') {
    const named = nameRoute(tail);
    return named === undefined ? undefined : { ...named, ...item };
  }
  let sheet: SheetRef;
  let after: string[];
  const quoted = first === undefined ? null : QUOTED_SHEET.exec(first);
  if (quoted) {
    sheet = { quoted: true, text: (quoted[1] ?? '').replaceAll("''", "'") };
    after = tail;
  } else if (first === 'worksheets' && tail[0] !== undefined) {
    sheet = { quoted: false, text: tail[0] };
    after = tail.slice(1);
  } else {
    return undefined;
  }
  return sheetRoute(item, sheet, after);
}

function sheetRoute(item: ItemRoute, sheet: SheetRef, after: string[]): GraphRoute | undefined {
  const [first, action, ...extra] = after;
  if (first === undefined) return { op: 'worksheet', ...item, sheet };
  if (extra.length > 0) return undefined;
  const used = USED_RANGE.exec(first);
  if (used && action === undefined) {
    return { op: 'usedRange', ...item, sheet, valuesOnly: used[1] === 'true' };
  }
  const range = RANGE.exec(first);
  if (!range) return undefined;
  const address = (range[1] ?? '').replaceAll("''", "'");
  if (action === undefined) return { op: 'range', ...item, sheet, address };
  if (action === 'insert' || action === 'delete' || action === 'clear') {
    return { op: 'rangeAction', ...item, sheet, address, action };
  }
  return undefined;
}

/** `names`, `names/add`, `names/{name}`, `names/{name}/range`, `names/{name}/range/insert`. */
function nameRoute(after: string[]): NameRoute | undefined {
  const [name, range, action, ...extra] = after;
  if (extra.length > 0) return undefined;
  if (name === undefined) return { op: 'names' };
  if (name === 'add' && range === undefined) return { op: 'nameAdd' };
  if (range === undefined) return { op: 'name', name };
  if (range !== 'range') return undefined;
  if (action === undefined) return { op: 'nameRange', name };
  if (action === 'insert' || action === 'delete' || action === 'clear') {
    return { op: 'nameRangeAction', name, action };
  }
  return undefined;
}

/** Which HTTP methods each operation answers, and whether it changes the workbook. */
export const METHODS: Record<Operation, { methods: string[]; write: boolean }> = {
  batch: { methods: ['POST'], write: false },
  me: { methods: ['GET'], write: false },
  share: { methods: ['GET'], write: false },
  driveItem: { methods: ['GET'], write: false },
  createSession: { methods: ['POST'], write: false },
  closeSession: { methods: ['POST'], write: false },
  refreshSession: { methods: ['POST'], write: false },
  worksheets: { methods: ['GET'], write: false },
  worksheet: { methods: ['GET'], write: false },
  usedRange: { methods: ['GET'], write: false },
  range: { methods: ['GET', 'PATCH'], write: true },
  rangeAction: { methods: ['POST'], write: true },
  names: { methods: ['GET'], write: false },
  nameAdd: { methods: ['POST'], write: true },
  name: { methods: ['GET', 'DELETE'], write: true },
  nameRange: { methods: ['GET', 'PATCH'], write: true },
  nameRangeAction: { methods: ['POST'], write: true },
};

/** Whether this request changes cells (a range PATCH or an insert/delete/clear). */
export const isWrite = (route: GraphRoute, method: string): boolean =>
  METHODS[route.op].write && method !== 'GET';

/**
 * The spreadsheets the emulator holds, who may open them, and how a range in A1 notation lands on
 * one of their tabs.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { formatRange, parseA1, type Box, type Bounds } from './a1.ts';
import { fromEmulatorCell, type EmulatorCell } from './cells.ts';
import type { StoredMetadata } from './developer-metadata.ts';
import { defaultRules, type UndocumentedRules } from './row-metadata.ts';
import { invalidArgument, unparsableRange } from './errors.ts';
import { DEFAULT_COLUMN_COUNT, DEFAULT_ROW_COUNT, copyTab, setCell, type Tab } from './grid.ts';

export interface Book {
  id: string;
  title: string;
  tabs: Tab[];
  /** Developer metadata on the spreadsheet and its sheets, in the order it was created. */
  metadata: StoredMetadata[];
  /** Principals (e-mail addresses) the spreadsheet is shared with, as editors. */
  sharedWith: Set<string>;
  /** "Anyone with the link can view": readable with an API key or by any principal. */
  isPublic: boolean;
  /** Drive's `version` of the file: moves on every change to the spreadsheet. */
  version: number;
  /** Characters of developer metadata (keys and values) the spreadsheet may hold; none: no cap. */
  metadataCharsCap?: number;
  /** What the emulator does where the reference is silent, shared by every spreadsheet. */
  rules: UndocumentedRules;
}

export interface TabInput {
  title: string;
  rows: EmulatorCell[][];
  /** Grid size; at least Google's 1000 × 26 and the data's size unless given. */
  rowCount?: number;
  columnCount?: number;
}

export interface SpreadsheetInput {
  id?: string;
  title?: string;
  tabs: TabInput[];
  sharedWith?: string[];
  public?: boolean;
}

/** A random id of Google's shape: 44 characters of the URL-safe base64 alphabet. */
export function spreadsheetId(): string {
  return `1${randomBytes(33).toString('base64url').slice(0, 43)}`;
}

export function newBook(input: SpreadsheetInput, rules = defaultRules()): Book {
  if (input.tabs.length === 0) throw new Error('A spreadsheet needs at least one tab');
  const tabs = input.tabs.map((tab, index) => newTab(tab, index === 0 ? 0 : randomInt(1, 2 ** 31)));
  return {
    id: input.id ?? spreadsheetId(),
    title: input.title ?? 'Untitled spreadsheet',
    tabs,
    metadata: [],
    sharedWith: new Set(input.sharedWith ?? []),
    isPublic: input.public ?? false,
    version: 1,
    rules,
  };
}

function newTab(input: TabInput, sheetId: number): Tab {
  const width = Math.max(0, ...input.rows.map((row) => row.length));
  const tab: Tab = {
    sheetId,
    title: input.title,
    rowCount: input.rowCount ?? Math.max(DEFAULT_ROW_COUNT, input.rows.length),
    columnCount: input.columnCount ?? Math.max(DEFAULT_COLUMN_COUNT, width),
    rows: [],
  };
  fillTab(tab, input.rows);
  return tab;
}

/** Replaces a tab's cells, growing its grid to fit them. */
export function fillTab(tab: Tab, rows: EmulatorCell[][]): void {
  tab.rows = [];
  rows.forEach((row, r) => row.forEach((cell, c) => setCell(tab, r, c, fromEmulatorCell(cell))));
  tab.rowCount = Math.max(tab.rowCount, rows.length);
  tab.columnCount = Math.max(tab.columnCount, ...rows.map((row) => row.length));
}

/** A copy of a spreadsheet that a write may change freely; a refused write leaves it uncommitted. */
export function draftOf(book: Book): Book {
  return { ...book, tabs: book.tabs.map(copyTab), metadata: [...book.metadata] };
}

/** Makes a write's draft the spreadsheet: a change, as Drive's version counts them. */
export function commit(book: Book, draft: Book): void {
  book.tabs = draft.tabs;
  book.metadata = draft.metadata;
  book.version++;
}

export function tabByTitle(book: Book, title: string): Tab | undefined {
  return book.tabs.find((tab) => tab.title === title);
}

export interface ResolvedRange {
  tab: Tab;
  /** The bounds as written, open sides left undefined. */
  bounds: Bounds;
}

/** Finds the tab and cells a range names; a missing tab is "Unable to parse range", as in Sheets. */
export function resolveRange(book: Book, text: string): ResolvedRange {
  const parsed = parseA1(text);
  if (!parsed) throw unparsableRange(text);
  if (parsed.sheet !== undefined) {
    const tab = tabByTitle(book, parsed.sheet);
    if (!tab) throw unparsableRange(text);
    return { tab, bounds: parsed.cells ?? {} };
  }
  const named = parsed.bare === undefined ? undefined : tabByTitle(book, parsed.bare);
  if (named) return { tab: named, bounds: {} };
  const first = book.tabs[0];
  if (!parsed.cells || !first) throw unparsableRange(text);
  return { tab: first, bounds: parsed.cells };
}

export const exceedsGrid = (tab: Tab, bounds: Bounds): Error =>
  invalidArgument(
    `Range (${formatRange(tab.title, bounds)}) exceeds grid limits. ` +
      `Max rows: ${tab.rowCount}, max columns: ${tab.columnCount}`,
  );

/**
 * The box a range covers on its tab's grid: open sides stop at the grid's edge, and a range that
 * reaches past the grid is refused, as Sheets refuses it.
 */
export function boxOf({ tab, bounds }: ResolvedRange): Box {
  const box: Box = {
    startRow: bounds.startRow ?? 0,
    endRow: bounds.endRow ?? tab.rowCount,
    startColumn: bounds.startColumn ?? 0,
    endColumn: bounds.endColumn ?? tab.columnCount,
  };
  const outside =
    box.startRow >= tab.rowCount ||
    box.startColumn >= tab.columnCount ||
    box.endRow > tab.rowCount ||
    box.endColumn > tab.columnCount;
  if (outside) throw exceedsGrid(tab, bounds);
  return box;
}

import type { Cell } from '../cells/cell.ts';
import { Problem } from '../errors/problem.ts';
import type { Sheet } from '../model/sheet.ts';
import type { NewSheet, SheetStore } from '../store/store.ts';

/**
 * `tab=*` asks for every tab of a workbook or spreadsheet, each as a sheet of its own. Excel
 * forbids `*` in a worksheet's name, so it cannot also name one.
 */
export const everyTab = '*';

/** A tab left out of an every-tab import, and why. */
export interface SkippedTab {
  tab: string;
  reason: string;
  /** The sheet that already mirrors the tab, when that is why it was skipped. */
  sheet?: { id: string; name: string };
}

/** Sheets made at once from every tab of a workbook or spreadsheet, and the tabs left out. */
export interface SheetsCreated {
  sheets: Sheet[];
  skipped: SkippedTab[];
}

export interface EveryTab<T> {
  read: { tab: string; table: T }[];
  skipped: SkippedTab[];
}

/**
 * Reads each tab; one whose first row is no usable header (an empty tab among them) is skipped
 * with the reason it would have been refused for, so the other tabs still come in. Any other
 * failure fails the whole import. Refused too when no tab is left, as there is nothing to make.
 */
export function readEveryTab<T>(tabs: string[], read: (tab: string) => T): EveryTab<T> {
  const result: EveryTab<T> = { read: [], skipped: [] };
  for (const tab of tabs) {
    try {
      result.read.push({ tab, table: read(tab) });
    } catch (error) {
      if (!(error instanceof Problem && error.code === 'invalid-header')) throw error;
      result.skipped.push({ tab, reason: error.detail });
    }
  }
  if (result.read.length === 0) {
    const why = result.skipped.map((s) => `"${s.tab}": ${s.reason}`).join(' ');
    throw new Problem(
      'invalid-header',
      result.skipped.length === 0
        ? 'The workbook has no tab.'
        : `No tab has a usable header row. ${why}`,
      { skipped: result.skipped },
    );
  }
  return result;
}

/** The name of the sheet made from one tab of many: `<name> / <tab>`. */
export function tabSheetName(name: string, tab: string): string {
  return `${name} / ${tab}`;
}

/**
 * Makes the sheets of an every-tab import one after another. Should one fail, those already made
 * are removed again, so that the import leaves all of them or none.
 */
export async function createEach(
  store: Pick<SheetStore, 'createSheet' | 'deleteSheet'>,
  made: { draft: NewSheet; rows: AsyncIterable<Cell[][]> | Iterable<Cell[][]> }[],
): Promise<Sheet[]> {
  const sheets: Sheet[] = [];
  try {
    for (const { draft, rows } of made) sheets.push(await store.createSheet(draft, rows));
  } catch (error) {
    await Promise.allSettled(sheets.map((sheet) => store.deleteSheet(sheet.id)));
    throw error;
  }
  return sheets;
}
